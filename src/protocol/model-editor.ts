// The model editor's messages, and their checks (run on both sides: a message is untrusted until
// checked). The host posts the header with typed arrays (thumbnails, a head, the rollout), which
// postMessage carries as binary; the webview asks for a head, the rollout, or the softmax.
import { STAT_NAMES, type HeadStats } from '../core/tensors/head-stats.js';
import { MAX_WINDOW_CELLS, SENT_PICTURE_MAX, type CellWindow, type ModelHeader, type ModelRunInfo } from '../core/model-attention/data.js';
import { isObject } from '../core/json/object.js';
import { headMapProblem, headTileProblem, tileProblem, type HeadMap, type HeadTile } from '../core/model-attention/tiles.js';
import { MAX_TOKENS } from '../core/tensors/attention-file.js';
// Quotes what a message holds: String() throws on an object whose toString is not a function, as JSON.parse makes { "toString": 1 }.
import { shown } from '../core/json/shown.js';
import { EXPORT_FORMATS, MODEL_VIEW_NAMES, type ExportFormat, type ModelViewName } from '../core/vocabulary.js';
import { checkOf, type ByType } from './by-type.js';
import { logitLensProblem, runAnalysesProblem, type RunAnalyses } from '../core/model-attention/run-analyses.js';
import type { NextToken } from '../core/checkpoint/types.js';
import type { AblationMode, HeadRef } from '../core/model-analysis/types.js';
import { headListProblem, isAblationMode, runAblationProblem } from './ablation-check.js';

/** Whether `res` may be the side of an n-token head's picture: a whole number from 1 to min(n, SENT_PICTURE_MAX). */
export function pictureSide(res: unknown, n: number): boolean {
  return typeof res === 'number' && Number.isInteger(res) && res >= 1 && res <= Math.min(n, SENT_PICTURE_MAX);
}

export type ModelHostMessage =
  /** The file: its header with the heads read so far (stats), thumbnails for every head (zero where not read). */
  | { type: 'model'; header: ModelHeader; thumbnails: Float32Array | Uint8Array }
  /** More heads read, in order from `from` (the count read before): their statistics and thumbnails. */
  | { type: 'scanned'; from: number; stats: HeadStats[]; thumbnails: Float32Array | Uint8Array; offRows: number; warnings: string[] }
  /**
   * A head, whole (weights) or, above WHOLE_HEAD_MAX tokens, as its picture and strongest weight, and
   * its map (levels, sinks, the two colour scales) once the scan has reached it: tiles are asked then.
   */
  | { type: 'head'; layer: number; head: number; weights?: Float32Array; picture?: { res: number; indices: Uint8Array }; max?: number; map?: HeadMap; valueNorms?: Float32Array }
  /** A tile of a big head's map, asked for by the webview (clipped to the head). */
  | ({ type: 'tile'; layer: number; head: number } & HeadTile)
  /** Exact weights of a window of a head, asked for by the webview. */
  | ({ type: 'window'; layer: number; head: number } & CellWindow)
  | { type: 'rollout'; rollout: Float32Array | null }
  /** Show this view (of this head): a command or a test asks the editor for it. */
  | { type: 'show'; view: ModelViewName; layer: number; head: number }
  /** The attention shown is a model run's: its model and next tokens (the next-token view, the lens buttons). */
  | ({ type: 'run' } & ModelRunInfo)
  /** The run's attribution, patching and generated tokens, and the step its views show (model-analysis). */
  | ({ type: 'analyses' } & Omit<RunAnalyses, 'logitLens' | 'logitLensError'>)
  /** The run's logit lens, asked for by its view: [layer][position] → five tokens, or why there is none. */
  | { type: 'logitLens'; lens?: NextToken[][][]; error?: string }
  | { type: 'error'; message: string };

