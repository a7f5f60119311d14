// What the model editor keeps of itself through VS Code's webview state (vscode.getState/setState):
// the view, layer, head, token, statistic, sort and k, and a big head's map: its colour switches and
// the shown head's zoom (the token at its centre and the tokens it spans, whatever the width). VS Code drops a hidden editor's page
// (retainContextWhenHidden is off, to keep memory low) and makes it anew when the tab is shown
// again or moved to another group; the page reads this back, so the user finds the view and the
// head they left. The state is read as untrusted: only well-formed fields are taken.
import { MODEL_VIEW_NAMES, type ModelViewName } from '../../src/core/vocabulary.js';
import { STAT_NAMES, type StatName } from '../../src/core/tensors/head-stats.js';
import type { VsCodeApi } from '../shell/transport.js';

export interface KeptState {
  view: ModelViewName;
  layer: number;
  head: number;
  token: number;
  stat: StatName;
  sort: boolean;
  k: number;
  map?: KeptMap;
}

/** The map's switches, and the zoom of the head it showed. */
export interface KeptMap {
  colour: 'max' | 'mass';
  scale: 'linear' | 'log';
  zoom?: { layer: number; head: number; ci: number; cj: number; span: number };
}

/** Largest index taken back (a model has far fewer layers, heads or tokens; the app clamps to its own). */
const MAX_INDEX = 1 << 20;
const isIndex = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < MAX_INDEX;

/** The well-formed fields of a kept state (anything else, or nothing, gives {}). */
export function readKept(saved: unknown): Partial<KeptState> {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return {};
  const s = saved as Record<string, unknown>;
  const out: Partial<KeptState> = {};
  if (MODEL_VIEW_NAMES.includes(s.view as ModelViewName)) out.view = s.view as ModelViewName;
  if (STAT_NAMES.includes(s.stat as StatName)) out.stat = s.stat as StatName;
  if (isIndex(s.layer)) out.layer = s.layer;
  if (isIndex(s.head)) out.head = s.head;
  if (isIndex(s.token)) out.token = s.token;
  if (typeof s.sort === 'boolean') out.sort = s.sort;
  if (Number.isInteger(s.k) && (s.k as number) >= 1 && (s.k as number) <= 16) out.k = s.k as number;
  const map = readMap(s.map);
  if (map) out.map = map;
  return out;
}

const isPlace = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x < MAX_INDEX;

/** The map's kept switches and zoom, or undefined; a zoom that is not one is left out. */
function readMap(saved: unknown): KeptMap | undefined {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return undefined;
  const m = saved as Record<string, unknown>;
  if ((m.colour !== 'max' && m.colour !== 'mass') || (m.scale !== 'linear' && m.scale !== 'log')) return undefined;
  const z = m.zoom as Record<string, unknown> | undefined;
  const zoom = typeof z === 'object' && z !== null && isIndex(z.layer) && isIndex(z.head) && isPlace(z.ci) && isPlace(z.cj) && isPlace(z.span) && (z.span as number) >= 1
    ? { layer: z.layer, head: z.head, ci: z.ci as number, cj: z.cj as number, span: z.span as number } : undefined;
  return { colour: m.colour, scale: m.scale, ...(zoom ? { zoom } : {}) };
}

/** The state to start from and how to keep it, through VS Code's webview API. */
export function keptThrough(api: Pick<VsCodeApi<unknown>, 'getState' | 'setState'>): { initial: Partial<KeptState>; keep: (state: KeptState) => void } {
  let initial: Partial<KeptState> = {};
  try {
    initial = readKept(api.getState());
  } catch {
    // A state that cannot be read back is forgotten: the editor opens on its grid.
  }
  return { initial, keep: (state) => api.setState({ ...state }) };
}
