// Float32 matrix products for a model's forward pass, with the weights read as their file stores them
// (stored.ts). Every cell is summed over t = 0, 1, 2, … in an order that depends on the depth alone,
// never on the number of rows or on how the work is split, so a run that computes only a text's new
// positions gives the same bits as one that computes every position (the key/value reuse).
//
// This is the plain JavaScript product: the reference the fast kernels are checked against, and what
// runs where they cannot.
import { widenInto, type StoredMatrix } from './stored.js';

/** How a weight matrix is laid out: [in, out] (a Conv1D's; y = x · W) or [out, in] (an nn.Linear's; y = x · Wᵀ). */
export type WeightLayout = 'in-out' | 'out-in';

/**
 * y = x · W or x · Wᵀ as `layout` says: x is n × k float32 row-major; the result n × m float32, where
 * m is the weight's output width. Each cell is a float32 sum, t in order, of float32 products.
 */
export function gemmStored(x: Float32Array, n: number, w: StoredMatrix, layout: WeightLayout): Float32Array {
  const k = layout === 'out-in' ? w.cols : w.rows, m = layout === 'out-in' ? w.rows : w.cols;
  if (x.length < n * k) throw new RangeError(`x holds ${x.length} numbers, not ${n} × ${k}`);
  const out = new Float32Array(n * m);
  const column = new Float32Array(k);
  const wide = new Float32Array(layout === 'in-out' ? m : 0);
  for (let j = 0; j < m; j++) {
    if (layout === 'out-in') widenInto(w, j * k, k, column, 0);
    else for (let t = 0; t < k; t++) { widenInto(w, t * m + j, 1, wide, 0); column[t] = wide[0]; }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let t = 0; t < k; t++) s = Math.fround(s + Math.fround(x[i * k + t] * column[t]));
      out[i * m + j] = s;
    }
  }
  return out;
}
