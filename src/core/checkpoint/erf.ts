// The error function in float64, for the exact GELU (x/2 · (1 + erf(x/√2))) that BERT's MLP computes:
// JavaScript has no Math.erf. Below 2.5, erf(a) = 2/√π · e^(−a²) · Σ 2ⁿ a^(2n+1) / (1·3·…·(2n+1)), a
// series of positive terms (no cancellation, so it keeps float64's precision); from 2.5, 1 − erfc(a)
// with erfc's continued fraction e^(−a²)/√π · 1/(a + ½/(a + 1/(a + 3⁄2/(a + …)))), evaluated from a
// fixed depth that converges there to below float64's spacing at 1; past 6, erfc < 2·10⁻¹⁷ and erf
// is ±1. Within a few units in the last place of libm's erf (what PyTorch's exact GELU calls).

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const INV_SQRT_PI = 1 / Math.sqrt(Math.PI);
/** Terms of the continued fraction: enough at a = 2.5, its slowest point, for an error under 10⁻¹⁷. */
const DEPTH = 120;

export function erf(x: number): number {
  const a = Math.abs(x);
  let r: number;
  if (a < 2.5) {
    const a2 = a * a;
    let term = a, sum = a;
    for (let k = 1; term > sum * 1e-18; k++) {
      term *= (2 * a2) / (2 * k + 1);
      sum += term;
    }
    r = TWO_OVER_SQRT_PI * Math.exp(-a2) * sum;
  } else if (a < 6) {
    let f = a;
    for (let k = DEPTH; k >= 1; k--) f = a + k / 2 / f;
    r = 1 - (Math.exp(-a * a) * INV_SQRT_PI) / f;
  } else {
    r = a === a ? 1 : NaN;
  }
  return x < 0 ? -r : x === 0 ? x : r; // erf(−0) is −0, as libm gives it
}
