// Covariance and correlation of features across an input's tokens (the third seed: features that
// move together are redundant). Features are the variables, tokens the observations, so for an
// n × d matrix (X, Q, K, V or an output) the covariance is d × d, divided by n − 1 as numpy's
// np.cov. The covariance's eigenvalues, largest first, are the variances along the principal
// components; each over their sum is the share of variance that component explains (the same
// components as the quadrant view's pca.ts, computed exactly here).
import { EigenvalueDecomposition, Matrix as MlMatrix } from 'ml-matrix';
import type { Matrix } from './matrix.js';

/** |correlation| at or above which two features are called redundant. */
export const REDUNDANT_CORRELATION = 0.9;

export interface RedundantPair {
  readonly a: number;
  readonly b: number;
  readonly correlation: number;
}

export interface FeatureStats {
  /** Tokens (observations) and features (variables). */
  readonly n: number;
  readonly d: number;
  readonly mean: Float64Array;
  /** d × d, row-major, ÷ (n − 1). */
  readonly covariance: Float64Array;
  /**
   * d × d, row-major, in [−1, 1]. A feature that does not vary (constant across the tokens) has no
   * correlation with anything: its row and column hold 0 (numpy would give NaN) and `constant` says so.
   */
  readonly correlation: Float64Array;
  readonly constant: readonly boolean[];
  /** Pairs a < b with |correlation| ≥ the threshold, strongest first. */
  readonly redundant: readonly RedundantPair[];
  /** The covariance's eigenvalues, largest first; rounding's tiny negatives are clamped to 0 (a variance is never negative). */
  readonly eigenvalues: Float64Array;
  /** eigenvalue / Σ eigenvalues: the share of variance along each principal component (all 0 when nothing varies). */
  readonly explained: Float64Array;
  /**
   * d × d, row k the unit eigenvector of eigenvalue k (a principal direction), its largest entry
   * positive. With fewer tokens than features, rows whose eigenvalue is 0 are all zeros.
   */
  readonly components: Float64Array;
}

/** Multiply-adds of featureStats: the covariance (n·d²) and the eigendecomposition of the smaller of it and the Gram matrix. */
export function featureStatsWork(n: number, d: number): number {
  return n * d * d + (d <= n ? 10 * d * d * d : n * n * d + 10 * n * n * n);
}

/**
 * The feature statistics of the rows of x; null for fewer than 2 rows (no variance from one token)
 * and for data holding Infinity or NaN or so large that the covariance overflows (the statistics would
 * be NaN, which must never reach a picture).
 */
export function featureStats(x: Matrix, threshold = REDUNDANT_CORRELATION): FeatureStats | null {
  const n = x.rows, d = x.cols, v = x.data;
  if (n < 2 || d === 0) return null;
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return null;
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += v[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= n;
  // Centred once, so each of the d² sums reads contiguous differences.
  const c = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) c[i * d + j] = v[i * d + j] - mean[j];
  const covariance = new Float64Array(d * d);
  for (let i = 0; i < n; i++) {
    const o = i * d;
    for (let a = 0; a < d; a++) {
      const ca = c[o + a];
      if (ca === 0) continue;
      for (let b = a; b < d; b++) covariance[a * d + b] += ca * c[o + b];
    }
  }
  for (let a = 0; a < d; a++) {
    for (let b = a; b < d; b++) {
      covariance[a * d + b] /= n - 1;
      covariance[b * d + a] = covariance[a * d + b];
    }
  }
  // Finite data can still square past the largest double (features near 1e155): no statistics then, rather than NaN.
  for (let i = 0; i < covariance.length; i++) if (!Number.isFinite(covariance[i])) return null;
  // Constant: every token has the same value. Tested on the data, not on a variance of 1e-33 that
  // rounding in the mean can leave, which would make a meaningless correlation of ±1.
  const constant = Array.from({ length: d }, (_, j) => {
    for (let i = 1; i < n; i++) if (v[i * d + j] !== v[j]) return false;
    return true;
  });
  const correlation = new Float64Array(d * d);
  const redundant: RedundantPair[] = [];
  for (let a = 0; a < d; a++) {
    if (constant[a]) continue;
    correlation[a * d + a] = 1;
    for (let b = a + 1; b < d; b++) {
      if (constant[b]) continue;
      const r = Math.max(-1, Math.min(1, covariance[a * d + b] / Math.sqrt(covariance[a * d + a]) / Math.sqrt(covariance[b * d + b])));
      const value = Number.isFinite(r) ? r : 0;
      correlation[a * d + b] = correlation[b * d + a] = value;
      if (Math.abs(value) >= threshold) redundant.push({ a, b, correlation: value });
    }
  }
  redundant.sort((p, q) => Math.abs(q.correlation) - Math.abs(p.correlation) || p.a - q.a || p.b - q.b);

  const { eigenvalues, components } = d <= n ? fromCovariance(covariance, d) : fromGram(c, n, d);
  let total = 0;
  for (const l of eigenvalues) total += l;
  const explained = Float64Array.from(eigenvalues, (l) => (total > 0 ? l / total : 0));
  return { n, d, mean, covariance, correlation, constant, redundant, eigenvalues, explained, components };
}

