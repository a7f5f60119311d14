// The one row softmax of the project: the core's heads, the webview's decode of the wire format, a
// hover's single row, the training loss, the init lab and a model file's --softmax all call
// softmaxInto, so their weights are the same bits by construction. It never produces NaN from
// finite scores: the row's maximum is subtracted before exp (so scores of 1000 and 1001 do not
// overflow), masked entries get weight 0, and a row with every entry masked comes out as all zeros
// for the caller to warn about. It works on flat arrays at offsets (a row of an n × n matrix is
// never copied out) with a Uint8Array mask, not a callback: at 1,024² cells the callback cost more
// than the exponentials.

/**
 * weights[outAt + j] = softmax(scores[at + j] ÷ divisor) for j < n, the keys whose mask[maskAt + j]
 * is not 0 left out (weight 0). `out` may be `scores` itself at the same offset (in place). In order,
 * and so the same bits for every caller: the row's max over unmasked keys (NaN is never a max),
 * exp(s − max) left to right into a sum, each entry divided by the sum. The scaled scores wait in
 * `out` between the two passes (one division a cell, not two: 10–20% faster at 1,024²).
 *
 * Returns the row's log-sum-exp, max + ln Σ exp(s − max) (the training loss's −ln weight is
 * logSumExp − s_k): −Infinity when no key is left to weigh (every key masked, −∞ or NaN; the row is
 * then all zeros), NaN when the sum is NaN (a NaN or +∞ score among finite ones: every weight is
 * NaN, masked ones too), else a finite number.
 */
export function softmaxInto(
  scores: Float64Array, at: number, n: number,
  out: Float64Array, outAt: number,
  divisor = 1,
  mask?: Uint8Array, maskAt = at,
): number {
  let max = -Infinity;
  if (mask === undefined) {
    for (let j = 0; j < n; j++) {
      const s = scores[at + j] / divisor;
      out[outAt + j] = s;
      if (s > max) max = s;
    }
  } else {
    for (let j = 0; j < n; j++) {
      if (mask[maskAt + j] !== 0) continue;
      const s = scores[at + j] / divisor;
      out[outAt + j] = s;
      if (s > max) max = s;
    }
  }
  if (max === -Infinity) {
    out.fill(0, outAt, outAt + n);
    return -Infinity;
  }
  let sum = 0;
  for (let j = 0; j < n; j++) {
    const e = mask !== undefined && mask[maskAt + j] !== 0 ? 0 : Math.exp(out[outAt + j] - max);
    out[outAt + j] = e;
    sum += e;
  }
  for (let j = 0; j < n; j++) out[outAt + j] /= sum;
  return max + Math.log(sum);
}

/** Softmax of a whole row into `out`, `masked(j)` saying whether key j is hidden. Returns false for a fully masked row. */
export function softmaxRow(
  scores: Float64Array,
  out: Float64Array,
  masked?: (j: number) => boolean,
): boolean {
  const n = scores.length;
  let mask: Uint8Array | undefined;
  if (masked) {
    mask = new Uint8Array(n);
    for (let j = 0; j < n; j++) mask[j] = masked(j) ? 1 : 0;
  }
  return softmaxInto(scores, 0, n, out, 0, 1, mask, 0) !== -Infinity;
}

/** Softmax of a plain list, for callers outside the hot loop. */
export function softmax(values: readonly number[]): number[] {
  const out = new Float64Array(values.length);
  softmaxRow(Float64Array.from(values), out);
  return Array.from(out);
}
