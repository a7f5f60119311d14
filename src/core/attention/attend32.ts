// Float32 attention for a checkpoint's float32 forward pass: the same definition as attend.ts (scaled
// dot products, an optional softcap, the causal, windowed or no mask, grouped-query heads, queries
// first…n − 1 against all n keys), with the scores q · kᵀ and the mix weights · V on the float32
// kernel (kernels/gemm32.ts) and the softmax in float64 arithmetic, each weight rounded to float32.
// At 1,024 tokens the float64 op, with its widening copies, took a third of GPT-2's forward pass.
//
// A row's numbers depend on its own query and on the n keys alone: the kernel sums each cell in an
// order set by the depth (headDim for the scores), never by the number of rows, so a run that
// computes only a text's new positions gives the same bits as the whole run. A head is computed a
// block of rows at a time (≤ BLOCK_CELLS weights), each block over the keys its rows can see
// (keyRange): the mix sums t = 0, 1, … from +0, and the keys left out carry weight 0, whose products
// add exactly nothing (x + 0 = x; a sum never becomes −0), so the mix over the seen keys alone is
// the same bits as over all n. No n × n is held unless a caller asks for whole heads (onHead).
import { gemm32 } from '../kernels/gemm32.js';
import type { KeyMask } from './attend.js';

/** Most weights of one head computed at once (16 MiB of float32): 512 rows at 8,192 tokens. */
export const BLOCK_CELLS = 2 ** 22;

export interface Attend32Input {
  /** Queries first…n − 1, [n − first, heads · headDim] row-major. */
  readonly q: Float32Array;
  /** Keys and values 0…n − 1, [n, kvHeads · headDim] each. */
  readonly k: Float32Array;
  readonly v: Float32Array;
  readonly n: number;
  readonly first: number;
  readonly heads: number;
  /** Divides heads: query head h reads key/value head ⌊h / (heads / kvHeads)⌋. */
  readonly kvHeads: number;
  readonly headDim: number;
  readonly divisor: number;
  readonly mask: KeyMask;
  /** c: each scaled score s becomes c · tanh(s / c) before the softmax; absent: none. */
  readonly softcap?: number;
  /** Each head's weights as it is done, [n − first, n] (zeros on hidden keys); the array is the caller's to keep. */
  readonly onHead?: (head: number, weights: Float32Array) => void;
  /**
   * Each block of a head's rows as it is done: queries first + r0 … first + r0 + rows − 1 over keys
   * from … to − 1 ([rows, to − from]; every other key's weight is 0); valid only during the call.
   */
  readonly onBlock?: (head: number, r0: number, rows: number, from: number, to: number, weights: Float32Array, scales?: Float64Array) => void;
  /** Hand onBlock each row's softmax max and sum too ([rows × 2] float64, softmaxRow's): a window of keys is then exact alone (rowWeight). */
  readonly scales?: boolean;
  /** Each head's own queries [n − first, headDim] and its key/value head's keys [n, headDim], as the scores use them. */
  readonly onHeadInputs?: (head: number, q: Float32Array, keys: Float32Array | undefined) => void;
}

/** The keys queries a0 … a1 − 1 (absolute positions) see under `mask`, of n: from … to − 1. */
export function keyRange(a0: number, a1: number, n: number, mask: KeyMask): { from: number; to: number } {
  if (mask === 'none') return { from: 0, to: n };
  return { from: typeof mask === 'object' ? Math.max(0, a0 - mask.window + 1) : 0, to: Math.min(n, a1) };
}

/** What a head's row block reads beside its queries and keys. */
export interface RowsShape {
  readonly n: number;
  readonly headDim: number;
  readonly divisor: number;
  readonly mask: KeyMask;
  readonly softcap?: number;
}

/**
 * The weights of queries a0 … a0 + rows − 1 (q: [rows, headDim]) on keys from … to − 1 (keys:
 * [to − from, headDim], a head's own), [rows, to − from] float32: the scores on the float32 kernel
 * at depth headDim, each row's softmax (softmaxRow). The forward pass and a source that recomputes
 * rows from kept q and k both call this, so a weight is the same bits whichever asks.
 */
export function weightsBlock(s: RowsShape, q: Float32Array, rows: number, a0: number, keys: Float32Array, from: number, to: number, scales?: Float64Array): Float32Array {
  const width = to - from;
  const weights = gemm32(q, rows, s.headDim, keys, width, true);
  for (let r = 0; r < rows; r++) softmaxRow(weights, r * width, a0 + r, s.n, s.divisor, s.mask, s.softcap, from, width, scales, 2 * r);
  return weights;
}

/** The scaled (and capped) score of a raw q · k, as softmaxRow computes it. */
export function scaledScore(score: number, divisor: number, cap: number | undefined): number {
  return cap === undefined ? score / divisor : cap * Math.tanh(score / divisor / cap);
}

/**
 * One weight from its raw score and its row's max and sum (softmaxRow's `scales`): exp(s − max) / sum,
 * the very float64 expression softmaxRow rounds, so a window of keys needs no other key's exp. A row
 * that sees no key (max −∞) is 0; the caller leaves hidden keys 0.
 */
export function rowWeight(score: number, divisor: number, cap: number | undefined, max: number, sum: number): number {
  return max === -Infinity ? 0 : Math.exp(scaledScore(score, divisor, cap) - max) / sum;
}

