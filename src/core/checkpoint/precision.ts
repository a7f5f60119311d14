// The two numeric forms one forward pass (forward.ts) runs in, behind one small interface, so the
// block is the same code in both: float32 (the default), whose activations are Float32Array and whose
// every weight product is the float32 kernel on the weight as stored (kernels/gemm32.ts), and float64
// (--precision f64, the exact mode checked against PyTorch's float64), whose products widen a stored
// weight to float64 one matrix at a time, on use, never kept, and multiply on linalg's kernel. Norms,
// softmax, RoPE and the activations compute in float64 arithmetic in both and store into the
// activations' type. Every product sums each cell in an order that depends on the depth alone, so a
// run that computes only a text's new positions gives the same bits as the whole run, in either form.
import { matmul, matmulTransposed, type Matrix } from '../linalg/matrix.js';
import { gemmStored, type WeightLayout } from '../kernels/gemm32.js';
import { widenInto, type StoredMatrix } from '../kernels/stored.js';
import { widened64 } from './stored-read.js';

/** What `attn run --precision` and the editor's setting name. */
export type Precision = 'f32' | 'f64';

export const PRECISIONS: readonly Precision[] = ['f32', 'f64'];

export const isPrecision = (v: unknown): v is Precision => v === 'f32' || v === 'f64';

/** The activations' array: Float32Array in the float32 forward, Float64Array in the float64 one. */
export type Floats = Float32Array | Float64Array;

/** A row-major matrix of activations. */
export interface Rows {
  readonly rows: number;
  readonly cols: number;
  readonly data: Floats;
}

/** One numeric form: its activations' array and its weight product. */
export interface Numeric {
  readonly precision: Precision;
  /** Bytes of one activation. */
  readonly bytes: number;
  zeros(count: number): Floats;
  /** x · W ([in, out], a Conv1D's) or x · Wᵀ ([out, in], an nn.Linear's) on the stored weight. */
  product(x: Rows, w: StoredMatrix, layout: WeightLayout): Rows;
}

const FLOAT32: Numeric = {
  precision: 'f32',
  bytes: 4,
  zeros: (count) => new Float32Array(count),
  product(x, w, layout) {
    const data = gemmStored(x.data as Float32Array, x.rows, w, layout);
    return { rows: x.rows, cols: data.length / Math.max(1, x.rows), data };
  },
};

const FLOAT64: Numeric = {
  precision: 'f64',
  bytes: 8,
  zeros: (count) => new Float64Array(count),
  product(x, w, layout) {
    const a = x as Matrix, b: Matrix = { rows: w.rows, cols: w.cols, data: widened64(w) };
    return layout === 'in-out' ? matmul(a, b) : matmulTransposed(a, b);
  },
};

export const numeric = (p: Precision): Numeric => (p === 'f64' ? FLOAT64 : FLOAT32);

/** The activations as float64 (the same array when they are): for the core's float64 attention op and the recordings. */
export function wide(x: Rows): Matrix {
  return x.data instanceof Float64Array ? (x as Matrix) : { rows: x.rows, cols: x.cols, data: new Float64Array(x.data) };
}

/**
 * The logits of one normed vector `x` ([dModel]) through the head's stored [vocab, dModel] matrix.
 * Float32: the kernel's product. Float64: as the float64 forward always summed them (each row's sum
 * in the order j = 0, 1, 2, …, four rows at a time), the stored rows widened a block at a time.
 */
export function headLogits(num: Numeric, head: StoredMatrix, x: Floats): Float64Array {
  if (num.precision === 'f32') return new Float64Array(gemmStored(x as Float32Array, 1, head, 'out-in'));
  const vocab = head.rows, E = head.cols, logits = new Float64Array(vocab);
  const BLOCK = 256, rows = new Float32Array(BLOCK * E);
  for (let from = 0; from < vocab; from += BLOCK) {
    const count = Math.min(BLOCK, vocab - from);
    widenInto(head, from * E, count * E, rows, 0);
    let t = 0;
    for (; t + 4 <= count; t += 4) {
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const a0 = t * E, a1 = a0 + E, a2 = a1 + E, a3 = a2 + E;
      for (let j = 0; j < E; j++) {
        const v = x[j];
        s0 += rows[a0 + j] * v;
        s1 += rows[a1 + j] * v;
        s2 += rows[a2 + j] * v;
        s3 += rows[a3 + j] * v;
      }
      logits[from + t] = s0; logits[from + t + 1] = s1; logits[from + t + 2] = s2; logits[from + t + 3] = s3;
    }
    for (; t < count; t++) {
      let s = 0;
      const at = t * E;
      for (let j = 0; j < E; j++) s += rows[at + j] * x[j];
      logits[from + t] = s;
    }
  }
  return logits;
}
