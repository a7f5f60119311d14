// What a weight matrix's spectrum says (the third seed: large spread → signals explode or vanish):
// the condition number, the effective rank, and a 2-D picture of what the matrix does to the plane,
// the unit circle and its image (an ellipse), with the singular directions and, for a square
// matrix, the directions that keep their direction (real eigenvectors).
// Row-vector convention throughout, as in the seeds: a point x of the plane goes to x · M. So the
// input singular directions are the eigenvectors of M·Mᵀ, and the eigen-directions solve x·M = λx
// (left eigenvectors of M, i.e. eigenvectors of Mᵀ). Pure numbers, no DOM.
import { Matrix as MlMatrix } from 'ml-matrix';
import { svd } from './svd.js';
import type { Matrix } from './matrix.js';

/** Below this share of σ_max (numpy's matrix_rank tolerance: σ_max · max(m, n) · ε) a singular value counts as 0. */
export function rankTolerance(sigmaMax: number, rows: number, cols: number): number {
  return sigmaMax * Math.max(rows, cols) * Number.EPSILON;
}

/**
 * σ_max / σ_min over the min(m, n) singular values (descending), as numpy's cond; null when the
 * matrix is singular: σ_min at or below the rank tolerance (σ_max · max(m, n) · ε), or all zero.
 * Rounding makes an exactly singular matrix's σ_min 1e-16 rather than 0, which would give a
 * meaningless 1e16: null says "singular" instead.
 */
export function conditionNumber(singularValues: readonly number[], rows: number, cols: number): number | null {
  if (singularValues.length === 0) return null;
  const max = singularValues[0], min = singularValues[singularValues.length - 1];
  if (!(max > 0) || min <= rankTolerance(max, rows, cols)) return null;
  return max / min;
}

/**
 * Effective rank (Roy & Vetterli, 2007): exp of the Shannon entropy of the normalised singular
 * values p_i = σ_i / Σσ, with 0 · ln 0 = 0. It is k for k equal non-zero values and falls toward 1
 * as one direction dominates; 0 for the zero matrix.
 */
export function effectiveRank(singularValues: readonly number[]): number {
  let total = 0;
  for (const s of singularValues) total += s;
  if (!(total > 0)) return 0;
  let entropy = 0;
  for (const s of singularValues) {
    const p = s / total;
    if (p > 0) entropy -= p * Math.log(p);
  }
  return Math.exp(entropy);
}

/** Stable rank ‖M‖_F² / ‖M‖₂² = Σσ² / σ_max²: how many directions carry the matrix's energy; 0 for the zero matrix. */
export function stableRank(singularValues: readonly number[]): number {
  const max = singularValues[0] ?? 0;
  if (!(max > 0)) return 0;
  let sum = 0;
  for (const s of singularValues) sum += (s / max) ** 2;
  return sum;
}

export type Vec2 = [number, number];
export type Mat2 = [[number, number], [number, number]];

export interface SingularDirection {
  readonly sigma: number;
  /** A unit input direction v. */
  readonly input: Vec2;
  /** Where it goes: v · M, of length σ. */
  readonly output: Vec2;
}

export interface EigenDirection {
  readonly lambda: number;
  /** A unit direction x with x · M = λx: M only stretches it (by λ; a negative λ also flips it). */
  readonly direction: Vec2;
}

export interface PlanePicture {
  /** The 2 × 2 matrix drawn. */
  readonly matrix: Mat2;
  /** The unit circle, `points` points as x0, y0, x1, y1, ... */
  readonly circle: Float64Array;
  /** Each circle point times the matrix: an ellipse (a segment when singular, a point for zero). */
  readonly image: Float64Array;
  /** Two, largest σ first. */
  readonly singular: readonly [SingularDirection, SingularDirection];
  /** The eigenvalues: real (im 0) or a complex pair. */
  readonly eigenvalues: readonly [Vec2, Vec2];
  /** Real eigen-directions: none for a complex pair (a rotation keeps no direction), one for a shear, two otherwise. */
  readonly eigenDirections: readonly EigenDirection[];
  /**
   * False when entries so large (past about 1e154) overflowed somewhere in the picture: a view then
   * says so instead of drawing. Everything is finite when this is true.
   */
  readonly finite: boolean;
}

