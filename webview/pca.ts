// The first two principal components of a set of vectors, for the quadrant plot of a spec
// without named axes. Pure and small: covariance matrix, power iteration with deflation.

export interface Pca {
  mean: number[];
  /** Two unit vectors (the second is all zeros when the data has only one direction). */
  components: [number[], number[]];
  /** Share of the total variance each component explains, 0..1. */
  explained: [number, number];
  project(v: readonly number[]): [number, number];
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function normalise(v: number[]): number {
  const len = Math.sqrt(dot(v, v));
  if (len > 0) for (let i = 0; i < v.length; i++) v[i] /= len;
  return len;
}

/** The leading eigenvector of a symmetric positive semi-definite matrix, and its eigenvalue. */
function leading(c: number[][], start: number[]): { vec: number[]; val: number } {
  const d = c.length;
  let v = start.slice();
  if (normalise(v) === 0) return { vec: new Array(d).fill(0), val: 0 };
  let val = 0;
  for (let it = 0; it < 500; it++) {
    const w = c.map((row) => dot(row, v));
    const len = normalise(w);
    if (len === 0) return { vec: new Array(d).fill(0), val: 0 };
    const change = w.reduce((s, x, i) => s + Math.abs(x - v[i]), 0);
    v = w;
    val = len;
    if (change < 1e-12) break;
  }
  return { vec: v, val };
}

/** A deterministic sign: the entry largest in size is positive. */
function orient(v: number[]): number[] {
  let k = 0;
  v.forEach((x, i) => { if (Math.abs(x) > Math.abs(v[k]) + 1e-12) k = i; });
  return v[k] < 0 ? v.map((x) => -x || 0) : v;
}

export function pca2(rows: readonly (readonly number[])[]): Pca {
  const d = rows[0]?.length ?? 0;
  const n = rows.length;
  const mean = new Array(d).fill(0);
  for (const r of rows) for (let i = 0; i < d; i++) mean[i] += r[i] / n;
  const c: number[][] = Array.from({ length: d }, () => new Array(d).fill(0));
  for (const r of rows) {
    for (let i = 0; i < d; i++) {
      const di = r[i] - mean[i];
      if (di === 0) continue;
      for (let j = 0; j < d; j++) c[i][j] += (di * (r[j] - mean[j])) / Math.max(1, n - 1);
    }
  }
  const trace = c.reduce((s, row, i) => s + row[i], 0);
  // Start from a fixed, non-symmetric vector so the result does not depend on chance.
  const start = Array.from({ length: d }, (_, i) => 1 + i / (d + 1));
  const first = leading(c, start);
  const deflated = c.map((row, i) => row.map((x, j) => x - first.val * first.vec[i] * first.vec[j]));
  const startB = start.map((x, i) => x - dot(start, first.vec) * first.vec[i]);
  const second = d > 1 ? leading(deflated, startB) : { vec: new Array(d).fill(0), val: 0 };
  const c1 = orient(first.vec), c2 = orient(second.vec);
  const explained: [number, number] = trace > 0 ? [first.val / trace, Math.max(0, second.val) / trace] : [0, 0];
  return {
    mean,
    components: [c1, c2],
    explained,
    project: (v) => {
      const centred = v.map((x, i) => x - mean[i]);
      return [dot(centred, c1), dot(centred, c2)];
    },
  };
}
