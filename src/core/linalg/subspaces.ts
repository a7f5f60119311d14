// What the Heads view's overlap means for two heads (the third seed's subspace decomposition). The
// overlap attn analyze reports is the mean cos² of the principal angles over the smaller of the two
// column spaces, so it is 1 both for two heads reading the same subspace and for a head whose
// subspace lies inside a larger one ("tech lens" reads a plane of R³, "raw", the identity, all of
// it). With each subspace's dimension (the rank of the head's W), the same number says both
// directions of containment and a verdict in words.

/** The rank of a matrix from its singular values, with numpy's tolerance σ_max · max(rows, cols) · ε. */
export function rankOf(singularValues: ArrayLike<number>, rows: number, cols: number): number {
  let top = 0;
  for (let i = 0; i < singularValues.length; i++) top = Math.max(top, singularValues[i]);
  const tol = top * Math.max(rows, cols) * Number.EPSILON;
  let r = 0;
  for (let i = 0; i < singularValues.length; i++) if (singularValues[i] > tol) r++;
  return r;
}

export type SubspaceVerdict = 'same' | 'a inside b' | 'b inside a' | 'orthogonal' | 'partly shared';

export interface Containment {
  /** Σ cos² of the principal angles: how many dimensions the two subspaces share, in effect. */
  shared: number;
  /** The share of a's subspace that lies in b's (shared ÷ a's dimension), 0..1. */
  aInB: number;
  /** The share of b's subspace that lies in a's. */
  bInA: number;
  verdict: SubspaceVerdict;
}

/** Within this of 1 (or of 0) a share counts as whole (or as none): the SVDs leave ~1e-15. */
const WHOLE = 1e-6;

/** From the overlap (mean cos² over min(rankA, rankB) angles) and the two dimensions. */
export function containment(overlap: number, rankA: number, rankB: number): Containment {
  const r = Math.min(rankA, rankB);
  const shared = Math.max(0, Math.min(1, overlap)) * r;
  const aInB = rankA > 0 ? Math.min(1, shared / rankA) : 0;
  const bInA = rankB > 0 ? Math.min(1, shared / rankB) : 0;
  const whole = (x: number) => x >= 1 - WHOLE;
  const verdict: SubspaceVerdict = r === 0 || shared <= WHOLE ? 'orthogonal'
    : whole(aInB) && whole(bInA) ? 'same'
    : whole(aInB) ? 'a inside b'
    : whole(bInA) ? 'b inside a'
    : 'partly shared';
  return { shared, aInB, bInA, verdict };
}

/** The verdict as a sentence about two named heads with subspaces of these dimensions. */
export function verdictText(c: Containment, a: string, b: string, rankA: number, rankB: number): string {
  const dims = (r: number) => `${r}-D`;
  switch (c.verdict) {
    case 'same': return `"${a}" and "${b}" read the same ${dims(rankA)} subspace`;
    case 'a inside b': return `"${a}"'s ${dims(rankA)} subspace lies inside "${b}"'s ${dims(rankB)}: not the same subspace`;
    case 'b inside a': return `"${b}"'s ${dims(rankB)} subspace lies inside "${a}"'s ${dims(rankA)}: not the same subspace`;
    case 'orthogonal': return `"${a}" and "${b}" read orthogonal subspaces: nothing in common`;
    default: return `"${a}" and "${b}" share about ${Number(c.shared.toFixed(2))} of their ${dims(rankA)} and ${dims(rankB)} dimensions`;
  }
}
