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

export function pairGeometry(q: readonly number[], k: readonly number[]): PairGeometry {
  let dot = 0, qq = 0, kk = 0;
  for (let i = 0; i < q.length; i++) {
    dot += q[i] * k[i];
    qq += q[i] * q[i];
    kk += k[i] * k[i];
  }
  const qNorm = Math.sqrt(qq), kNorm = Math.sqrt(kk);
  const cos = qNorm > 0 && kNorm > 0 ? Math.max(-1, Math.min(1, dot / (qNorm * kNorm))) : 0;
  const shadow = kNorm > 0 ? dot / kNorm : 0;
  const rest = Math.sqrt(Math.max(0, qq - shadow * shadow));
  return { dot, qNorm, kNorm, cos, degrees: (Math.acos(cos) * 180) / Math.PI, shadow, q2: [shadow, rest], k2: [kNorm, 0] };
}
