// Reading a model's attention for the model views: one streaming pass (statistics, thumbnails,
// row checks) with one head in memory at a time, and a head or the rollout on request.
import type { AttentionFile } from '../tensors/attention-file.js';
import { earlierCopies, headStats, type HeadStats } from '../tensors/head-stats.js';
import { inspectOverLimit } from '../tensors/inspect.js';
import { MAX_ROLLOUT_TOKENS, Rollout } from '../tensors/rollout.js';
import { TensorFileError } from '../tensors/source.js';
import { softmaxRows, THUMB, type ModelHeader, type ScanOptions } from './data.js';

function rowTolerance(dtype: string): number {
  return dtype === 'F16' || dtype === 'BF16' ? 1e-2 : 1e-4;
}

/**
 * Reads one head, checks every value is finite (an error naming the place), applies the softmax if
 * asked. `check: false` leaves the check to a caller that loops over the values anyway (scanModel).
 */
export function readHead(a: AttentionFile, layer: number, head: number, options: ScanOptions, out?: Float64Array, check = true): Float64Array {
  const w = a.head(layer, head, out);
  if (check || options.softmax) {
    for (let k = 0; k < w.length; k++) {
      if (!Number.isFinite(w[k]) && !(options.softmax && w[k] === -Infinity)) throw notFinite(a, layer, head, k, w[k]);
    }
  }
  if (options.softmax) softmaxRows(w, a.n);
  return w;
}

function notFinite(a: AttentionFile, layer: number, head: number, k: number, w: number): TensorFileError {
  return new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${Math.floor(k / a.n)} on key ${k % a.n} is ${w}`);
}

/** One head as float32, for posting to the webview. */
/** One float64 head per open file, reused between head switches (128 MiB at n = 4,096: not allocated anew each time). */
const scratch = new WeakMap<AttentionFile, Float64Array>();

export function headFloat32(a: AttentionFile, layer: number, head: number, options: ScanOptions = {}): Float32Array {
  let buffer = scratch.get(a);
  if (!buffer) { buffer = new Float64Array(a.n * a.n); scratch.set(a, buffer); }
  const weights = new Float32Array(a.n * a.n);
  // set() converts in native code (Float32Array.from over a Float64Array is several times slower).
  weights.set(readHead(a, layer, head, options, buffer));
  return weights;
}

/** The one pass: statistics, thumbnails and the row checks of every head. Refused over inspect's budget. */
export function scanModel(a: AttentionFile, options: ScanOptions = {}): { header: ModelHeader; thumbnails: Float32Array } {
  const tooBig = inspectOverLimit(a);
  if (tooBig) throw new TensorFileError(tooBig);
  const { n } = a;
  const thumb = Math.min(n, THUMB);
  const thumbnails = new Float32Array(a.layers * a.heads * thumb * thumb);
  const copies = earlierCopies(a.tokens, n);
  const stats: HeadStats[] = [];
  const weights = new Float64Array(n * n);
  const tolerance = rowTolerance(a.dtype);
  let offRows = 0, firstOff = '', negatives = 0;
  // One loop over each head's values does the finite check, the row sums and the max-pooling.
  const bin = new Int32Array(n);
  for (let i = 0; i < n; i++) bin[i] = Math.floor((i * thumb) / n);
  for (let layer = 0; layer < a.layers; layer++) {
    for (let head = 0; head < a.heads; head++) {
      readHead(a, layer, head, options, weights, false);
      const offset = (layer * a.heads + head) * thumb * thumb;
      for (let i = 0; i < n; i++) {
        let sum = 0;
        const row = i * n, pooled = offset + bin[i] * thumb;
        for (let j = 0; j < n; j++) {
          const w = weights[row + j];
          if (!(w >= 0)) {
            if (!Number.isFinite(w)) throw notFinite(a, layer, head, row + j, w);
            negatives++;
          }
          sum += w;
          const k = pooled + bin[j];
          if (w > thumbnails[k]) thumbnails[k] = w;
        }
        if (Math.abs(sum - 1) > tolerance && offRows++ === 0) firstOff = `layer ${layer} head ${head} query ${i} sums to ${sum}`;
      }
      stats.push(headStats(layer, head, weights, n, copies));
    }
  }
  const warnings: string[] = [];
  if (offRows > 0) warnings.push(`${offRows} row(s) do not sum to 1 (first: ${firstOff}); were scores saved before the softmax?`);
  if (negatives > 0) warnings.push(`${negatives} negative weight(s); attention weights are ≥ 0`);
  return {
    header: {
      file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: n,
      tokenTexts: a.tokens ?? [], stats, thumb, offRows, softmaxed: !!options.softmax, warnings,
    },
    thumbnails,
  };
}

/** The rollout (Abnar & Zuidema 2020) as float32, in a second pass; undefined above MAX_ROLLOUT_TOKENS. */
export function rolloutOf(a: AttentionFile, options: ScanOptions = {}): Float32Array | undefined {
  const { n } = a;
  if (n > MAX_ROLLOUT_TOKENS) return undefined;
  const rollout = new Rollout(n);
  const mean = new Float64Array(n * n);
  const weights = new Float64Array(n * n);
  for (let layer = 0; layer < a.layers; layer++) {
    mean.fill(0);
    for (let head = 0; head < a.heads; head++) {
      readHead(a, layer, head, options, weights);
      for (let k = 0; k < weights.length; k++) mean[k] += weights[k];
    }
    for (let k = 0; k < mean.length; k++) mean[k] /= a.heads;
    rollout.addLayer(mean);
  }
  return Float32Array.from(rollout.result);
}