export type ModelWebviewMessage =
  | { type: 'ready' }
  | { type: 'head'; layer: number; head: number }
  /** Exact weights of rows i0 … i0 + rows − 1 by keys j0 … j0 + cols − 1 of a head (at most MAX_WINDOW_CELLS). */
  | { type: 'window'; layer: number; head: number; i0: number; rows: number; j0: number; cols: number }
  /** A tile of a big head's map: rows × cols blocks of 2^level × 2^level from block i0, j0 (at most MAX_TILE_CELLS). */
  | { type: 'tile'; layer: number; head: number; level: number; i0: number; j0: number; rows: number; cols: number }
  | { type: 'rollout' }
  | { type: 'softmax' }
  /** Export the shown view: an SVG text or a PNG data: URL (the host checks the bytes again). */
  | { type: 'export'; format: ExportFormat; view: string; data: string }
  /** The webview drew a view (for tests and timings): which, and how many heads or cells it shows. */
  | { type: 'painted'; view: string; items: number; drawMs: number }
  /** A run's head at a query token, in the spec views: opened at once, or saved as a spec first (`save`). */
  | { type: 'lens'; layer: number; head: number; token: number; save: boolean }
  /** The run's logit lens (its view opened). */
  | { type: 'logitLens' }
  /** Show the run's first `tokens` positions: a step through its generated tokens. */
  | { type: 'step'; tokens: number }
  /** Show the run's value-weighted norms (on) or its weights (a model run's editor). */
  | { type: 'norms'; on: boolean }
  /** Run again with these heads switched off (none: the run itself), their outputs replaced by zero or their mean. */
  | { type: 'ablate'; heads: HeadRef[]; mode: AblationMode };

/** The largest picture the webview may send for export (a 4,096-token head as PNG is far less). */
export const MAX_EXPORT_CHARS = 256 * 1024 * 1024;

const isIndex = (x: unknown, below: number): x is number => Number.isInteger(x) && (x as number) >= 0 && (x as number) < below;
const isCount = (x: unknown, max: number): x is number => Number.isInteger(x) && (x as number) >= 1 && (x as number) <= max;
/** Thumbnails as values (float32) or as each head's colour indices (thumbnailIndices). */
const isThumbnails = (x: unknown): x is Float32Array | Uint8Array => x instanceof Float32Array || x instanceof Uint8Array;
const isNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);

/** A window of rows × cols at i0, j0 inside n × n and of at most MAX_WINDOW_CELLS cells: why not, or undefined. */
function windowProblem(m: Record<string, unknown>, n: number): string | undefined {
  const { i0, rows, j0, cols } = m;
  if (!isIndex(i0, n) || !isIndex(j0, n) || !isCount(rows, n) || !isCount(cols, n)) return 'a window that is not whole numbers';
  if (i0 + rows > n || j0 + cols > n || rows * cols > MAX_WINDOW_CELLS) return `a window of ${rows} × ${cols} at ${i0}, ${j0} outside ${n} × ${n} or over ${MAX_WINDOW_CELLS} cells`;
  return undefined;
}

/** The header a webview message is checked against: undefined until the host has read the model. */
type HeaderShape = Pick<ModelHeader, 'layers' | 'heads' | 'tokens'> | undefined;
/** Why a message of its type (already matched) is malformed, or undefined. */
type WebviewCheck = (m: Record<string, unknown>, header: HeaderShape) => string | undefined;

