// The benchmarks' clock: one warm-up run (the JIT), then runs until both a minimum count and a
// minimum time are reached; the median, which a stray slow run (GC, another process) does not move.
export function medianMs(fn: () => void, minMs = 500, minRuns = 3): number {
  fn();
  const times: number[] = [];
  const start = performance.now();
  while (times.length < minRuns || performance.now() - start < minMs) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
