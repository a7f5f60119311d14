// Token labels on the map's axes: as many as fit 12 px apart at round places (every token, or every
// 2nd, 5th, 10th, 20th, 25th, 50th, 100th, …, counted from 1), of the tokens in view only, so no two
// ever overlap however long the head (each label carries its token's place: a repeated word is told apart).

/** Labels this many tokens apart keep 12 px between them: 1, 2, 5, 10, 20, 25, 50, 100, … */
export function labelStride(cellPx: number): number {
  const need = 12 / Math.max(cellPx, 1e-9);
  if (need <= 1) return 1;
  for (let p = 1; ; p *= 10) for (const m of [1, 2, 2.5, 5]) if (m * p >= need && Number.isInteger(m * p)) return m * p;
}

/** The tokens labelled from i0 to i1: every one, or every `stride`-th counted from 1 (10, 20, 30 for 10). */
export function labelIndices(i0: number, i1: number, stride: number): number[] {
  const out: number[] = [];
  for (let i = Math.ceil((i0 + 1) / stride) * stride - 1; i <= i1; i += stride) out.push(i);
  return out;
}

/**
 * The labels of tokens i0…i1 on an axis `side` px long, a token `px` px from `offset`: each token's
 * index and the centre of its cell, only those whose centre is inside the axis, none nearer than
 * `gap` px to one kept before (nor to any of `taken`, places already labelled: the sink columns).
 */
export function axisLabels(i0: number, i1: number, px: number, offset: number, side: number, taken: readonly number[] = [], gap = 12): { index: number; at: number }[] {
  const stride = labelStride(px);
  const out: { index: number; at: number }[] = [];
  for (const index of labelIndices(i0, i1, stride)) {
    const at = offset + (index + 0.5) * px;
    if (at < -0.5 || at > side + 0.5) continue;
    if (taken.some((t) => Math.abs(t - at) < gap)) continue;
    const last = out[out.length - 1];
    if (last && at - last.at < gap) continue;
    out.push({ index, at });
  }
  return out;
}
