// Value-weighted attention (Kobayashi et al. 2020) of a spec's heads: a weight α_ij says how much
// query i takes from key j, not how much that is. What head h writes for key j is α_ij · v_j W_O^h,
// where W_O^h is the rows of W_O that head h's output meets (the heads' outputs are side by side
// before W_O, so head h's are the rows after the earlier heads' d_v). Its size is
//
//   norms_ij = ‖α_ij · v_j W_O^h‖₂ = α_ij · ‖v_j W_O^h‖₂   (α ≥ 0),
//
// so ‖v_j W_O^h‖ is computed once per key (n · d_v · d_model multiply-adds a head, one product) and
// the n × n norms are the weights with each column scaled by it. A value bias is in v already: the
// lens on a real head (checkpoint-spec/lens-spec.ts) writes it as W_V's last row against a constant
// 1, and W_O's column for that constant is zero, so the norm is the real head's ‖(x W_V + b_V) W_O^h‖.
import { matmul, type Matrix } from '../linalg/matrix.js';

/**
 * Rows of v W_O^h made at a time: the product is n × d_model, as large as the input's embeddings,
 * so it is made in slices of at most this many numbers and only its norms are kept.
 */
const SLICE_NUMBERS = 1 << 18;

/** The rows `from` … `from + count − 1` of W_O, [count, d_model], sharing W_O's numbers. */
export function headRowsOf(wo: Matrix, from: number, count: number): Matrix {
  if (from < 0 || count < 0 || from + count > wo.rows) throw new Error(`headRowsOf: rows ${from}…${from + count - 1} of a W_O with ${wo.rows} rows`);
  return { rows: count, cols: wo.cols, data: wo.data.subarray(from * wo.cols, (from + count) * wo.cols) };
}

/**
 * The Euclidean norm of data[at … at + length − 1]. The plain sum of squares, unless it leaves the
 * doubles (entries of 1e160 square past 1.8e308; entries of 1e-170 square to 0): then over the
 * entries divided by the largest, as a hypot does, so a finite product has a finite norm.
 */
export function rowNorm(data: Float64Array, at: number, length: number): number {
  let sum = 0;
  for (let e = at; e < at + length; e++) sum += data[e] * data[e];
  if (Number.isFinite(sum) && sum > 1e-290) return Math.sqrt(sum);
  let top = 0;
  for (let e = at; e < at + length; e++) top = Math.max(top, Math.abs(data[e]));
  // All zeros: 0. An infinite or NaN entry: the norm is that, for the overflow check to name
  // (core/attention/overflow.ts).
  if (!(top > 0) || top === Infinity) return top;
  let scaled = 0;
  for (let e = at; e < at + length; e++) {
    const r = data[e] / top;
    scaled += r * r;
  }
  return top * Math.sqrt(scaled);
}

/** ‖v_j W_O^h‖₂ for every key j: an n × 1 matrix (v is n × d_v, woRows d_v × d_model). */
export function valueNorms(v: Matrix, woRows: Matrix): Matrix {
  if (v.cols !== woRows.rows) throw new Error(`valueNorms: values of ${v.cols} columns for ${woRows.rows} rows of W_O`);
  const n = v.rows, E = woRows.cols;
  const out = new Float64Array(n);
  const step = Math.max(1, Math.floor(SLICE_NUMBERS / Math.max(1, E)));
  for (let from = 0; from < n; from += step) {
    const rows = Math.min(step, n - from);
    const slice: Matrix = { rows, cols: v.cols, data: v.data.subarray(from * v.cols, (from + rows) * v.cols) };
    const written = matmul(slice, woRows).data;
    for (let r = 0; r < rows; r++) out[from + r] = rowNorm(written, r * E, E);
  }
  return { rows: n, cols: 1, data: out };
}

/** norms_ij = α_ij · ‖v_j W_O^h‖: the weights (rows × n) with column j scaled by key j's norm. */
export function valueWeighted(weights: Matrix, norms: Matrix): Matrix {
  if (norms.rows !== weights.cols) throw new Error(`valueWeighted: ${norms.rows} value norms for ${weights.cols} keys`);
  const { rows, cols } = weights;
  const w = weights.data, vn = norms.data;
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[i * cols + j] = w[i * cols + j] * vn[j];
  return { rows, cols, data: out };
}
