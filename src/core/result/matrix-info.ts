// Finding a weight matrix in a result: W_Q, W_K, W_V belong to a head, W_O is shared.
// Used by the editor's hovers (hover-text.ts) and the panel's projection view.
import type { AttentionData, WeightData } from './attention-data.js';

export type MatrixRoleName = 'wq' | 'wk' | 'wv' | 'wo';

/** The matrix of `role` for `head` (W_O ignores the head), or undefined when the spec has none. */
export function findMatrix(data: AttentionData, role: MatrixRoleName, head: number | undefined): WeightData | undefined {
  return data.matrices.find((m) => m.role === role && (role === 'wo' || m.head === head));
}