const unit = (x: number, y: number): Vec2 => {
  const r = Math.hypot(x, y);
  return [x / r || 0, y / r || 0];
};
const times = (v: Vec2, m: Mat2): Vec2 => [v[0] * m[0][0] + v[1] * m[1][0], v[0] * m[0][1] + v[1] * m[1][1]];

/** Singular directions of a 2 × 2 matrix in closed form (row convention: inputs are eigenvectors of M·Mᵀ). */
export function singular2(m: Mat2): [SingularDirection, SingularDirection] {
  const [[a, b], [c, d]] = m;
  // M·Mᵀ = [[p, q], [q, r]]; its eigenvectors are at angle θ and θ + 90°, θ = ½ atan2(2q, p − r).
  const p = a * a + b * b, q = a * c + b * d, r = c * c + d * d;
  const theta = 0.5 * Math.atan2(2 * q, p - r);
  const v1: Vec2 = [Math.cos(theta), Math.sin(theta)], v2: Vec2 = [-Math.sin(theta), Math.cos(theta)];
  const o1 = times(v1, m), o2 = times(v2, m);
  const s1 = Math.hypot(o1[0], o1[1]);
  // σ₂ from σ₁σ₂ = |det M|, which stays accurate when σ₂ is tiny (√ of M·Mᵀ's small eigenvalue would not).
  const s2 = s1 > 0 ? Math.abs(a * d - b * c) / s1 : 0;
  return [{ sigma: s1, input: v1, output: o1 }, { sigma: s2, input: v2, output: o2 }];
}

/** A unit x with x · A = 0 for a singular 2 × 2 A (x is orthogonal to A's larger column); undefined for A = 0. */
function leftNull(A: Mat2): Vec2 | undefined {
  const n0 = Math.hypot(A[0][0], A[1][0]), n1 = Math.hypot(A[0][1], A[1][1]);
  if (n0 === 0 && n1 === 0) return undefined;
  const c = n0 >= n1 ? 0 : 1;
  return unit(A[1][c], -A[0][c]);
}

/** Eigenvalues of a 2 × 2 matrix and its real eigen-directions (x · M = λx). */
export function eigen2(m: Mat2): { eigenvalues: [Vec2, Vec2]; directions: EigenDirection[] } {
  const [[a, b], [c, d]] = m;
  const half = (a + d) / 2, det = a * d - b * c;
  const disc = half * half - det;
  if (disc < 0) {
    const im = Math.sqrt(-disc);
    return { eigenvalues: [[half, im], [half, -im]], directions: [] };
  }
  const root = Math.sqrt(disc);
  // The larger in size first, and the other from λ₁λ₂ = det, which avoids cancellation.
  const l1 = half >= 0 ? half + root : half - root;
  const l2 = l1 !== 0 ? det / l1 : half - root;
  const directions: EigenDirection[] = [];
  for (const lambda of l1 === l2 ? [l1] : [l1, l2]) {
    const x = leftNull([[a - lambda, b], [c, d - lambda]]);
    if (x) directions.push({ lambda, direction: x });
    else directions.push({ lambda, direction: [1, 0] }, { lambda, direction: [0, 1] }); // M = λI: every direction is kept
  }
  return { eigenvalues: [[l1, 0], [l2, 0]], directions };
}

