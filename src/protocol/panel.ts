// The messages between the extension host and the webview, in both directions.
// Imported with `import type` by both sides; each side checks what it receives
// (isWebviewMessage / isHostMessage) because a message is untrusted until checked.
import type { WireAttention } from '../core/result/wire.js';
import type { LinalgJson } from '../core/result/linalg-json.js';

import type { ExportFormat, MatrixMode, Role, ViewName } from '../core/vocabulary.js';
import type { SpecOpen } from '../core/spec/spec.js';

// The words of the messages (views, roles, modes, formats) live in vocabulary.ts.
export { EXPORT_FORMATS, MATRIX_MODES, ROLES, VIEW_NAMES } from '../core/vocabulary.js';
export type { ViewName } from '../core/vocabulary.js';
/** The weight matrices' roles, as PanelState.projection and a 'matrix' reveal name them. */
export type MatrixRoleName = Role;
/** What the matrix view shows, as PanelState.matrixMode names it. */
export type MatrixModeName = MatrixMode;

/** A problem as the panel lists it: already placed at line and column. */
export interface PanelProblem {
  severity: 'error' | 'warning';
  message: string;
  path: string;
  line: number;
  column: number;
}

/** What the webview remembers across reloads (getState/setState) and what the serializer restores. */
export interface PanelState {
  documentUri: string;
  view: ViewName;
  head: number | 'all';
  input: number;
  /** The token the user picked (step-by-step and projection use it); -1 until one is picked. */
  token: number;
  matrixMode?: MatrixModeName;
  projection?: MatrixRoleName;
  locked?: boolean;
}

// ---- host → webview ----

/**
 * The story of the spec shown: its description, where the panel opens on it (a view, and input, head
 * and token indices, as the spec's "open" names them) and the spec that comes next, with its title.
 */
export interface PanelStory {
  description?: string;
  open?: SpecOpen;
  /** `file`: a spec in the same folder (a bare name, *.attn.json); `title`: its title, or the name. */
  next?: { file: string; title: string };
}

/** A fresh result for a document version: a small header and one binary buffer with every tensor: the result model serialised (core/result/wire.ts), as the analysis worker sent it to the host. */
export interface RenderMessage {
  type: 'render';
  documentUri: string;
  fileName: string;
  version: number;
  result: WireAttention;
  buffer: ArrayBuffer;
  warnings: PanelProblem[];
  /** Absent when the spec has no description, "open" or "next". */
  story?: PanelStory;
}

/** The spec is broken: list the problems and keep the last good picture, dimmed. */
export interface ProblemsMessage {
  type: 'problems';
  documentUri: string;
  fileName: string;
  version: number;
  problems: PanelProblem[];
  /**
   * The spec is well formed but drawn by another editor (a model spec, a referenced attention file):
   * the panel says so in place of "fix the problems", with a button that opens that editor.
   */
  elsewhere?: PanelElsewhere;
}

/** Where a spec's picture is drawn instead of the panel: a sentence, and the label of the button that opens it. */
export interface PanelElsewhere {
  message: string;
  action: string;
}

/** Ask the webview for the current view as a standalone SVG (for Export SVG / PNG). */
export interface ExportRequestMessage {
  type: 'exportRequest';
  requestId: number;
  format: ExportFormat;
  /** 'light': drawn again on a light background (for slides and print); absent: as the panel shows it. */
  theme?: 'light';
}

export interface LockMessage {
  type: 'lock';
  locked: boolean;
}

/** Work on a version is under way: heads computed so far out of all (inputs × heads). */
export interface ProgressMessage {
  type: 'progress';
  documentUri: string;
  version: number;
  done: number;
  total: number;
}

/** The numbers of the linear-algebra views for a version, sent when the webview asked for them ('need'). */
export interface LinalgMessage {
  type: 'linalg';
  documentUri: string;
  version: number;
  linalg: LinalgJson;
}

export type HostMessage = RenderMessage | ProblemsMessage | ExportRequestMessage | LockMessage | ProgressMessage | LinalgMessage;

// ---- webview → host ----

/** The webview script is running and wants the current result. */
export interface ReadyMessage {
  type: 'ready';
}

/** The webview painted a result: used for timings and by the tests (the model page's report has the same name and its drawMs). */
export interface PaintedMessage {
  type: 'painted';
  documentUri: string;
  version: number;
  view: ViewName;
  /** Milliseconds the webview spent drawing. */
  drawMs: number;
}

/** Show a place in the spec: a token of an input, a matrix cell, or a problem's position. */
export interface RevealMessage {
  type: 'reveal';
  documentUri: string;
  target:
    | { kind: 'token'; input: number; token: number }
    | { kind: 'matrix'; role: MatrixRoleName; head?: number; row?: number; col?: number }
    | { kind: 'position'; line: number; column: number };
}

export interface StateMessage {
  type: 'state';
  state: PanelState;
}

export interface ExportResultMessage {
  type: 'exportResult';
  requestId: number;
  format: ExportFormat;
  /** SVG text, or a PNG as a data: URL. */
  data: string;
}

/** A view needs what the result lacks (the linear-algebra numbers are made only when a view shows them). */
export interface NeedMessage {
  type: 'need';
  documentUri: string;
  version: number;
  what: 'linalg';
}

/** The user chose "Next": open the spec the story names next (the host opens only the one it offered). */
export interface OpenNextMessage {
  type: 'openNext';
  documentUri: string;
  /** A bare file name in the shown spec's folder, ending .attn.json. */
  file: string;
}

/** The user chose the button of a ProblemsMessage's `elsewhere`: open the editor that draws the spec. */
export interface OpenElsewhereMessage {
  type: 'openElsewhere';
  documentUri: string;
}

export type WebviewMessage = ReadyMessage | PaintedMessage | RevealMessage | StateMessage | ExportResultMessage | NeedMessage | OpenNextMessage
  | OpenElsewhereMessage;
