// The one way the core takes a singular value decomposition: ml-matrix's SVD of the matrix scaled
// by a power of two, so that its largest entry is about 1, then the singular values scaled back.
// ml-matrix's iteration never ends on subnormal entries (near 1e-313 its convergence test underflows:
// attn analyze hung on such a spec, found by the --json property test). Scaling by a power of two is
// exact, so ordinary matrices get the very numbers they got before; the singular vectors do not
// depend on the scale. A matrix of zeros has zeros; one that is not finite has NaN singular values
// (which every caller refuses) and is never handed to the iteration.
import { Matrix as MlMatrix, SVD } from 'ml-matrix';

export interface SvdOptions { left?: boolean; right?: boolean }

export interface Svd {
  /** The singular values, in ml-matrix's order (callers sort). */
  diagonal: number[];
  leftSingularVectors: MlMatrix;
  rightSingularVectors: MlMatrix;
}

/** e such that 2^e ≤ max |entry| < 2^(e+1); undefined for a matrix of zeros; NaN when an entry is not finite. */
function scaleOf(m: MlMatrix): number | undefined {
  let max = 0;
  for (let i = 0; i < m.rows; i++) {
    for (let j = 0; j < m.columns; j++) {
      const v = Math.abs(m.get(i, j));
      if (!Number.isFinite(v)) return NaN;
      if (v > max) max = v;
    }
  }
  if (max === 0) return undefined;
  let e = Math.floor(Math.log2(max));
  // log2 of a subnormal is exact enough; a step either way keeps 2^e ≤ max < 2^(e+1).
  if (2 ** e > max) e -= 1;
  return e;
}

export function svd(m: MlMatrix, options: SvdOptions = {}): Svd {
  const k = Math.min(m.rows, m.columns);
  const e = scaleOf(m);
  const settings = { computeLeftSingularVectors: options.left === true, computeRightSingularVectors: options.right === true, autoTranspose: true };
  if (e === undefined || Number.isNaN(e)) {
    const value = e === undefined ? 0 : NaN;
    return {
      diagonal: new Array<number>(k).fill(value),
      leftSingularVectors: MlMatrix.eye(m.rows, k), rightSingularVectors: MlMatrix.eye(m.columns, k),
    };
  }
  // 2^−e in two factors: 2^1074 alone is beyond the largest double. Back, 2^e is a double for every finite e.
  const half = Math.trunc(-e / 2);
  const scaled = e === 0 ? m : m.clone().mul(2 ** half).mul(2 ** (-e - half));
  const d = new SVD(scaled, settings);
  return {
    diagonal: d.diagonal.map((s) => s * 2 ** e),
    leftSingularVectors: d.leftSingularVectors, rightSingularVectors: d.rightSingularVectors,
  };
}
