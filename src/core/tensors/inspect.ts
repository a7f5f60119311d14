// `attn inspect`'s answer for an opened attention file: every head's statistics (layer-major) and the
// rollout, in one pass over the file (pass.ts), a block of rows in memory at a time. The values are
// checked as they stream by: NaN or ±Infinity stop with the place; rows that do not sum to 1 (scores
// saved before the softmax?) and negative weights are counted and reported as a warning.
import type { AttentionSource } from './attention-source.js';
import type { HeadStats } from './head-stats.js';
import { passOverHeads, passWarnings } from './pass.js';
import { Rollout, rolloutRefusal } from './rollout.js';

export interface InspectJson {
  file: string;
  dtype: string;
  layers: number;
  heads: number;
  tokens: number;
  tokenTexts: string[];
  /** The file's own number of each layer when it is not its place (layers 0 and 5 of a file: [0, 5]); stats count places. */
  layerNumbers?: number[];
  stats: HeadStats[];
  rollout?: number[][];
}

/** Most weights read in one inspect (12 × 12 × 1,024² is 151 M; 4 × 8 × 4,096² is 537 M). */
export const MAX_INSPECT_VALUES = 2 ** 30;

export interface InspectOutcome {
  json: InspectJson;
  warnings: string[];
}

/** The cost of inspecting, checked before anything is read: a message when it is over the budget. */
export function inspectOverLimit(a: AttentionSource): string | undefined {
  const values = a.layers * a.heads * a.n * a.n;
  return values > MAX_INSPECT_VALUES
    ? `${a.file}: ${a.layers} layers × ${a.heads} heads × ${a.n}² = ${values} weights, more than the ${MAX_INSPECT_VALUES} inspect reads`
    : undefined;
}

export function inspectAttention(a: AttentionSource): InspectOutcome {
  const { n } = a;
  const rollout = rolloutRefusal(a.layers, n) === undefined ? new Rollout(n) : undefined;
  const pass = passOverHeads(a, rollout ? { onLayerMean: (_, mean) => rollout.addLayer(mean) } : {});
  const warnings = [...(a.notes ?? []), ...passWarnings(pass)].map((w) => `${a.file}: warning: ${w}${w.endsWith('softmax?') ? ' Apply softmax over the last axis before saving' : ''}`);
  const json: InspectJson = {
    file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: n,
    tokenTexts: a.tokens ?? [],
    ...(a.layerNumbers ? { layerNumbers: a.layerNumbers } : {}),
    stats: pass.stats,
  };
  if (rollout) {
    const r = rollout.result;
    json.rollout = Array.from({ length: n }, (_, i) => Array.from(r.subarray(i * n, (i + 1) * n)));
  }
  return { json, warnings };
}
