// Row-wise softmax that never produces NaN: the row's maximum is subtracted before exp
// (so scores of 1000 and 1001 do not overflow), masked entries get weight 0, and a row with
// every entry masked comes out as all zeros for the caller to warn about.

/** Softmax of one row in place into `out`. `masked(j)` says whether key j is hidden. Returns false for a fully masked row. */
export function softmaxRow(
  scores: Float64Array,
  out: Float64Array,
  masked: (j: number) => boolean = () => false,
): boolean {
  let max = -Infinity;
  for (let j = 0; j < scores.length; j++) if (!masked(j) && scores[j] > max) max = scores[j];
  if (max === -Infinity) {
    out.fill(0);
    return false;
  }
  let sum = 0;
  for (let j = 0; j < scores.length; j++) {
    const e = masked(j) ? 0 : Math.exp(scores[j] - max);
    out[j] = e;
    sum += e;
  }
  for (let j = 0; j < scores.length; j++) out[j] /= sum;
  return true;
}

/** Softmax of a plain list, for callers outside the hot loop. */
export function softmax(values: readonly number[]): number[] {
  const out = new Float64Array(values.length);
  softmaxRow(Float64Array.from(values), out);
  return Array.from(out);
}