/** The check of every message the model editor's webview sends (ModelWebviewMessage), by its type. */
const WEBVIEW_CHECKS = {
  ready: () => undefined,
  rollout: () => undefined,
  softmax: () => undefined,
  head: (m, header) => {
    if (!header) return 'a head asked for before the model was read';
    return isIndex(m.layer, header.layers) && isIndex(m.head, header.heads) ? undefined : `no head ${shown(m.layer)}, ${shown(m.head)} in ${header.layers} × ${header.heads}`;
  },
  window: (m, header) => {
    if (!header) return 'a window asked for before the model was read';
    if (!isIndex(m.layer, header.layers) || !isIndex(m.head, header.heads)) return `no head ${shown(m.layer)}, ${shown(m.head)} in ${header.layers} × ${header.heads}`;
    return windowProblem(m, header.tokens);
  },
  tile: (m, header) => {
    if (!header) return 'a tile asked for before the model was read';
    if (!isIndex(m.layer, header.layers) || !isIndex(m.head, header.heads)) return `no head ${shown(m.layer)}, ${shown(m.head)} in ${header.layers} × ${header.heads}`;
    return tileProblem(header.tokens, m.level, m.i0, m.j0, m.rows, m.cols);
  },
  export: (m) => {
    if (!EXPORT_FORMATS.includes(m.format as ExportFormat)) return `an export that is neither ${EXPORT_FORMATS.join(' nor ')}`;
    // The model views' own names (head-tokens, logit-lens): the file's name is made from it.
    if (!MODEL_VIEW_NAMES.includes(m.view as ModelViewName)) return 'an export of an unknown view';
    return typeof m.data === 'string' && m.data.length <= MAX_EXPORT_CHARS ? undefined : 'an export that is not text of at most 256 MB';
  },
  painted: (m) => (typeof m.view === 'string' && m.view.length < 40 && isNum(m.items) && isNum(m.drawMs) ? undefined : 'a malformed painted report'),
  lens: (m, header) => {
    if (!header) return 'a head for the lens asked for before the model was read';
    if (!isIndex(m.layer, header.layers) || !isIndex(m.head, header.heads)) return `no head ${shown(m.layer)}, ${shown(m.head)} in ${header.layers} × ${header.heads}`;
    if (!isIndex(m.token, header.tokens)) return `no token ${shown(m.token)} of ${header.tokens}`;
    return typeof m.save === 'boolean' ? undefined : 'a lens request that does not say whether to save';
  },
  logitLens: () => undefined,
  step: (m) => (isCount(m.tokens, MAX_SIDE + MAX_GENERATED) ? undefined : `a step to ${shown(m.tokens)} tokens, not a count of tokens`),
  norms: (m) => (typeof m.on === 'boolean' ? undefined : 'a norms switch that is neither on nor off'),
  ablate: (m, header) => {
    if (!header) return 'heads to ablate named before the model was read';
    return headListProblem(m.heads, header.layers, header.heads) ?? (isAblationMode(m.mode) ? undefined : 'an ablation whose mode is neither zero nor mean');
  },
} satisfies ByType<ModelWebviewMessage, WebviewCheck>;

/** A message from the webview, checked against the header the host holds: why not, or undefined. */
export function webviewMessageProblem(m: unknown, header: HeaderShape): string | undefined {
  if (!isObject(m) || typeof m.type !== 'string') return 'not a message';
  const check = checkOf<WebviewCheck>(WEBVIEW_CHECKS, m.type);
  return check ? check(m, header) : `unknown message type ${JSON.stringify(m.type).slice(0, 40)}`;
}

/** The most next tokens a run message may list, and the longest model name or token text. */
const MAX_NEXT = 10, MAX_TEXT = 1000;
/** The most mask tokens whose guesses a run message may carry (the host sends the first ones). */
export const MAX_MASKED = 1024;

/** A run message's model and next tokens: why not, or undefined. */
export function runInfoProblem(m: Record<string, unknown>): string | undefined {
  if (typeof m.model !== 'string' || m.model.length > MAX_TEXT) return 'a run without its model';
  if (!isNum(m.forwardMs)) return 'a run without its time';
  if (!Array.isArray(m.next) || m.next.length > MAX_NEXT) return `a run whose next tokens are not a list of at most ${MAX_NEXT}`;
  if (tokensProblem(m.next)) return 'a next token that is not { id, token, p in [0, 1] }';
  if (m.note !== undefined && (typeof m.note !== 'string' || m.note.length > MAX_TEXT)) return 'a run whose note is not a short text';
  if (m.precision !== undefined && m.precision !== 'f32' && m.precision !== 'f64') return 'a run whose precision is not "f32" or "f64"';
  if (m.ablation !== undefined) { const bad = runAblationProblem(m.ablation, tokensProblem, MAX_NEXT); if (bad) return bad; }
  if (m.masked === undefined) return undefined;
  if (!Array.isArray(m.masked) || m.masked.length > MAX_MASKED) return `a run whose masked guesses are not a list of at most ${MAX_MASKED}`;
  for (const g of m.masked as unknown[]) {
    if (!isObject(g) || !Number.isInteger(g.position) || (g.position as number) < 0 || !Array.isArray(g.guesses) || g.guesses.length > MAX_NEXT || tokensProblem(g.guesses)) {
      return 'a masked guess that is not { position, guesses: at most ' + MAX_NEXT + ' of { id, token, p in [0, 1] } }';
    }
  }
  return undefined;
}

