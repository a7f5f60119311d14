// The k-th smallest of many numbers without sorting them all: the matrix view's colour scale tops out
// at the 99th percentile of a head's weights, and sorting 4 × 1,024² of them to read one took 0.9 s
// (a selection is one pass on average). The answer is the very number Float64Array's sort would put
// at index k: ascending, −0 before +0, NaN after everything.

/**
 * values[k] after `values.sort()` (a Float64Array's own numeric sort), and the last of them, without
 * sorting: `values` is reordered in place. k is clamped to 0 … length − 1; an empty array gives undefined.
 */
export function orderStatistic(values: Float64Array, k: number): { kth: number; last: number } | undefined {
  const length = values.length;
  if (length === 0) return undefined;
  const at = Math.max(0, Math.min(length - 1, Math.floor(k)));
  // NaNs sort last: move them to the end and select among the rest.
  let end = length;
  for (let i = 0; i < end; i++) {
    if (Number.isNaN(values[i])) {
      end--;
      values[i] = values[end];
      values[end] = NaN;
      i--;
    }
  }
  let last = -Infinity;
  for (let i = 0; i < end; i++) if (values[i] > last || (values[i] === 0 && last === 0 && !Object.is(values[i], -0))) last = values[i];
  if (end < length) last = NaN;
  if (at >= end) return { kth: NaN, last };
  const kth = select(values, at, end);
  if (kth !== 0) return { kth, last };
  // Zeros: the sort puts every −0 before every +0, which the comparisons of the selection do not see.
  let below = 0, negativeZeros = 0;
  for (let i = 0; i < end; i++) {
    if (values[i] < 0) below++;
    else if (Object.is(values[i], -0)) negativeZeros++;
  }
  return { kth: at < below + negativeZeros ? -0 : 0, last };
}

/** Hoare's selection with a median-of-three pivot on values[0 … end): the value that belongs at `k`. */
function select(values: Float64Array, k: number, end: number): number {
  let lo = 0, hi = end - 1;
  let rounds = 0;
  while (hi > lo) {
    // A pathological input that keeps splitting badly: sort what is left (never on ordinary data).
    if (++rounds > 64) {
      const rest = values.subarray(lo, hi + 1).sort();
      return rest[k - lo];
    }
    const mid = (lo + hi) >>> 1;
    const a = values[lo], b = values[mid], c = values[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    let i = lo, j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k];
  }
  return values[k];
}
