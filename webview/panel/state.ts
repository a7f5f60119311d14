// What the panel remembers: view, head, input, token and modes. Restored from the host's
// data-panel-state attribute or from acquireVsCodeApi().getState(), kept inside the data's bounds,
// saved with setState and sent to the host as a 'state' message when the user changes it.
import { MATRIX_MODES, ROLES, VIEW_NAMES, type PanelState, type ViewName } from '../../src/protocol/panel.js';
import { isIndex, isOneOf } from '../../src/protocol/panel-check.js';
import type { AttentionData } from '../../src/core/result/attention-data.js';
import type { MatrixMode, Role } from '../kit/view.js';

export interface UiState {
  view: ViewName;
  head: number | 'all';
  input: number;
  /** -1 until a token is picked: the view chooses (the last token, or a word shared by inputs). */
  token: number;
  matrixMode: MatrixMode;
  projection: Role;
  hiddenHeads: number[];
  locked: boolean;
}

export const DEFAULT_STATE: UiState = {
  view: 'arcs', head: 'all', input: 0, token: -1, matrixMode: 'weights', projection: 'wq', hiddenHeads: [], locked: false,
};

/** Whatever is usable in `raw` (a saved state of any age), over the defaults. */
export function restoreState(raw: unknown): UiState {
  const s: UiState = { ...DEFAULT_STATE, hiddenHeads: [] };
  if (typeof raw !== 'object' || raw === null) return s;
  const r = raw as Record<string, unknown>;
  if (isOneOf(r.view, VIEW_NAMES)) s.view = r.view;
  if (r.head === 'all' || isIndex(r.head)) s.head = r.head;
  if (isIndex(r.input)) s.input = r.input;
  if (isIndex(r.token)) s.token = r.token;
  if (isOneOf(r.matrixMode, MATRIX_MODES)) s.matrixMode = r.matrixMode;
  if (isOneOf(r.projection, ROLES)) s.projection = r.projection;
  if (Array.isArray(r.hiddenHeads)) s.hiddenHeads = r.hiddenHeads.filter((h) => isIndex(h));
  if (typeof r.locked === 'boolean') s.locked = r.locked;
  return s;
}

/** The state kept inside what `data` has: an input, head and token that exist. */
export function clampState(s: UiState, data: AttentionData): UiState {
  const out = { ...s, hiddenHeads: [...s.hiddenHeads] };
  if (out.input >= data.inputs.length) out.input = 0;
  const input = data.inputs[out.input];
  const heads = input?.heads.length ?? 0;
  if (out.head !== 'all' && out.head >= heads) out.head = 'all';
  if (out.token >= (input?.tokens.length ?? 0)) out.token = -1;
  out.hiddenHeads = out.hiddenHeads.filter((h) => h < heads);
  if (out.projection === 'wo' && !data.matrices.some((m) => m.role === 'wo')) out.projection = 'wq';
  return out;
}

/** The protocol's PanelState (what the host stores and the serializer restores). */
export function toPanelState(s: UiState, documentUri: string, token: number): PanelState {
  return {
    documentUri, view: s.view, head: s.head, input: s.input, token: Math.max(0, token),
    matrixMode: s.matrixMode, projection: s.projection, locked: s.locked,
  };
}
