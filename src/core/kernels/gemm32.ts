// Float32 matrix products for a model's forward pass, with the weights read as their file stores them
// (stored.ts). Every cell is summed over t = 0, 1, 2, … in an order that depends on the depth alone,
// never on the number of rows or on how the work is split, so a run that computes only a text's new
// positions gives the same bits as one that computes every position (the key/value reuse).
//
// The products run on the WebAssembly kernel (gemm32-kernel.ts), their later columns on the other
// cores where a ProductHelper is installed; the plain JavaScript product here is the reference the
// kernel is checked against and what runs where it cannot. With separate multiplies and adds the
// kernel gives the reference's bits exactly; with the fused multiply-add (relaxed SIMD) each step
// rounds once instead of twice, the same way on every row and every thread.
import { kernelVariant, productColumns } from './gemm32-kernel.js';
import { productHelper } from './product-helper.js';
import { widenInto, type StoredMatrix, type WeightLayout } from './stored.js';

export type { WeightLayout } from './stored.js';

/** The depth k and width m of a product with w, after checking the shapes (a RangeError names what is wrong). */
function shapeOf(x: Float32Array, n: number, w: StoredMatrix, layout: WeightLayout): { k: number; m: number } {
  const k = layout === 'out-in' ? w.cols : w.rows, m = layout === 'out-in' ? w.rows : w.cols;
  for (const [name, v] of [['n', n], ['weight rows', w.rows], ['weight columns', w.cols]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`gemmStored: ${name} is ${v}, not a whole number ≥ 0`);
  }
  if (w.data.length < w.rows * w.cols) throw new RangeError(`gemmStored: the weight holds ${w.data.length} numbers, not ${w.rows} × ${w.cols}`);
  if (x.length < n * k) throw new RangeError(`gemmStored: x holds ${x.length} numbers, not ${n} × ${k}`);
  return { k, m };
}

/**
 * Columns j0…j1 − 1 of the plain product into out (rows ldo apart): each cell a float32 sum, t in
 * order from +0, of float32 products.
 */
export function referenceColumns(
  x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout, j0: number, j1: number, out: Float32Array, ldo: number,
): void {
  const m = layout === 'out-in' ? w.rows : w.cols;
  const column = new Float32Array(k);
  const wide = new Float32Array(1);
  for (let j = j0; j < j1; j++) {
    if (layout === 'out-in') widenInto(w, j * k, k, column, 0);
    else for (let t = 0; t < k; t++) { widenInto(w, t * m + j, 1, wide, 0); column[t] = wide[0]; }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let t = 0; t < k; t++) s = Math.fround(s + Math.fround(x[i * k + t] * column[t]));
      out[i * ldo + j] = s;
    }
  }
}

/** The plain JavaScript product (the contract's reference), whatever kernel runs here. */
export function gemmStoredReference(x: Float32Array, n: number, w: StoredMatrix, layout: WeightLayout): Float32Array {
  const { k, m } = shapeOf(x, n, w, layout);
  const out = new Float32Array(n * m);
  referenceColumns(x, n, k, w, layout, 0, m, out, m);
  return out;
}

/**
 * y = x · W or x · Wᵀ as `layout` says: x is n × k float32 row-major; the result n × m float32, where
 * m is the weight's output width.
 */
export function gemmStored(x: Float32Array, n: number, w: StoredMatrix, layout: WeightLayout): Float32Array {
  const { k, m } = shapeOf(x, n, w, layout);
  const out = new Float32Array(n * m);
  if (n === 0 || m === 0) return out;
  const variant = kernelVariant();
  if (variant && k > 0 && productHelper()?.product(x, n, k, w, layout, variant, out)) return out;
  if (!productColumns(x, n, k, w, layout, 0, m, out, m, variant)) referenceColumns(x, n, k, w, layout, 0, m, out, m);
  return out;
}

/**
 * A product of two activations on the same kernel and with the same order: a (n × k) times b, which is
 * k × m, or m × k with `transposed` (then a · bᵀ: attention's scores q · kᵀ; untransposed its mix).
 */
export function gemm32(a: Float32Array, n: number, k: number, b: Float32Array, m: number, transposed: boolean): Float32Array {
  const w: StoredMatrix = transposed ? { dtype: 'F32', rows: m, cols: k, data: b } : { dtype: 'F32', rows: k, cols: m, data: b };
  return gemmStored(a, n, w, transposed ? 'out-in' : 'in-out');
}
