// The first two principal components of a set of vectors (the quadrant plot of a spec without
// named axes). The covariance matrix is never formed: it is d × d, and a spec may have a huge
// d_model with few tokens. Subspace iteration on two vectors multiplies by Xᵀ(X·v) instead, which
// costs O(n·d) time per step and O(n·d) memory (the centred data), with a work budget so no input
// can make it run long. The data is scaled to a largest entry of 1 first, so squares cannot
// overflow; shares of variance do not depend on that scale.

export interface Pca {
  mean: number[];
  /** Two unit vectors (the second is all zeros when the data has only one dimension). */
  components: [number[], number[]];
  /** Share of the total variance each component explains, 0..1. */
  explained: [number, number];
  project(v: ArrayLike<number>): [number, number];
}

/** Multiply-adds the iteration may spend (about a tenth of a second). */
const WORK_BUDGET = 2e8;
const MAX_STEPS = 300;

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function normalise(v: Float64Array): number {
  const len = Math.sqrt(dot(v, v));
  if (len > 0) for (let i = 0; i < v.length; i++) v[i] /= len;
  return len;
}

/** v minus its part along unit vector u. */
function removeAlong(v: Float64Array, u: Float64Array): void {
  const c = dot(v, u);
  for (let i = 0; i < v.length; i++) v[i] -= c * u[i];
}

/** C·v for C = XᵀX, with X the n × d centred data (row-major). */
function covTimes(x: Float64Array, n: number, d: number, v: Float64Array): Float64Array {
  const out = new Float64Array(d);
  for (let r = 0; r < n; r++) {
    const o = r * d;
    let s = 0;
    for (let j = 0; j < d; j++) s += x[o + j] * v[j];
    if (s !== 0) for (let j = 0; j < d; j++) out[j] += s * x[o + j];
  }
  return out;
}

/** A deterministic sign: the entry largest in size is positive. */
function orient(v: Float64Array): number[] {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (Math.abs(v[i]) > Math.abs(v[k]) + 1e-12) k = i;
  return Array.from(v, (x) => (v[k] < 0 ? -x : x) || 0);
}

export function pca2(rows: readonly ArrayLike<number>[]): Pca {
  const n = rows.length;
  const d = rows[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  for (const r of rows) for (let j = 0; j < d; j++) mean[j] += r[j] / n;
  const x = new Float64Array(n * d);
  let biggest = 0;
  rows.forEach((r, i) => {
    for (let j = 0; j < d; j++) {
      const c = r[j] - mean[j];
      x[i * d + j] = Number.isFinite(c) ? c : 0;
      biggest = Math.max(biggest, Math.abs(x[i * d + j]));
    }
  });
  if (biggest > 0) for (let i = 0; i < x.length; i++) x[i] /= biggest;
  const trace = dot(x, x);

  // Fixed, different start vectors, so the result does not depend on chance.
  const a = Float64Array.from({ length: d }, (_, j) => 1 + j / (d + 1));
  const b = Float64Array.from({ length: d }, (_, j) => (j % 2 ? -1 : 1) * (1 + (d - j) / (d + 1)));
  normalise(a);
  removeAlong(b, a);
  if (normalise(b) === 0 && d > 1) { b.fill(0); b[1] = 1; removeAlong(b, a); normalise(b); }
  const steps = Math.max(10, Math.min(MAX_STEPS, Math.floor(WORK_BUDGET / Math.max(1, 4 * n * d))));
  let u: Float64Array = a, w: Float64Array = d > 1 ? b : new Float64Array(d);
  for (let step = 0; step < steps && trace > 0; step++) {
    const u2 = covTimes(x, n, d, u);
    if (normalise(u2) === 0) break;
    let w2: Float64Array = w;
    if (d > 1) {
      w2 = covTimes(x, n, d, w);
      removeAlong(w2, u2);
      // Rank-one data: nothing is left beside u, so w stays the orthogonal direction it was.
      if (normalise(w2) < 1e-12) { w2 = w.slice(); removeAlong(w2, u2); normalise(w2); }
    }
    const change = Math.abs(1 - Math.abs(dot(u, u2))) + (d > 1 ? Math.abs(1 - Math.abs(dot(w, w2))) : 0);
    u = u2;
    w = w2;
    if (change < 1e-15) break;
  }
  // Rayleigh–Ritz on span{u, w}: the 2 × 2 problem gives the best pair in that plane, in order.
  const cu = covTimes(x, n, d, u), cw = d > 1 ? covTimes(x, n, d, w) : new Float64Array(d);
  const p = dot(u, cu), q = dot(u, cw), r = dot(w, cw);
  const theta = 0.5 * Math.atan2(2 * q, p - r);
  const cos = Math.cos(theta), sin = Math.sin(theta);
  let first = Float64Array.from(u, (ui, j) => cos * ui + sin * w[j]);
  let second = Float64Array.from(u, (ui, j) => -sin * ui + cos * w[j]);
  let l1 = cos * cos * p + 2 * sin * cos * q + sin * sin * r;
  let l2 = sin * sin * p - 2 * sin * cos * q + cos * cos * r;
  if (l2 > l1) { [first, second] = [second, first]; [l1, l2] = [l2, l1]; }
  if (d < 2) second = new Float64Array(d);
  const c1 = orient(first), c2 = orient(second);
  const share = (l: number) => (trace > 0 && Number.isFinite(l) ? Math.min(1, Math.max(0, l / trace)) : 0);
  return {
    mean,
    components: [c1, c2],
    explained: [share(l1), share(l2)],
    project: (v) => {
      let s1 = 0, s2 = 0;
      for (let j = 0; j < d; j++) {
        const c = v[j] - mean[j];
        s1 += c * c1[j];
        s2 += c * c2[j];
      }
      return [s1, s2];
    },
  };
}
