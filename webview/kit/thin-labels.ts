// Labels along an axis that cannot all fit side by side (64 token names under 64 arcs, 64 band
// ranges beside a 512-row matrix): rather than overlapping or pushing the picture past the panel's
// edge, every k-th position keeps its label, k the fewest that leaves each label its room, and the
// positions a reader is looking at (the selected token) always keep theirs, their neighbours
// giving way. The positions without a label keep their hover, which names them in full.

/**
 * The positions 0..n-1 that get a label, in order, when positions are `pitch` px apart and a label
 * needs `need` px along the axis: every k-th, plus each of `keep` (the first of two kept positions
 * too close to each other wins), with no two labels nearer than k positions.
 */
export function thinnedLabels(n: number, pitch: number, need: number, keep: readonly number[] = []): number[] {
  if (n <= 0) return [];
  const k = Math.min(labelEvery(pitch, need), n);
  if (k === 1) return Array.from({ length: n }, (_, i) => i);
  const kept: number[] = [];
  for (const c of keep) {
    if (Number.isInteger(c) && c >= 0 && c < n && kept.every((o) => Math.abs(o - c) >= k)) kept.push(c);
  }
  const out = [...kept];
  for (let i = 0; i < n; i += k) if (kept.every((c) => Math.abs(c - i) >= k)) out.push(i);
  return out.sort((a, b) => a - b);
}

/** Every how many positions a label is kept (1: all of them). */
export function labelEvery(pitch: number, need: number): number {
  return pitch > 0 ? Math.max(1, Math.ceil(need / pitch - 1e-9)) : Infinity;
}
