// Reading a model's attention for the model views: one streaming pass (statistics, thumbnails,
// row checks; pass.ts) a block of rows at a time, and a head or the rollout on request.
import type { AttentionFile } from '../tensors/attention-file.js';
import { inspectOverLimit } from '../tensors/inspect.js';
import { passOverHeads, type PassResult } from '../tensors/pass.js';
import { forEachRow, softmaxRow } from '../tensors/rows.js';
import { MAX_ROLLOUT_TOKENS, Rollout } from '../tensors/rollout.js';
import { TensorFileError } from '../tensors/source.js';
import { THUMB, type ModelHeader, type ScanOptions } from './data.js';

/** Checks a row read to show it: every weight finite (−Infinity too before a softmax); then the softmax if asked. */
function checkedRow(a: AttentionFile, layer: number, head: number, options: ScanOptions): (i: number, row: Float64Array) => void {
  return (i, row) => {
    for (let j = 0; j < row.length; j++) {
      if (!Number.isFinite(row[j]) && !(options.softmax && row[j] === -Infinity)) {
        throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j} is ${row[j]}`);
      }
    }
    if (options.softmax) softmaxRow(row);
  };
}

/** One head's n × n, checked (an error naming the place of a NaN or ±Infinity), softmaxed if asked. */
export function readHead(a: AttentionFile, layer: number, head: number, options: ScanOptions = {}, out = new Float64Array(a.n * a.n)): Float64Array {
  forEachRow(a, layer, head, (i, row) => out.set(row, i * a.n), { transform: checkedRow(a, layer, head, options), terms: false });
  return out;
}

/** One head as float32, for posting to the webview: decoded a row at a time, never a float64 copy of the head. */
export function headFloat32(a: AttentionFile, layer: number, head: number, options: ScanOptions = {}): Float32Array {
  const weights = new Float32Array(a.n * a.n);
  // set() converts float64 to float32 in native code.
  forEachRow(a, layer, head, (i, row) => weights.set(row, i * a.n), { transform: checkedRow(a, layer, head, options), terms: false });
  return weights;
}

/** What a model file is, from its header alone (no weight read): the shape of what the pass fills in. */
export type ModelShape = Pick<ModelHeader, 'file' | 'dtype' | 'layers' | 'heads' | 'tokens' | 'tokenTexts' | 'thumb'>;

/** The shape of an opened file; refused (a TensorFileError) when the pass would be over inspect's budget. */
export function shapeOf(a: AttentionFile): ModelShape {
  const tooBig = inspectOverLimit(a);
  if (tooBig) throw new TensorFileError(tooBig);
  return { file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: a.n, tokenTexts: a.tokens ?? [], thumb: Math.min(a.n, THUMB) };
}

/** The header the model views draw from, for the heads a pass has read so far (all, once it is done). */
export function headerOf(shape: ModelShape, pass: PassResult, options: ScanOptions): ModelHeader {
  const warnings: string[] = [];
  if (pass.offRows > 0) warnings.push(`${pass.offRows} row(s) do not sum to 1 (first: ${pass.firstOff}); were scores saved before the softmax?`);
  if (pass.negatives > 0) warnings.push(`${pass.negatives} negative weight(s); attention weights are ≥ 0`);
  return { ...shape, stats: pass.stats, offRows: pass.offRows, softmaxed: !!options.softmax, warnings };
}

/** The pass over heads from … to − 1 with this file's thumbnails (a worker's share of the scan). */
export function passOverRange(a: AttentionFile, from: number, to: number, options: ScanOptions = {}): PassResult {
  return passOverHeads(a, { softmax: options.softmax, thumb: Math.min(a.n, THUMB), from, to });
}

/** The one pass in one thread: statistics, thumbnails and the row checks of every head (pass.ts). Refused over inspect's budget. */
export function scanModel(a: AttentionFile, options: ScanOptions = {}): { header: ModelHeader; thumbnails: Float32Array } {
  const shape = shapeOf(a);
  const pass = passOverRange(a, 0, a.layers * a.heads, options);
  return { header: headerOf(shape, pass, options), thumbnails: pass.thumbnails };
}

/** The rollout (Abnar & Zuidema 2020) as float32, in a second pass; undefined above MAX_ROLLOUT_TOKENS. */
export function rolloutOf(a: AttentionFile, options: ScanOptions = {}): Float32Array | undefined {
  const { n } = a;
  if (n > MAX_ROLLOUT_TOKENS) return undefined;
  const rollout = new Rollout(n);
  const mean = new Float64Array(n * n);
  for (let layer = 0; layer < a.layers; layer++) {
    mean.fill(0);
    for (let head = 0; head < a.heads; head++) {
      forEachRow(a, layer, head, (i, row) => {
        const at = i * n;
        for (let j = 0; j < n; j++) mean[at + j] += row[j];
      }, { transform: checkedRow(a, layer, head, options), terms: false });
    }
    for (let k = 0; k < mean.length; k++) mean[k] /= a.heads;
    rollout.addLayer(mean);
  }
  return Float32Array.from(rollout.result);
}