/** Whether a list of tokens is not { id, token, p in [0, 1] } each. */
function tokensProblem(tokens: unknown[]): boolean {
  return tokens.some((t) => !isObject(t) || !Number.isInteger(t.id) || typeof t.token !== 'string' || t.token.length > MAX_TEXT || !isNum(t.p) || (t.p as number) < 0 || (t.p as number) > 1);
}

export type { ModelRunInfo };

/** Statistics of heads from … from + length − 1 (at most `layers × heads` in all), in head order. */
function statsProblem(stats: unknown, layers: number, heads: number, from = 0): string | undefined {
  if (!Array.isArray(stats) || from + stats.length > layers * heads) return `stats is not a list of at most ${layers * heads - from} heads`;
  for (let i = 0; i < stats.length; i++) {
    const s: unknown = stats[i], k = from + i;
    if (!isObject(s) || s.layer !== Math.floor(k / heads) || s.head !== k % heads) return `stats[${k}] is not layer ${Math.floor(k / heads)} head ${k % heads}`;
    for (const name of STAT_NAMES) {
      const v = (s as unknown as HeadStats)[name];
      if (!(isNum(v) || (v === null && (name === 'previousToken' || name === 'duplicateToken' || name === 'induction')))) return `stats[${from + i}].${name} is not a finite number`;
    }
  }
  return undefined;
}

const MAX_SIDE = MAX_TOKENS, MAX_HEADS = 16384, MAX_GENERATED = 256;

/** Why a message of its type (already matched) is malformed, or undefined; `header` is the model's once read. */
type HostCheck = (m: Record<string, unknown>, header: ModelHeader | undefined) => string | undefined;

