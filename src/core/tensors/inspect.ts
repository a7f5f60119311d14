// `attn inspect`'s answer for an opened attention file: every head's statistics (layer-major) and the
// rollout, in one pass over the file, one head in memory at a time. The values are checked as they
// stream by: NaN or ±Infinity stop with the place; rows that do not sum to 1 (scores saved before
// the softmax?) and negative weights are counted and reported as a warning.
import type { AttentionFile } from './attention-file.js';
import { earlierCopies, headStats, type HeadStats } from './head-stats.js';
import { MAX_ROLLOUT_TOKENS, Rollout } from './rollout.js';
import { TensorFileError } from './source.js';

export interface InspectJson {
  file: string;
  dtype: string;
  layers: number;
  heads: number;
  tokens: number;
  tokenTexts: string[];
  stats: HeadStats[];
  rollout?: number[][];
}

/** Most weights read in one inspect (12 × 12 × 1,024² is 151 M; 4 × 8 × 4,096² is 537 M). */
export const MAX_INSPECT_VALUES = 2 ** 30;

/**
 * How far a row's sum may be from 1. Rounding each weight of a row that sums to 1 moves the sum by at
 * most 2⁻⁸ in BF16 and 2⁻¹¹ in F16 (relative to the sum), 2⁻²⁴ in F32: 1e-2 and 1e-4 leave room.
 */
function rowTolerance(dtype: string): number {
  return dtype === 'F16' || dtype === 'BF16' ? 1e-2 : 1e-4;
}

export interface InspectOutcome {
  json: InspectJson;
  warnings: string[];
}

/** The cost of inspecting, checked before anything is read: a message when it is over the budget. */
export function inspectOverLimit(a: AttentionFile): string | undefined {
  const values = a.layers * a.heads * a.n * a.n;
  return values > MAX_INSPECT_VALUES
    ? `${a.file}: ${a.layers} layers × ${a.heads} heads × ${a.n}² = ${values} weights, more than the ${MAX_INSPECT_VALUES} inspect reads`
    : undefined;
}

export function inspectAttention(a: AttentionFile): InspectOutcome {
  const { n } = a;
  const copies = earlierCopies(a.tokens, n);
  const stats: HeadStats[] = [];
  const withRollout = n <= MAX_ROLLOUT_TOKENS;
  const rollout = withRollout ? new Rollout(n) : undefined;
  const mean = withRollout ? new Float64Array(n * n) : undefined;
  const weights = new Float64Array(n * n);
  const tolerance = rowTolerance(a.dtype);
  let offRows = 0, firstOff = '', negatives = 0, firstNegative = '';
  for (let layer = 0; layer < a.layers; layer++) {
    mean?.fill(0);
    for (let head = 0; head < a.heads; head++) {
      a.head(layer, head, weights);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let j = 0; j < n; j++) {
          const w = weights[i * n + j];
          if (!Number.isFinite(w)) throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j} is ${w}`);
          if (w < 0 && negatives++ === 0) firstNegative = `layer ${layer} head ${head} query ${i} key ${j} (${w})`;
          sum += w;
        }
        if (Math.abs(sum - 1) > tolerance && offRows++ === 0) firstOff = `layer ${layer} head ${head} query ${i} sums to ${sum}`;
      }
      stats.push(headStats(layer, head, weights, n, copies));
      if (mean) for (let k = 0; k < weights.length; k++) mean[k] += weights[k];
    }
    if (rollout && mean) {
      for (let k = 0; k < mean.length; k++) mean[k] /= a.heads;
      rollout.addLayer(mean);
    }
  }
  const warnings: string[] = [];
  if (offRows > 0) warnings.push(`${a.file}: warning: ${offRows} row(s) do not sum to 1 (first: ${firstOff}); were scores saved before the softmax? Apply softmax over the last axis before saving`);
  if (negatives > 0) warnings.push(`${a.file}: warning: ${negatives} negative weight(s) (first: ${firstNegative}); attention weights are ≥ 0`);
  const json: InspectJson = {
    file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: n,
    tokenTexts: a.tokens ?? [],
    stats,
  };
  if (rollout) {
    const r = rollout.result;
    json.rollout = Array.from({ length: n }, (_, i) => Array.from(r.subarray(i * n, (i + 1) * n)));
  }
  return { json, warnings };
}
