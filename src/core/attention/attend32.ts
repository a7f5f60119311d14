// Float32 attention for a checkpoint's float32 forward pass: the same definition as attend.ts (scaled
// dot products, an optional softcap, the causal, windowed or no mask, grouped-query heads, queries
// first…n − 1 against all n keys), with the scores q · kᵀ and the mix weights · V on the float32
// kernel (kernels/gemm32.ts) and the softmax in float64 arithmetic, each weight rounded to float32.
// At 1,024 tokens the float64 op, with its widening copies, took a third of GPT-2's forward pass.
//
// A row's numbers depend on its own query and on the n keys alone: the kernel sums each cell in an
// order set by the depth (headDim for the scores, n for the mix), never by the number of rows, so a
// run that computes only a text's new positions gives the same bits as the whole run.
import { gemm32 } from '../kernels/gemm32.js';
import type { KeyMask } from './attend.js';

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
  readonly onHead: (head: number, weights: Float32Array) => void;
}

/** Every query head's attention; returns the heads' outputs side by side, [n − first, heads · headDim]. */
export function attendEach32(input: Attend32Input): Float32Array {
  const { n, first, heads: H, kvHeads: KV, headDim: D, divisor, mask, softcap: cap } = input;
  const rows = n - first, group = H / KV;
  if (!Number.isInteger(group) || group < 1) throw new Error(`attend: ${H} query heads cannot share ${KV} key/value heads evenly`);
  if (input.q.length !== rows * H * D || input.k.length !== n * KV * D || input.v.length !== n * KV * D) {
    throw new Error(`attend: q, k and v hold ${input.q.length}, ${input.k.length} and ${input.v.length} numbers for ${rows} queries and ${n} keys of ${H} and ${KV} heads of ${D}`);
  }
  const out = new Float32Array(rows * H * D);
  let keys: Float32Array = new Float32Array(0), values: Float32Array = new Float32Array(0);
  for (let h = 0; h < H; h++) {
    const kvHead = Math.floor(h / group);
    if (h % group === 0) {
      keys = columns(input.k, n, KV * D, kvHead * D, D);
      values = columns(input.v, n, KV * D, kvHead * D, D);
    }
    const q = columns(input.q, rows, H * D, h * D, D);
    const weights = gemm32(q, rows, D, keys, n, true);
    for (let r = 0; r < rows; r++) softmaxRow(weights, r * n, first + r, n, divisor, mask, cap);
    const mixed = gemm32(weights, rows, n, values, D, false);
    for (let r = 0; r < rows; r++) out.set(mixed.subarray(r * D, (r + 1) * D), r * H * D + h * D);
    input.onHead(h, weights);
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
 * Query i's row of scores at `at`, in place, into its weights: the keys lo…hi it sees scaled (and
 * capped), their max subtracted before exp, each divided by the sum; hidden keys 0. A row whose every
 * visible score is −∞ is all zeros; a NaN or +∞ score makes the row NaN, which the forward pass's
 * check of its results then reports.
 */
function softmaxRow(w: Float32Array, at: number, i: number, n: number, divisor: number, mask: KeyMask, cap: number | undefined): void {
  const lo = typeof mask === 'object' ? Math.max(0, i - mask.window + 1) : 0;
  const hi = mask === 'none' ? n - 1 : Math.min(i, n - 1);
  // The scaled (and capped) scores in float64, in a scratch row: computed once, and the sum is not of
  // rounded terms.
  const e = scratch(hi - lo + 1);
  let max = -Infinity;
  for (let j = lo; j <= hi; j++) {
    const s = cap === undefined ? w[at + j] / divisor : cap * Math.tanh(w[at + j] / divisor / cap);
    e[j - lo] = s;
    if (s > max || s !== s) max = s;
  }
  if (max === -Infinity) {
    w.fill(0, at, at + n);
    return;
  }
  let sum = 0;
  for (let j = 0; j <= hi - lo; j++) sum += e[j] = Math.exp(e[j] - max);
  w.fill(0, at, at + lo);
  for (let j = lo; j <= hi; j++) w[at + j] = e[j - lo] / sum;
  w.fill(0, at + hi + 1, at + n);
}

let SCRATCH = new Float64Array(0);
function scratch(count: number): Float64Array {
  if (SCRATCH.length < count) SCRATCH = new Float64Array(Math.max(count, 2 * SCRATCH.length));
  return SCRATCH;
}
