// The geometry of one score (the third seed): q · k = |q| |k| cos θ. Any two vectors span a plane
// (a line when they are parallel), so the picture is exact in any d_k: k along the first axis,
// q placed by its component along k and the rest of it, at right angles.

export interface PairGeometry {
  dot: number;
  qNorm: number;
  kNorm: number;
  /** cos θ; 0 when either vector is zero (no angle to speak of). */
  cos: number;
  /** θ in degrees, 0..180. */
  degrees: number;
  /** Length of q's shadow on k's direction: q · k / |k|. */
  shadow: number;
  /** q and k in the plane they span: k = [|k|, 0], q = [shadow, rest ≥ 0]. */
  q2: [number, number];
  k2: [number, number];
}

/** |v| without overflow or underflow: scaled by its largest entry first, as hypot does. */
function norm(v: ArrayLike<number>): number {
  let big = 0;
  for (let i = 0; i < v.length; i++) big = Math.max(big, Math.abs(v[i]));
  if (big === 0 || !Number.isFinite(big)) return big;
  let ss = 0;
  for (let i = 0; i < v.length; i++) ss += (v[i] / big) ** 2;
  return big * Math.sqrt(ss);
}

export function pairGeometry(q: ArrayLike<number>, k: ArrayLike<number>): PairGeometry {
  let dot = 0;
  for (let i = 0; i < q.length; i++) dot += q[i] * k[i];
  const qNorm = norm(q), kNorm = norm(k);
  // cos θ from the unit vectors, so |q||k| never has to be formed (it can overflow when q · k does not).
  let cos = 0;
  if (qNorm > 0 && kNorm > 0) {
    let c = 0;
    for (let i = 0; i < q.length; i++) c += (q[i] / qNorm) * (k[i] / kNorm);
    cos = Math.max(-1, Math.min(1, c));
  }
  const theta = qNorm > 0 && kNorm > 0 ? angleBetweenUnits(q, qNorm, k, kNorm) : Math.PI / 2;
  // Identical directions are exactly 0° (acos of a cosine rounded to 1 − 2⁻⁵² printed 8.54e-7°).
  if (theta === 0) cos = 1;
  const sin = theta === 0 ? 0 : Math.sqrt(Math.max(0, 1 - cos * cos));
  const shadow = qNorm * cos;
  return { dot, qNorm, kNorm, cos, degrees: (theta * 180) / Math.PI, shadow, q2: [shadow, qNorm * sin], k2: [kNorm, 0] };
}

/**
 * θ between q and k from their unit vectors u and v as 2·atan2(|u − v|, |u + v|) (Kahan's form):
 * accurate at every angle, where acos(cos θ) loses half its digits near 0° and 180°, and exactly 0
 * when the two directions are the same number for number.
 */
function angleBetweenUnits(q: ArrayLike<number>, qNorm: number, k: ArrayLike<number>, kNorm: number): number {
  let diff = 0, sum = 0;
  for (let i = 0; i < q.length; i++) {
    const u = q[i] / qNorm, v = k[i] / kNorm;
    diff += (u - v) ** 2;
    sum += (u + v) ** 2;
  }
  return 2 * Math.atan2(Math.sqrt(diff), Math.sqrt(sum));
}

/** An angle for a label: at most one decimal, never an exponent; below 0.05° it is 0°. */
export function degreesText(degrees: number): string {
  if (!Number.isFinite(degrees)) return '?°';
  return degrees < 0.05 ? '0°' : `${Number(degrees.toFixed(1))}°`;
}
