// A dense row-major matrix on a Float64Array: the one shape every tensor in the core takes.
// Row-vector convention, as in the seeds: a token's embedding is a row, and q = e · W_Q.
// The products run on the WebAssembly kernel (kernels/gemm.ts) where it can, else in plain JavaScript.
import { gemm, gemmEach } from '../kernels/gemm.js';

export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

export function zeros(rows: number, cols: number): Matrix {
  return { rows, cols, data: new Float64Array(rows * cols) };
}

export function fromRows(rowList: readonly (readonly number[])[], cols = rowList[0]?.length ?? 0): Matrix {
  const m = zeros(rowList.length, cols);
  rowList.forEach((row, i) => m.data.set(row, i * cols));
  return m;
}

export function identity(n: number): Matrix {
  const m = zeros(n, n);
  for (let i = 0; i < n; i++) m.data[i * n + i] = 1;
  return m;
}

export function get(m: Matrix, i: number, j: number): number {
  return m.data[i * m.cols + j];
}

export function row(m: Matrix, i: number): Float64Array {
  return m.data.subarray(i * m.cols, (i + 1) * m.cols);
}

export function toRows(m: Matrix): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(row(m, i)));
  return out;
}

export function transpose(m: Matrix): Matrix {
  const t = zeros(m.cols, m.rows);
  for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) t.data[j * m.rows + i] = m.data[i * m.cols + j];
  return t;
}

/**
 * Below this many multiply-adds the plain loop is done before the kernel has packed its operands
 * (measured: 2×2×2 0.26 µs against 1.0 µs; even at 8×8×8): the seeds' 3-wide examples and training steps.
 */
const SMALL = 512;

/** a (n×k) · b (k×m) = (n×m). */
export function matmul(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.rows) throw new Error(`matmul: ${a.rows}×${a.cols} · ${b.rows}×${b.cols}`);
  const data = a.rows * a.cols * b.cols < SMALL ? undefined : gemm(a, b, false);
  return data ? { rows: a.rows, cols: b.cols, data } : matmulTransposedJs(a, transpose(b));
}

/** a (n×k) · bᵀ where b is (m×k): every row of a dotted with every row of b, as scores = Q · Kᵀ. */
export function matmulTransposed(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.cols) throw new Error(`matmulTransposed: ${a.rows}×${a.cols} · (${b.rows}×${b.cols})ᵀ`);
  const data = a.rows * a.cols * b.rows < SMALL ? undefined : gemm(a, b, true);
  return data ? { rows: a.rows, cols: b.rows, data } : matmulTransposedJs(a, b);
}

/** a · b for each b (all k × m_b): the embeddings packed once for every head's projections. */
export function matmulEach(a: Matrix, bs: readonly Matrix[]): Matrix[] {
  for (const b of bs) if (a.cols !== b.rows) throw new Error(`matmul: ${a.rows}×${a.cols} · ${b.rows}×${b.cols}`);
  const widest = bs.reduce((w, b) => Math.max(w, b.cols), 0);
  const data = a.rows * a.cols * widest < SMALL ? undefined : gemmEach(a, bs, false);
  return data ? data.map((d, h) => ({ rows: a.rows, cols: bs[h].cols, data: d })) : bs.map((b) => matmul(a, b));
}

/**
 * The plain JavaScript product a · bᵀ, where the WebAssembly kernel cannot run (kernels/gemm.ts).
 * Two rows of a meet two rows of b at a time (a 2×2 block), so each number loaded is used
 * twice; in V8 that about doubles the speed of the plain triple loop.
 */
function matmulTransposedJs(a: Matrix, b: Matrix): Matrix {
  const n = a.rows, k = a.cols, m = b.rows;
  const out = zeros(n, m);
  const A = a.data, B = b.data, C = out.data;
  const n2 = n - (n % 2), m2 = m - (m % 2);
  for (let i = 0; i < n2; i += 2) {
    const a0 = i * k, a1 = a0 + k;
    for (let j = 0; j < m2; j += 2) {
      const b0 = j * k, b1 = b0 + k;
      let s00 = 0, s01 = 0, s10 = 0, s11 = 0;
      for (let t = 0; t < k; t++) {
        const x0 = A[a0 + t], x1 = A[a1 + t], y0 = B[b0 + t], y1 = B[b1 + t];
        s00 += x0 * y0; s01 += x0 * y1; s10 += x1 * y0; s11 += x1 * y1;
      }
      C[i * m + j] = s00; C[i * m + j + 1] = s01;
      C[(i + 1) * m + j] = s10; C[(i + 1) * m + j + 1] = s11;
    }
  }
  // The odd last column of the paired rows, and all of an odd last row.
  for (let i = 0; i < n; i++) {
    for (let j = i < n2 ? m2 : 0; j < m; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += A[i * k + t] * B[j * k + t];
      C[i * m + j] = s;
    }
  }
  return out;
}

/** Side-by-side concatenation of matrices with equal row counts: the heads' outputs joined. */
export function concatColumns(parts: readonly Matrix[]): Matrix {
  const rows = parts[0]?.rows ?? 0;
  const cols = parts.reduce((s, p) => s + p.cols, 0);
  const out = zeros(rows, cols);
  for (let i = 0; i < rows; i++) {
    let offset = i * cols;
    for (const p of parts) {
      out.data.set(row(p, i), offset);
      offset += p.cols;
    }
  }
  return out;
}

/** Columns from…from + width of m, as a matrix of its own (m itself when that is all of it). */
export function columnsOf(m: Matrix, from: number, width: number): Matrix {
  if (from === 0 && width === m.cols) return m;
  const out = zeros(m.rows, width);
  for (let i = 0; i < m.rows; i++) out.data.set(m.data.subarray(i * m.cols + from, i * m.cols + from + width), i * width);
  return out;
}