/** The check of every message the host sends the model editor (ModelHostMessage), by its type. */
const HOST_CHECKS = {
  error: (m) => (typeof m.message === 'string' ? undefined : 'an error without a message'),
  run: (m) => runInfoProblem(m),
  analyses: (m) => runAnalysesProblem(m),
  logitLens: (m) => {
    if (m.error !== undefined) return typeof m.error === 'string' && m.error.length <= MAX_TEXT && m.lens === undefined ? undefined : 'a logit lens error that is not a short text alone';
    return logitLensProblem(m.lens);
  },
  model: (m) => {
    const h = m.header;
    if (!isObject(h)) return 'the model has no header';
    if (typeof h.file !== 'string' || typeof h.dtype !== 'string') return 'the header has no file or dtype';
    if (!isCount(h.layers, MAX_HEADS) || !isCount(h.heads, MAX_HEADS) || (h.layers as number) * (h.heads as number) > MAX_HEADS) return 'the header\'s layers × heads are not counts';
    if (!isCount(h.tokens, MAX_SIDE) || !isCount(h.thumb, 64) || h.thumb !== Math.min(h.tokens as number, 64)) return 'the header\'s tokens or thumbnail size are wrong';
    if (!Array.isArray(h.tokenTexts) || !(h.tokenTexts.length === 0 || h.tokenTexts.length === h.tokens) || h.tokenTexts.some((t) => typeof t !== 'string')) return 'tokenTexts is not one string per token';
    if (!Array.isArray(h.warnings) || h.warnings.some((w) => typeof w !== 'string')) return 'warnings are not text';
    if (!Number.isInteger(h.offRows) || typeof h.softmaxed !== 'boolean') return 'offRows or softmaxed is missing';
    if (h.norms !== undefined && typeof h.norms !== 'boolean') return 'norms is not true or false';
    const stats = statsProblem(h.stats, h.layers as number, h.heads as number);
    if (stats) return stats;
    if (!isThumbnails(m.thumbnails) || m.thumbnails.length !== (h.layers as number) * (h.heads as number) * (h.thumb as number) ** 2) return 'the thumbnails are not layers × heads × thumb² float32 (or colour indices)';
    return undefined;
  },
  scanned: (m, header) => {
    if (!header) return 'heads before the model';
    if (m.from !== header.stats.length) return `heads from ${shown(m.from)}, but ${header.stats.length} were read`;
    const stats = statsProblem(m.stats, header.layers, header.heads, m.from);
    if (stats) return stats;
    const count = (m.stats as unknown[]).length;
    if (!isThumbnails(m.thumbnails) || m.thumbnails.length !== count * header.thumb ** 2) return 'the thumbnails are not one thumb² float32 (or colour indices) per head';
    if (!Number.isInteger(m.offRows) || (m.offRows as number) < 0) return 'offRows is not a count';
    return Array.isArray(m.warnings) && m.warnings.every((w) => typeof w === 'string') ? undefined : 'warnings are not text';
  },
  head: (m, header) => {
    if (!header) return 'a head before the model';
    if (!isIndex(m.layer, header.layers) || !isIndex(m.head, header.heads)) return 'a head outside the model';
    if (m.valueNorms !== undefined && !(m.valueNorms instanceof Float32Array && m.valueNorms.length === header.tokens)) return 'value norms that are not n float32';
    if (m.weights !== undefined) return m.weights instanceof Float32Array && m.weights.length === header.tokens ** 2 && m.map === undefined ? undefined : 'a head that is not n × n float32';
    if (m.map !== undefined) { const bad = headMapProblem(m.map, header.tokens); if (bad) return bad; }
    const p = m.picture;
    // A file's head comes at min(n, 512) a side; a long run's kept pictures are smaller (all of them fit a budget).
    if (!isObject(p) || !pictureSide(p.res, header.tokens) || !(p.indices instanceof Uint8Array) || p.indices.length !== (p.res as number) ** 2) return 'a head that is neither n × n float32 nor a res × res picture';
    return typeof m.max === 'number' && Number.isFinite(m.max) && m.max >= 0 ? undefined : 'a head picture without its strongest weight';
  },
  window: (m, header) => {
    if (!header) return 'a window before the model';
    if (!isIndex(m.layer, header.layers) || !isIndex(m.head, header.heads)) return 'a window outside the model';
    const bad = windowProblem(m, header.tokens);
    if (bad) return bad;
    return m.weights instanceof Float32Array && m.weights.length === (m.rows as number) * (m.cols as number) ? undefined : 'a window whose weights are not rows × cols float32';
  },
  tile: (m, header) => {
    if (!header) return 'a tile before the model';
    if (!isIndex(m.layer, header.layers) || !isIndex(m.head, header.heads)) return 'a tile outside the model';
    return headTileProblem(m, header.tokens);
  },
  show: (m, header) => {
    if (!header) return 'a view to show before the model';
    if (!MODEL_VIEW_NAMES.includes(m.view as ModelViewName)) return 'an unknown view to show';
    return isIndex(m.layer, header.layers) && isIndex(m.head, header.heads) ? undefined : 'a head to show outside the model';
  },
  rollout: (m, header) => {
    if (!header) return 'a rollout before the model';
    return m.rollout === null || (m.rollout instanceof Float32Array && m.rollout.length === header.tokens ** 2) ? undefined : 'a rollout that is not n × n float32';
  },
} satisfies ByType<ModelHostMessage, HostCheck>;

/** A message from the host, checked for shape and sizes (every array as long as the header says). */
export function hostMessageProblem(m: unknown, header: ModelHeader | undefined): string | undefined {
  if (!isObject(m) || typeof m.type !== 'string') return 'not a message';
  const check = checkOf<HostCheck>(HOST_CHECKS, m.type);
  return check ? check(m, header) : `unknown message type ${JSON.stringify(m.type).slice(0, 40)}`;
}
