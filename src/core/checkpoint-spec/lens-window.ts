// The lens on a head of a long run: a spec holds at most MAX_TOKENS tokens, and its reader has
// further limits (the inputs' numbers, attention cells, work, tensor-file numbers, the JSON's bytes),
// so a run longer than the spec can hold is cut to a window of consecutive tokens that holds the
// query: the tokens ending at it for a causal head (the keys it reads), centred on it for an encoder's.
// The window's rows of x, the residual stream, q, k and v are the run's own (positions are already
// in them: added to x, or turned into q and k by RoPE), so each score is the run's; a query of the
// window sees only the keys inside it, so its weights are the run's renormalised over them, which
// is the softmax of the run's scores over those keys (the spec computes exactly that). Pure.
import type { HeadLens } from '../checkpoint/types.js';
import { MAX_TOKENS } from '../spec/read/inputs.js';
import { MAX_CELLS, MAX_INPUT_NUMBERS, MAX_WORK } from '../spec/read/limits.js';
import { MAX_FILE_NUMBERS, MAX_FILE_NUMBERS_TOTAL } from '../spec/read/file-ref.js';

/**
 * Bytes the lens's tensor file may take (x, the residual stream and the matrices, float64). At
 * 2,048 tokens of a 2,048-wide model it is about 72 MB; a wider model gets fewer tokens.
 */
export const LENS_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Numbers of a sliding window's band (the input's mask, count² written inline in the spec) a lens
 * may write: each is a node of the reader's tree, and a band of 1,978² (8 MB of JSON) took 4.4 s
 * to read where 2,048 tokens without one took 0.3 s and 1,024 with one 0.6 s. A window of the head's
 * own width needs no band at all (the query sees the same keys as in the run).
 */
export const MAX_LENS_MASK_CELLS = 2 ** 20;

/** The shape a lens's spec and tensor file take, for a window of `count` tokens. */
export interface LensShape {
  dModel: number;
  headDim: number;
  rotary: boolean;
  /** A sliding-window head's window: a window of more tokens than it carries a mask of count² numbers. */
  window?: number;
}

/** Features of a token in the spec: x with a constant 1 (no rotation), or [q | k | v] (RoPE). */
const features = (s: LensShape) => (s.rotary ? 3 * s.headDim : s.dModel + 1);

/** Float64 numbers in the tensor file for `count` tokens (lensSpec's tensors). */
export function lensFileNumbers(s: LensShape, count: number): number {
  const f = features(s), d = s.dModel, hd = s.headDim;
  // embeddings, W_Q, W_K, W_V and (no rotation) W_O or (RoPE) the head's own four matrices and three biases;
  // the residual stream, and with RoPE x as well.
  const matrices = 3 * f * hd + (s.rotary ? 4 * d * hd + 3 * hd : hd * f);
  return count * f + matrices + count * d * (s.rotary ? 2 : 1);
}

/** Numbers the spec's reader takes from the tensor file (the referenced ones: embeddings, W_Q, W_K, W_V, W_O). */
function referencedNumbers(s: LensShape, count: number): number {
  const f = features(s), hd = s.headDim;
  return count * f + 3 * f * hd + (s.rotary ? 0 : hd * f);
}

/** Whether a window of `count` tokens fits every limit of the spec's reader and the file's byte cap; the first it passes, else undefined. */
export function lensLimit(s: LensShape, count: number): string | undefined {
  const f = features(s), hd = s.headDim;
  if (count > MAX_TOKENS) return `a spec holds at most ${MAX_TOKENS.toLocaleString('en-US')} tokens`;
  if (count * f > MAX_INPUT_NUMBERS) return `a spec's tokens × features stay within ${MAX_INPUT_NUMBERS.toLocaleString('en-US')} numbers`;
  if (count * count > MAX_CELLS) return `a spec holds at most ${MAX_CELLS.toLocaleString('en-US')} attention cells`;
  if (count * f * 3 * hd + count * count * 2 * hd > MAX_WORK) return `a spec's compute stays within ${MAX_WORK / 1e9} billion multiply-adds`;
  if (count * f > MAX_FILE_NUMBERS || referencedNumbers(s, count) > MAX_FILE_NUMBERS_TOTAL) return `a spec's tensors stay within ${MAX_FILE_NUMBERS.toLocaleString('en-US')} numbers each`;
  if (lensFileNumbers(s, count) * 8 > LENS_MAX_BYTES) return `the lens's tensor file stays within ${LENS_MAX_BYTES / 2 ** 20} MiB`;
  if (s.window !== undefined && s.window < count && count * count > MAX_LENS_MASK_CELLS) {
    return `a spec's mask (the sliding window's band of ${s.window.toLocaleString('en-US')} tokens) is kept within ${MAX_LENS_MASK_CELLS.toLocaleString('en-US')} numbers`;
  }
  return undefined;
}

