// What activate() returns: a small window into the panels for the integration tests.
import type { ViewName } from '../protocol/panel.js';
import type { ModelEditorInfo } from './model-editor/editor.js';

export type PanelStatus = 'ready' | 'error' | 'loading';

export interface PanelInfo {
  documentUri: string;
  /** The document version the panel last showed (rendered or listed problems for). */
  version: number;
  state: PanelStatus;
  /** Tokens of the input the panel shows, from the last result it rendered. */
  tokens: string[];
  view: ViewName | string;
  locked: boolean;
}

export interface Timings {
  /** From the extension's module loading to the end of activate(). */
  activateMs: number;
  /** From the last Show Attention to the webview's first 'rendered' after it. */
  lastShowToPaintMs?: number;
  /** From the first edit after a paint to the webview's 'rendered' of that version or a later one. */
  lastEditToPaintMs?: number;
  /** The wait the panel chose after the last edit (about the cost of the last redraw). */
  lastUpdateDelayMs?: number;
  /** Bytes of the binary buffer of the last result posted to a panel. */
  lastMessageBytes?: number;
  /** Milliseconds the last analysis took in the worker (read, compute, pack). */
  lastAnalysisMs?: number;
  /** Milliseconds the last result's postMessage held the host's thread. */
  lastPostMs?: number;
}

export interface AttentionLensApi {
  panels(): PanelInfo[];
  timings(): Timings;
  /** The open model editors (.safetensors, .npy, .npz). */
  modelEditors(): ModelEditorInfo[];
  /** Asks the model editors open on a file (URI string) to show a view of a head. */
  showModel(uri: string, view: 'model' | 'head' | 'finder' | 'rollout', layer: number, head: number): void;
  /** The longest stall of the extension host's thread since the last resetStall(), in ms. */
  maxStallMs(): number;
  resetStall(): void;
}
