// Attention sinks: keys that take a large share of nearly every row that can see them (Xiao et al.
// 2023), most often the first token. Drawn inside the map they would set its colour scale and leave
// the rest dark, so the map leaves them out of its blocks and draws each as a column of its own
// (pyramid.ts). A sink is the first token, or a key taking more than SINK_SHARE of most of the
// sampled rows that see it (weight above 0); at most MAX_SINKS keys. The sample is the same rows
// for every reader of the head, so the bands of a scan, the tiles read later and `attn inspect`'s
// pass agree on them without talking to each other.
import type { AttentionSource } from '../attention-source.js';
import { forEachRow } from '../rows.js';

export const SINK_SHARE = 0.3;
export const MAX_SINKS = 8;
/** Rows sampled (evenly spread) to find the sinks: 64 rows of a 32,768-token head are 0.2 % of it. */
export const SINK_SAMPLE_ROWS = 64;
/** A key must be seen by this many sampled rows to count as a sink (the last keys of a causal head are seen by few). */
export const MIN_SINK_ROWS = 4;

/** The rows sampled of an n-token head: every row up to SINK_SAMPLE_ROWS, else the middles of that many equal parts. */
export function sinkSampleRows(n: number): number[] {
  if (n <= SINK_SAMPLE_ROWS) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: SINK_SAMPLE_ROWS }, (_, k) => Math.floor(((k + 0.5) * n) / SINK_SAMPLE_ROWS));
}

/** Counts, over the rows given, which keys see rows and which take more than SINK_SHARE of them. */
export class SinkVote {
  private readonly seen: Int32Array;
  private readonly heavy = new Map<number, number>();
  constructor(private readonly n: number) { this.seen = new Int32Array(n); }

  addRow(row: Float64Array): void {
    const { seen, n } = this;
    for (let j = 0; j < n; j++) {
      const w = row[j];
      seen[j] += w > 0 ? 1 : 0;
      // At most three weights of a row that sums to 1 are above 0.3: the map stays tiny.
      if (w > SINK_SHARE) this.heavy.set(j, (this.heavy.get(j) ?? 0) + 1);
    }
  }

  /** The sinks, sorted: key 0, then the keys heavy in most rows that see them, the heaviest first (≤ MAX_SINKS in all). */
  result(): number[] {
    const more = [...this.heavy]
      .filter(([j, count]) => j !== 0 && this.seen[j] >= MIN_SINK_ROWS && 2 * count > this.seen[j])
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_SINKS - 1)
      .map(([j]) => j);
    return [0, ...more].sort((a, b) => a - b);
  }
}

/** The sinks of a head, from its sampled rows (`transform`: the softmax a file of scores asks for, and the row checks). */
export function findSinks(a: AttentionSource, layer: number, head: number, transform?: (i: number, row: Float64Array) => void): number[] {
  const vote = new SinkVote(a.n);
  for (const i of sinkSampleRows(a.n)) forEachRow(a, layer, head, (_, row) => vote.addRow(row), { from: i, to: i + 1, terms: false, ...(transform ? { transform } : {}) });
  return vote.result();
}
