// Checks a message from the webview before the host acts on it. A webview's messages are
// untrusted until checked: anything that does not match panel.ts exactly is rejected.
// The small checks (isIndex, isOneOf; isObject is core/json/object.ts) are shared with the webview's
// checks of host messages (src/protocol/host-message-check.ts) and its saved state (webview/panel/state.ts).
import { isObject } from '../core/json/object.js';
import { badNextName } from '../core/spec/read/story.js';
import { EXPORT_FORMATS, MATRIX_MODES, ROLES, VIEW_NAMES, type PanelState, type RevealMessage, type WebviewMessage } from './panel.js';
import { checkOf, type ByType } from './by-type.js';

/** A whole number ≥ min (array indices, versions, request ids). Not for Array.filter: its 2nd argument would be min. */
export function isIndex(x: unknown, min = 0): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= min;
}

/** One of the listed strings. */
export function isOneOf<T extends string>(x: unknown, options: readonly T[]): x is T {
  return typeof x === 'string' && (options as readonly string[]).includes(x);
}

function isOptional(x: unknown, check: (v: unknown) => boolean): boolean {
  return x === undefined || check(x);
}

/** The check of each field of a PanelState; the compiler holds the table to PanelState's fields. */
const PANEL_STATE_FIELDS = {
  documentUri: (v) => typeof v === 'string',
  view: (v) => isOneOf(v, VIEW_NAMES),
  head: (v) => v === 'all' || isIndex(v),
  input: (v) => isIndex(v),
  token: (v) => v === -1 || isIndex(v),
  matrixMode: (v) => isOptional(v, (m) => isOneOf(m, MATRIX_MODES)),
  projection: (v) => isOptional(v, (p) => isOneOf(p, ROLES)),
  locked: (v) => isOptional(v, (l) => typeof l === 'boolean'),
} satisfies { readonly [K in keyof PanelState]-?: (v: unknown) => boolean };

export function isPanelState(x: unknown): x is PanelState {
  return isObject(x) && Object.entries(PANEL_STATE_FIELDS).every(([key, check]) => check(x[key]));
}

/** The check of every kind of place a 'reveal' shows (RevealMessage's target), by its kind. */
const REVEAL_TARGET_CHECKS = {
  token: (t) => isIndex(t.input) && isIndex(t.token),
  matrix: (t) => isOneOf(t.role, ROLES)
    && isOptional(t.head, (v) => isIndex(v)) && isOptional(t.row, (v) => isIndex(v)) && isOptional(t.col, (v) => isIndex(v)),
  position: (t) => isIndex(t.line, 1) && isIndex(t.column, 1),
} satisfies { readonly [K in RevealMessage['target']['kind']]: (t: Record<string, unknown>) => boolean };

function isRevealTarget(t: unknown): boolean {
  if (!isObject(t)) return false;
  const check = checkOf<(t: Record<string, unknown>) => boolean>(REVEAL_TARGET_CHECKS, t.kind);
  return check !== undefined && check(t);
}

/** Whether a message of its type is well formed (its type already matched). */
type WebviewCheck = (x: Record<string, unknown>) => boolean;

/** The check of every message the webview sends (panel.ts's WebviewMessage), by its type. */
const WEBVIEW_CHECKS = {
  ready: () => true,
  painted: (x) => typeof x.documentUri === 'string'
    && isIndex(x.version)
    && isOneOf(x.view, VIEW_NAMES)
    && typeof x.drawMs === 'number' && Number.isFinite(x.drawMs) && x.drawMs >= 0,
  reveal: (x) => typeof x.documentUri === 'string' && isRevealTarget(x.target),
  state: (x) => isPanelState(x.state),
  exportResult: (x) => isIndex(x.requestId) && isOneOf(x.format, EXPORT_FORMATS) && typeof x.data === 'string',
  need: (x) => typeof x.documentUri === 'string' && isIndex(x.version) && x.what === 'linalg',
  openNext: (x) => typeof x.documentUri === 'string' && typeof x.file === 'string' && badNextName(x.file) === undefined,
  openElsewhere: (x) => typeof x.documentUri === 'string',
} satisfies ByType<WebviewMessage, WebviewCheck>;

export function isWebviewMessage(x: unknown): x is WebviewMessage {
  if (!isObject(x)) return false;
  const check = checkOf<WebviewCheck>(WEBVIEW_CHECKS, x.type);
  return check !== undefined && check(x);
}