/** Rows of a head per block at n keys: ≥ 1, ≤ BLOCK_CELLS weights. */
export function blockRows(n: number): number {
  return Math.max(1, Math.floor(BLOCK_CELLS / n));
}

/** Every query head's attention; returns the heads' outputs side by side, [n − first, heads · headDim]. */
export function attendEach32(input: Attend32Input): Float32Array {
  const { n, first, heads: H, kvHeads: KV, headDim: D, mask } = input;
  const rows = n - first, group = H / KV;
  if (!Number.isInteger(group) || group < 1) throw new Error(`attend: ${H} query heads cannot share ${KV} key/value heads evenly`);
  if (input.q.length !== rows * H * D || input.k.length !== n * KV * D || input.v.length !== n * KV * D) {
    throw new Error(`attend: q, k and v hold ${input.q.length}, ${input.k.length} and ${input.v.length} numbers for ${rows} queries and ${n} keys of ${H} and ${KV} heads of ${D}`);
  }
  const shape: RowsShape = { n, headDim: D, divisor: input.divisor, mask, ...(input.softcap !== undefined ? { softcap: input.softcap } : {}) };
  const out = new Float32Array(rows * H * D);
  const step = blockRows(n);
  let keys: Float32Array = new Float32Array(0), values: Float32Array = new Float32Array(0);
  for (let h = 0; h < H; h++) {
    const kvHead = Math.floor(h / group);
    const fresh = h % group === 0;
    if (fresh) {
      keys = columns(input.k, n, KV * D, kvHead * D, D);
      values = columns(input.v, n, KV * D, kvHead * D, D);
    }
    const q = columns(input.q, rows, H * D, h * D, D);
    input.onHeadInputs?.(h, q, fresh ? keys : undefined);
    const whole = input.onHead ? new Float32Array(rows * n) : undefined;
    for (let r0 = 0; r0 < rows; r0 += step) {
      const count = Math.min(step, rows - r0);
      const { from, to } = keyRange(first + r0, first + r0 + count, n, mask);
      const width = to - from;
      const scales = input.scales ? new Float64Array(2 * count) : undefined;
      const weights = weightsBlock(shape, q.subarray(r0 * D, (r0 + count) * D), count, first + r0, keys.subarray(from * D, to * D), from, to, scales);
      const mixed = gemm32(weights, count, width, values.subarray(from * D, to * D), D, false);
      for (let r = 0; r < count; r++) out.set(mixed.subarray(r * D, (r + 1) * D), (r0 + r) * H * D + h * D);
      if (whole) for (let r = 0; r < count; r++) whole.set(weights.subarray(r * width, (r + 1) * width), (r0 + r) * n + from);
      input.onBlock?.(h, r0, count, from, to, weights, scales);
    }
    if (whole) input.onHead!(h, whole);
  }
  return out;
}

/** Columns from…from + width − 1 of a rows × stride matrix, as a rows × width one. */
function columns(m: Float32Array, rows: number, stride: number, from: number, width: number): Float32Array {
  const out = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) out.set(m.subarray(r * stride + from, r * stride + from + width), r * width);
  return out;
}

/**
 * Query i's row of scores at `at`, in place, into its weights: the row holds keys offset … offset +
 * width − 1 of n (all n by default); the keys lo…hi it sees scaled (and capped), their max subtracted
 * before exp, each divided by the sum; hidden keys 0. A row whose every visible score is −∞ is all
 * zeros; a NaN or +∞ score makes the row NaN, which the forward pass's check of its results then
 * reports. The keys i sees must lie within the row's. With `scales`, the row's max and sum (float64)
 * go to scales[at2], scales[at2 + 1] (−∞ and 0 for a row that sees no key).
 */
export function softmaxRow(w: Float32Array, at: number, i: number, n: number, divisor: number, mask: KeyMask, cap: number | undefined, offset = 0, width = n - offset, scales?: Float64Array, at2 = 0): void {
  const lo = typeof mask === 'object' ? Math.max(0, i - mask.window + 1) : 0;
  const hi = mask === 'none' ? n - 1 : Math.min(i, n - 1);
  if (lo < offset || hi >= offset + width) throw new RangeError(`softmax: query ${i} sees keys ${lo} … ${hi}, outside the row's ${offset} … ${offset + width - 1}`);
  const base = at - offset, end = at + width;
  // The scaled (and capped) scores in float64, in a scratch row: computed once, and the sum is not of
  // rounded terms.
  const e = scratch(hi - lo + 1);
  let max = -Infinity;
  for (let j = lo; j <= hi; j++) {
    const s = scaledScore(w[base + j], divisor, cap);
    e[j - lo] = s;
    if (s > max || s !== s) max = s;
  }
  if (max === -Infinity) {
    w.fill(0, at, end);
    if (scales) { scales[at2] = -Infinity; scales[at2 + 1] = 0; }
    return;
  }
  let sum = 0;
  for (let j = 0; j <= hi - lo; j++) sum += e[j] = Math.exp(e[j] - max);
  if (scales) { scales[at2] = max; scales[at2 + 1] = sum; }
  w.fill(0, at, base + lo);
  for (let j = lo; j <= hi; j++) w[base + j] = e[j - lo] / sum;
  w.fill(0, base + hi + 1, end);
}

let SCRATCH = new Float64Array(0);
function scratch(count: number): Float64Array {
  if (SCRATCH.length < count) SCRATCH = new Float64Array(Math.max(count, 2 * SCRATCH.length));
  return SCRATCH;
}
