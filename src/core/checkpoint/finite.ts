// Whether a pass's numbers stayed finite. The forward pass reads a weight matrix without looking at
// each of its numbers (a second pass over a model's weights costs as much as reading them: 0.25 s of
// GPT-2's run, 1.6 s of a 1B model's) and looks at its results instead: a NaN or ±Infinity anywhere in
// a matrix reaches every row of its product (NaN · x is NaN, ±Infinity · 0 is NaN), and from there the
// residual stream, so a layer whose residual stream is finite read only finite weights.

/** Whether every number of `x` is finite: x · 0 is 0 for each, NaN for ±Infinity and NaN. */
export function allFinite(x: Float32Array | Float64Array): boolean {
  let probe = 0;
  for (let i = 0; i < x.length; i++) probe += x[i] * 0;
  return probe === 0;
}