/** The most tokens a lens of this shape holds (at most n), and the limit that binds when it is fewer than n. */
export function lensTokenLimit(s: LensShape, n: number): { count: number; limit?: string } {
  const limit = lensLimit(s, n);
  if (limit === undefined) return { count: n };
  // Every limit grows with the count: the largest count that passes, by halving the gap.
  let lo = 0, hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (lensLimit(s, mid) === undefined) lo = mid;
    else hi = mid;
  }
  // The limit named is the one the next token would pass (the tokens' own only when it binds).
  const count = Math.max(1, lo);
  return { count, limit: lensLimit(s, count + 1) ?? limit };
}

/** The first token of the window of `count` of n tokens holding `query`: ending at it (causal), or centred on it (an encoder's head). */
export function lensWindowStart(n: number, query: number, count: number, bidirectional: boolean): number {
  if (count >= n) return 0;
  const q = Math.max(0, Math.min(n - 1, query));
  const first = bidirectional ? q - Math.floor(count / 2) : q - count + 1;
  return Math.max(0, Math.min(n - count, first));
}

/** A lens cut to a window, where it sits in the run, and what the run's query put inside it. */
export interface WindowedLens {
  lens: HeadLens;
  first: number;
  count: number;
  /** The run's length. */
  n: number;
  /** The query, counted in the run. */
  query: number;
  /** The share of the run's query's weight on the keys in the window (1 when it sees no other). */
  kept: number;
  /** The limit that made the window (a spec's tokens, its work, the file's bytes …). */
  limit: string;
}

/**
 * The lens cut to the window of tokens that holds `query`, when the run is longer than a spec of
 * this head can hold; undefined when the whole run fits. Copies the window's rows (never more than
 * the window's x, residual, q, k, v and its count² weights).
 */
export function windowLens(lens: HeadLens, query: number): WindowedLens | undefined {
  const n = lens.tokens.length;
  const { count, limit } = lensTokenLimit({ dModel: lens.dModel, headDim: lens.headDim, rotary: lens.rotary, ...(lens.window !== undefined ? { window: lens.window } : {}) }, n);
  if (count >= n || limit === undefined) return undefined;
  const q = query >= 0 && query < n ? query : n - 1;
  const first = lensWindowStart(n, q, count, lens.bidirectional === true);
  const rows = (a: Float64Array, width: number) => a.slice(first * width, (first + count) * width);
  const weights = new Float64Array(count * count);
  let kept = 1;
  for (let i = 0; i < count; i++) {
    const from = (first + i) * n + first;
    let sum = 0;
    for (let j = 0; j < count; j++) sum += lens.weights[from + j];
    if (first + i === q) kept = sum;
    // Renormalised over the window's keys: the softmax of the run's scores over them. A row that
    // keeps no weight (its keys all before the window: a sliding window cannot, a causal row keeps itself) stays zero.
    if (sum > 0) for (let j = 0; j < count; j++) weights[i * count + j] = lens.weights[from + j] / sum;
  }
  const d = lens.dModel, hd = lens.headDim;
  const cut: HeadLens = {
    ...lens, tokens: lens.tokens.slice(first, first + count),
    residual: rows(lens.residual, d), x: rows(lens.x, d), q: rows(lens.q, hd), k: rows(lens.k, hd), v: rows(lens.v, hd), weights,
  };
  return { lens: cut, first, count, n, query: q, kept, limit };
}

/** "tokens 6,145–8,192 of 8,192": the window in the run, counted from 1. */
export function windowRange(w: Pick<WindowedLens, 'first' | 'count' | 'n'>): string {
  const c = (k: number) => k.toLocaleString('en-US');
  return `tokens ${c(w.first + 1)}–${c(w.first + w.count)} of ${c(w.n)}`;
}

/** The one sentence the spec's description opens with: which window, why, and what it changes. */
export function windowSentence(w: WindowedLens, bidirectional: boolean): string {
  const c = (k: number) => k.toLocaleString('en-US');
  const where = bidirectional ? 'around the query' : 'ending at the query';
  return `The run has ${c(w.n)} tokens and ${w.limit}, so this lens holds ${windowRange(w)}, the ${c(w.count)} ${where} (token ${c(w.query + 1)}): ` +
    `each query here sees only the keys inside the window, so its weights are the run's renormalised over them (the run's query put ${w.kept.toFixed(3)} of its weight there).`;
}