/** Entries of a scaled symmetric matrix below this are 0 to the eigen-solver (see symmetricEigen). */
const TINY = 1e-300;

/** The largest entry in size made positive, so a direction's sign does not depend on the library. */
function orient(u: Float64Array): void {
  let big = 0;
  for (let j = 1; j < u.length; j++) if (Math.abs(u[j]) > Math.abs(u[big]) + 1e-12) big = j;
  if (u[big] < 0) for (let j = 0; j < u.length; j++) u[j] = -u[j] || 0;
}

/**
 * Eigenvalues (largest first) and unit eigenvectors of a symmetric matrix. It is scaled to entries of
 * at most 1 first: ml-matrix's tql2 failed (an index past the end) on entries near 1e-300, whose
 * squares underflow; the eigenvalues are scaled back. Entries still below TINY after the scaling (a
 * variance of 4.5 beside a covariance of 5e-316) fail it the same way: they are taken as 0, which moves
 * an eigenvalue by less than TINY, far below the solver's own error (ε ≈ 2e-16 of the largest entry).
 * A 1 × 1 matrix is its own eigenvalue.
 */
function symmetricEigen(values: Float64Array, size: number): { lambda: number[]; vector: (k: number) => Float64Array } {
  if (size <= 1) return { lambda: size ? [values[0]] : [], vector: () => Float64Array.of(1) };
  let big = 0;
  for (const x of values) if (Math.abs(x) > big) big = Math.abs(x);
  if (!(big > 0) || !Number.isFinite(big)) {
    // All zero (or not finite): every direction has eigenvalue 0; the unit axes are a basis.
    return { lambda: new Array<number>(size).fill(0), vector: (i) => Float64Array.from({ length: size }, (_, j) => (i === j ? 1 : 0)) };
  }
  const scaled = (x: number) => (Math.abs(x / big) < TINY ? 0 : x / big);
  const ml = new MlMatrix(Array.from({ length: size }, (_, a) => Array.from(values.subarray(a * size, (a + 1) * size), scaled)));
  const eig = new EigenvalueDecomposition(ml, { assumeSymmetric: true });
  const order = eig.realEigenvalues.map((l, k) => [l, k]).sort((p, q) => q[0] - p[0]).map(([, k]) => k);
  const v = eig.eigenvectorMatrix;
  return { lambda: order.map((k) => eig.realEigenvalues[k] * big), vector: (i) => Float64Array.from({ length: size }, (_, j) => v.get(j, order[i])) };
}

/** Eigenvalues and unit eigenvectors of the d × d covariance itself (d ≤ n). */
function fromCovariance(covariance: Float64Array, d: number): { eigenvalues: Float64Array; components: Float64Array } {
  const e = symmetricEigen(covariance, d);
  const components = new Float64Array(d * d);
  for (let k = 0; k < d; k++) {
    const u = e.vector(k);
    orient(u);
    components.set(u, k * d);
  }
  return { eigenvalues: Float64Array.from(e.lambda, (l) => Math.max(0, l)), components };
}

/**
 * With fewer tokens than features (a 512-D embedding, a dozen tokens) the covariance has rank < n,
 * and its non-zero eigenvalues are those of the small n × n Gram matrix Xc·Xcᵀ / (n − 1), whose
 * eigenvectors w map to the covariance's as u = Xcᵀ·w / |Xcᵀ·w|. n²·d + 10·n³ instead of 10·d³:
 * at d = 512 and 3 tokens, milliseconds instead of two seconds. The remaining d − n eigenvalues are
 * 0; their components (directions with no variance) are left as zeros.
 */
function fromGram(c: Float64Array, n: number, d: number): { eigenvalues: Float64Array; components: Float64Array } {
  const gram = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let sum = 0;
      for (let t = 0; t < d; t++) sum += c[i * d + t] * c[j * d + t];
      gram[i * n + j] = gram[j * n + i] = sum / (n - 1);
    }
  }
  const e = symmetricEigen(gram, n);
  const eigenvalues = new Float64Array(d);
  const components = new Float64Array(d * d);
  const tol = Math.max(0, e.lambda[0] ?? 0) * d * Number.EPSILON;
  for (let k = 0; k < n; k++) {
    if (!(e.lambda[k] > tol)) continue; // centring leaves at least one zero
    const w = e.vector(k);
    const u = new Float64Array(d);
    for (let i = 0; i < n; i++) for (let t = 0; t < d; t++) u[t] += c[i * d + t] * w[i];
    let len = 0;
    for (let t = 0; t < d; t++) len += u[t] * u[t];
    len = Math.sqrt(len);
    if (!(len > 0)) continue;
    for (let t = 0; t < d; t++) u[t] /= len;
    orient(u);
    eigenvalues[k] = e.lambda[k];
    components.set(u, k * d);
  }
  return { eigenvalues, components };
}

/** A d × d row-major array as rows, for JSON. */
export function squareRows(values: Float64Array, d: number): number[][] {
  return Array.from({ length: d }, (_, i) => Array.from(values.subarray(i * d, (i + 1) * d)));
}
