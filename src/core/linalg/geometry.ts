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
  const sin = Math.sqrt(Math.max(0, 1 - cos * cos));
  const shadow = qNorm * cos;
  return { dot, qNorm, kNorm, cos, degrees: (Math.acos(cos) * 180) / Math.PI, shadow, q2: [shadow, qNorm * sin], k2: [kNorm, 0] };
}
