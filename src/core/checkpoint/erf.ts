// The error function and its complement in float64, for the exact GELU (x/2 · (1 + erf(x/√2))) that
// BERT's and GPT-NeoX's MLPs compute: JavaScript has no Math.erf. Below 2, erf(a) = 2/√π · e^(−a²) ·
// Σ 2ⁿ a^(2n+1) / (1·3·…·(2n+1)), a series of positive terms (no cancellation, so it keeps float64's
// precision); from 2, 1 − erfc(a), with erfc's continued fraction e^(−a²)/√π · 1/(a + ½/(a + 1/(a +
// 3⁄2/(a + …)))) taken 80 deep, which keeps erfc's own digits far into the tail (the exact GELU's
// negative side reads erfc, not 1 − erf). Within a few units in the last place of libm's erf (what
// PyTorch's exact GELU calls).

/** erf(z); odd (erf(−0) is −0, as libm gives it), ±1 at ±∞, NaN at NaN. */
export function erf(z: number): number {
  const a = Math.abs(z);
  if (a >= 2) return Math.sign(z) * (1 - erfc(a));
  const z2 = a * a;
  let term = a, sum = a;
  for (let n = 1; term > sum * 1e-17; n++) {
    term *= (2 * z2) / (2 * n + 1);
    sum += term;
  }
  const value = (2 / Math.sqrt(Math.PI)) * expNegSquare(a) * sum;
  return z < 0 ? -value : z === 0 ? z : value;
}

/**
 * e^(−a²) without the rounding of a² (whose one ulp becomes a² ulps of the result): a = s + (a − s)
 * with s its leading 21 bits, so s² is exact, and e^(−a²) = e^(−s²) · e^(−(a − s)(a + s)).
 */
function expNegSquare(a: number): number {
  const s = Math.fround(a) === a ? a : Math.round(a * 2 ** 20) / 2 ** 20;
  return Math.exp(-s * s) * Math.exp(-(a - s) * (a + s));
}

/**
 * 1 − erf(a) for a ≥ 0 with its own digits: below 2 (where it is above 0.004) as 1 − erf(a); from 2,
 * e^(−a²) / √π / (a + (1/2) / (a + (2/2) / (a + (3/2) / …))), the continued fraction taken 80 deep
 * (within an ulp or two from a = 2 on); 0 at ∞.
 */
export function erfc(a: number): number {
  if (!(a >= 2)) return 1 - erf(a);
  if (a === Infinity) return 0;
  let t = a;
  for (let n = 80; n >= 1; n--) t = a + n / 2 / t;
  return expNegSquare(a) / Math.sqrt(Math.PI) / t;
}
