// Largest and smallest of many numbers without `Math.max(...values)`: spreading an array passes
// each value as an argument, and past about 100,000 of them the call overflows the stack.
// Non-finite values are skipped, so one NaN or Infinity cannot spoil a scale or a layout.

/** The largest finite value of f(item), or `fallback` when there is none. */
export function maxOf<T>(items: Iterable<T>, f: (item: T) => number, fallback = 0): number {
  let best = -Infinity;
  for (const item of items) {
    const v = f(item);
    if (v > best && Number.isFinite(v)) best = v;
  }
  return best === -Infinity ? fallback : best;
}

/** The smallest finite value of f(item), or `fallback` when there is none. */
export function minOf<T>(items: Iterable<T>, f: (item: T) => number, fallback = 0): number {
  return -maxOf(items, (item) => -f(item), -fallback);
}

/** [min, max] of the finite numbers, or `fallback` when there is none. */
export function extentOf(values: Iterable<number>, fallback: [number, number] = [0, 0]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo === Infinity ? fallback : [lo, hi];
}
