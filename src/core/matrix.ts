// A dense row-major matrix on a Float64Array: the one shape every tensor in the core takes.
// Row-vector convention, as in the seeds: a token's embedding is a row, and q = e · W_Q.

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

/** a (n×k) · b (k×m) = (n×m). The i-k-j loop order walks both inputs row-wise, which keeps it cache-friendly. */
export function matmul(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.rows) throw new Error(`matmul: ${a.rows}×${a.cols} · ${b.rows}×${b.cols}`);
  const n = a.rows, k = a.cols, m = b.cols;
  const out = zeros(n, m);
  const A = a.data, B = b.data, C = out.data;
  for (let i = 0; i < n; i++) {
    const ci = i * m;
    for (let t = 0; t < k; t++) {
      const av = A[i * k + t];
      if (av === 0) continue;
      const bt = t * m;
      for (let j = 0; j < m; j++) C[ci + j] += av * B[bt + j];
    }
  }
  return out;
}

/** a (n×k) · bᵀ where b is (m×k): every row of a dotted with every row of b, as scores = Q · Kᵀ. */
export function matmulTransposed(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.cols) throw new Error(`matmulTransposed: ${a.rows}×${a.cols} · (${b.rows}×${b.cols})ᵀ`);
  const n = a.rows, k = a.cols, m = b.rows;
  const out = zeros(n, m);
  const A = a.data, B = b.data, C = out.data;
  for (let i = 0; i < n; i++) {
    const ai = i * k;
    for (let j = 0; j < m; j++) {
      const bj = j * k;
      let s = 0;
      for (let t = 0; t < k; t++) s += A[ai + t] * B[bj + t];
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