/** The 2 × 2 picture of a 2 × 2 matrix: the unit circle, its image, singular and eigen-directions. */
export function planePicture(m: Mat2, points = 96): PlanePicture {
  const n = Math.min(4096, Math.max(4, Math.floor(points) || 4)); // a smooth ellipse needs ~100; never an absurd allocation
  const circle = new Float64Array(2 * n), image = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n;
    const x = Math.cos(t), y = Math.sin(t);
    circle[2 * i] = x; circle[2 * i + 1] = y;
    image[2 * i] = x * m[0][0] + y * m[1][0];
    image[2 * i + 1] = x * m[0][1] + y * m[1][1];
  }
  const e = eigen2(m);
  const singular = singular2(m);
  const numbers = [...image, ...m.flat(), ...singular.flatMap((s) => [s.sigma, ...s.input, ...s.output]), ...e.eigenvalues.flat(), ...e.directions.flatMap((x) => [x.lambda, ...x.direction])];
  return { matrix: m, circle, image, singular, eigenvalues: e.eigenvalues, eigenDirections: e.directions, finite: numbers.every(Number.isFinite) };
}

/** The 2 × 2 block of m at rows (i, j) and columns (a, b): what m does from features i, j to outputs a, b. */
export function restriction(m: Matrix, rows: Vec2, cols: Vec2 = rows): Mat2 {
  for (const r of rows) if (!(Number.isInteger(r) && r >= 0 && r < m.rows)) throw new RangeError(`restriction: row ${r} outside 0..${m.rows - 1}`);
  for (const c of cols) if (!(Number.isInteger(c) && c >= 0 && c < m.cols)) throw new RangeError(`restriction: column ${c} outside 0..${m.cols - 1}`);
  const at = (i: number, j: number) => m.data[i * m.cols + j];
  return [[at(rows[0], cols[0]), at(rows[0], cols[1])], [at(rows[1], cols[0]), at(rows[1], cols[1])]];
}

export interface TopTwo {
  /** diag(σ₁, σ₂): the matrix in the bases below, the ellipse drawn with axes σ₁ and σ₂. */
  readonly matrix: Mat2;
  /** The two input directions (rows of length m.rows): the unit vectors v₁, v₂ of x · M = σ u. */
  readonly inputs: readonly [Float64Array, Float64Array];
  /** The two output directions (length m.cols): u₁, u₂. Zero vectors for a zero σ. */
  readonly outputs: readonly [Float64Array, Float64Array];
}

/**
 * The plane of m's two strongest input directions: in the basis (v₁, v₂) → (u₁, u₂) the matrix acts
 * as diag(σ₁, σ₂), so its picture is an upright ellipse. Any shape; a single row or column gives σ₂ = 0.
 */
export function topTwo(m: Matrix): TopTwo {
  // x · M = σ u with x a unit row of length m.rows: x are the left singular vectors of M (column convention).
  const ml = new MlMatrix(Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))));
  const d = svd(ml, { left: true, right: true });
  const order = d.diagonal.map((s, k) => [s, k]).sort((x, y) => y[0] - x[0]).map(([, k]) => k);
  const s = (i: number) => (i < order.length ? Math.max(0, d.diagonal[order[i]]) : 0);
  const input = (i: number) => i < order.length ? Float64Array.from({ length: m.rows }, (_, r) => d.leftSingularVectors.get(r, order[i])) : new Float64Array(m.rows);
  const output = (i: number) => i < order.length && s(i) > 0 ? Float64Array.from({ length: m.cols }, (_, c) => d.rightSingularVectors.get(c, order[i])) : new Float64Array(m.cols);
  // A deterministic sign: each input direction's largest entry is positive (its output flips with it).
  const pairs = [0, 1].map((i) => {
    const v = input(i), u = output(i);
    let k = 0;
    for (let j = 1; j < v.length; j++) if (Math.abs(v[j]) > Math.abs(v[k]) + 1e-12) k = j;
    if (v[k] < 0) { for (let j = 0; j < v.length; j++) v[j] = -v[j] || 0; for (let j = 0; j < u.length; j++) u[j] = -u[j] || 0; }
    return [v, u] as const;
  });
  return { matrix: [[s(0), 0], [0, s(1)]], inputs: [pairs[0][0], pairs[1][0]], outputs: [pairs[0][1], pairs[1][1]] };
}
