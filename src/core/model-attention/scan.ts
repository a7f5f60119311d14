// Reading a model's attention for the model views: one streaming pass (statistics, thumbnails,
// row checks; pass.ts) a block of rows at a time, and a head or the rollout on request.
import type { AttentionSource } from '../tensors/attention-source.js';
import { inspectOverLimit } from '../tensors/inspect.js';
import { binStarts, passOverHeads, passShape, passWarnings, poolRow, type PassResult, type PassShape } from '../tensors/pass.js';
import { passOverBand, type BandResult } from '../tensors/band.js';
import { pyramidBase } from '../tensors/map/pyramid.js';
import { sinksOf } from './tiles.js';
import { forEachBlock, forEachRow, rowToFloat32 } from '../tensors/rows.js';
import { softmaxInto } from '../attention/softmax.js';
import { decode, float16 } from '../tensors/dtype.js';
import { Rollout, rolloutRefusal } from '../tensors/rollout.js';
import { TensorFileError } from '../tensors/source.js';
import { heatmapIndices } from '../tensors/heatmap.js';
import { overBudget, THUMBNAILS, thumbnailSide } from '../budget.js';
import { MAX_WINDOW_CELLS, SENT_PICTURE_MAX, THUMB, WHOLE_HEAD_MAX, type ModelHeader, type ScanOptions } from './data.js';

/** Checks a row read to show it: every weight finite (−Infinity too before a softmax); then the softmax if asked. */
function checkedRow(a: AttentionSource, layer: number, head: number, options: ScanOptions): (i: number, row: Float64Array) => void {
  return (i, row) => {
    for (let j = 0; j < row.length; j++) {
      if (!Number.isFinite(row[j]) && !(options.softmax && row[j] === -Infinity)) {
        throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j} is ${row[j]}`);
      }
    }
    // A row of −Infinity becomes all zero (NaN and +Infinity were refused above).
    if (options.softmax) softmaxInto(row, 0, row.length, row, 0);
  };
}

/**
 * Most weights of a head read whole (4,096²: 128 MiB as float64, the largest head files held before
 * they went to 32,768 tokens). Past it a head is drawn as a map (tiles.ts) or a picture, and a whole
 * read is refused in one sentence before anything is allocated (a 32,768² head is 4 GiB of float32).
 */
export const MAX_WHOLE_HEAD_CELLS = 4096 * 4096;

function refuseWhole(a: AttentionSource): void {
  if (a.n * a.n > MAX_WHOLE_HEAD_CELLS) throw new TensorFileError(`${a.file}: a head of ${a.n.toLocaleString('en-US')} tokens is not read whole (${(a.n * a.n).toLocaleString('en-US')} weights, over the ${MAX_WHOLE_HEAD_CELLS.toLocaleString('en-US')} a whole head may have): the model editor draws it as a map of tiles`);
}

/** One head's n × n, checked (an error naming the place of a NaN or ±Infinity), softmaxed if asked. */
export function readHead(a: AttentionSource, layer: number, head: number, options: ScanOptions = {}, out?: Float64Array): Float64Array {
  refuseWhole(a);
  out ??= new Float64Array(a.n * a.n);
  forEachRow(a, layer, head, (i, row) => out!.set(row, i * a.n), { transform: checkedRow(a, layer, head, options), terms: false });
  return out;
}

/** One head as float32, for posting to the webview: decoded a row at a time, never a float64 copy of the head. */
export function headFloat32(a: AttentionSource, layer: number, head: number, options: ScanOptions = {}): Float32Array {
  refuseWhole(a);
  const weights = new Float32Array(a.n * a.n);
  forEachRow(a, layer, head, (i, row) => rowToFloat32(row, 0, a.n, weights, i * a.n), { transform: checkedRow(a, layer, head, options), terms: false });
  return weights;
}

/**
 * A big head's picture for the editor's head view: max-pooled to res × res (res = min(n,
 * SENT_PICTURE_MAX)) and turned into colour indices of its strongest weight, read a block of rows
 * at a time (no n × n copy). Checked and softmaxed as readHead is.
 */
export function headPicture(a: AttentionSource, layer: number, head: number, options: ScanOptions = {}): { res: number; indices: Uint8Array; max: number } {
  const { n } = a;
  const res = Math.min(n, SENT_PICTURE_MAX);
  const starts = binStarts(n, res);
  const pooled = halfCodes(a, options) ? poolCodes(a, layer, head, res, starts) : poolRows(a, layer, head, res, starts, options);
  let max = 0;
  for (let k = 0; k < pooled.length; k++) if (pooled[k] > max) max = pooled[k];
  return { res, indices: heatmapIndices(pooled, 0, res, res, res, max), max };
}

/** Max-pooling decoded rows (any dtype, the softmax, either byte order). */
function poolRows(a: AttentionSource, layer: number, head: number, res: number, starts: Int32Array, options: ScanOptions): Float32Array {
  const pooled = new Float32Array(res * res);
  forEachRow(a, layer, head, (i, row) => poolRow(row, pooled, Math.floor((i * res) / a.n) * res, res, starts), { transform: checkedRow(a, layer, head, options), terms: false });
  return pooled;
}

/** Whether a head's 16-bit codes can be pooled as integers (F16/BF16 as stored, on a little-endian machine). */
function halfCodes(a: AttentionSource, options: ScanOptions): boolean {
  return (a.dtype === 'F16' || a.dtype === 'BF16') && !options.softmax && new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

/**
 * Max-pooling F16/BF16 codes without decoding them: for weights ≥ 0 the order of the codes is the
 * order of the values, so the largest code of a block is its largest weight (negative weights, sign
 * bit set, count as 0, the picture's floor). A code with every exponent bit set is ±Infinity or NaN:
 * refused with its place, as readHead does. A comparison per weight instead of a decode.
 */
function poolCodes(a: AttentionSource, layer: number, head: number, res: number, starts: Int32Array): Float32Array {
  const { n } = a;
  const exponent = a.dtype === 'F16' ? 0x7c00 : 0x7f80;
  const best = new Uint16Array(res * res);
  forEachBlock(a, layer, head, 0, n, (first, rows, bytes) => {
    const codes = new Uint16Array(bytes.buffer, bytes.byteOffset, rows * n);
    for (let r = 0; r < rows; r++) {
      const i = first + r, row = r * n, at = Math.floor((i * res) / n) * res;
      for (let b = 0; b < res; b++) {
        let m = best[at + b];
        for (let j = starts[b]; j < starts[b + 1]; j++) {
          const c = codes[row + j];
          if (c > m) {
            // Finite weights ≥ 0 are the codes below the exponent mask; the rest are rare: ±Infinity
            // or NaN (refused with the place) or negative (never the maximum: the picture's floor is 0).
            if (c >= exponent) {
              if ((c & exponent) === exponent) throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j} is ${decodeOne(a, c)}`);
              continue;
            }
            m = c;
          }
        }
        best[at + b] = m;
      }
    }
  });
  const pooled = new Float32Array(res * res);
  for (let k = 0; k < best.length; k++) pooled[k] = decodeOne(a, best[k]);
  return pooled;
}

/** One F16 or BF16 code's value (a BF16 is the top half of a float32). */
function decodeOne(a: AttentionSource, code: number): number {
  return a.dtype === 'F16' ? float16(code) : new Float32Array(new Uint32Array([code << 16]).buffer)[0];
}

/** Exact weights of rows i0 … i0 + rows − 1 by keys j0 … j0 + cols − 1 (at most MAX_WINDOW_CELLS), float32. */
export function headWindow(a: AttentionSource, layer: number, head: number, i0: number, rows: number, j0: number, cols: number, options: ScanOptions = {}): Float32Array {
  const { n } = a;
  const whole = (x: number) => Number.isInteger(x) && x >= 0;
  if (!(whole(i0) && whole(j0) && whole(rows) && whole(cols) && i0 + rows <= n && j0 + cols <= n && rows * cols <= MAX_WINDOW_CELLS)) {
    throw new RangeError(`a window of ${rows} × ${cols} at ${i0}, ${j0} is not within ${n} × ${n} and ${MAX_WINDOW_CELLS} cells`);
  }
  const out = new Float32Array(rows * cols);
  // A source that reads a range of keys alone (a file at its offsets, a run from its q and k) reads
  // just the window; a file of scores needs each whole row for its softmax.
  if (a.columnBytes && !options.softmax && rows > 0 && cols > 0) {
    const values = new Float64Array(rows * cols);
    decode(a.dtype, a.columnBytes(layer, head, i0, rows, j0, cols), rows * cols, values);
    for (let k = 0; k < values.length; k++) {
      if (!Number.isFinite(values[k])) throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i0 + Math.floor(k / cols)} on key ${j0 + (k % cols)} is ${values[k]}`);
      out[k] = values[k];
    }
    return out;
  }
  forEachRow(a, layer, head, (i, row) => rowToFloat32(row, j0, cols, out, (i - i0) * cols), { transform: checkedRow(a, layer, head, options), terms: false, from: i0, to: i0 + rows });
  return out;
}

/** What a model file is, from its header alone (no weight read): the shape of what the pass fills in. */
/**
 * `notes`: what the reader said of the file (layers renumbered), shown first among the warnings;
 * `inflated`: bytes the reader inflated into its memory (deflated .npz members), which every other
 * reader of the file would inflate again.
 */
export type ModelShape = Pick<ModelHeader, 'file' | 'dtype' | 'layers' | 'heads' | 'tokens' | 'tokenTexts' | 'thumb' | 'layerNumbers'> & { notes?: string[]; inflated?: number };

/**
 * The side of a file's thumbnails: min(n, 64), halved while all of them are over the THUMBNAILS
 * budget (src/core/budget.ts; 16,384 heads at 64² were 268 MB), and the sentence that says so.
 */
export function thumbOf(a: Pick<AttentionSource, 'layers' | 'heads' | 'n'>): { thumb: number; note?: string } {
  const full = Math.min(a.n, THUMB), thumb = thumbnailSide(a.layers, a.heads, full);
  const note = overBudget(THUMBNAILS, a.layers * a.heads * full * full, `${a.layers} layers × ${a.heads} heads at ${full}×${full}`, `they are drawn at ${thumb}×${thumb}`);
  return note ? { thumb, note } : { thumb };
}

/** The shape of an opened file; refused (a TensorFileError) when the pass would be over inspect's budget. */
export function shapeOf(a: AttentionSource): ModelShape {
  const tooBig = inspectOverLimit(a);
  if (tooBig) throw new TensorFileError(tooBig);
  const { thumb, note } = thumbOf(a);
  const notes = [...(a.notes ?? []), ...(note ? [note] : [])];
  return {
    file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: a.n, tokenTexts: a.tokens ?? [], thumb,
    ...(a.layerNumbers ? { layerNumbers: a.layerNumbers } : {}), ...(notes.length ? { notes } : {}), ...(a.inflated ? { inflated: a.inflated } : {}),
  };
}

/** The header the model views draw from, for the heads a pass has read so far (all, once it is done). */
export function headerOf(shape: ModelShape, pass: PassResult, options: ScanOptions): ModelHeader {
  const { notes, inflated: _inflated, ...header } = shape;
  // Norms are no distributions: a row summing to anything but 1 is no sign of scores saved, and a row
  // of zeros is a head whose values write nothing (a query masked out is all zero in the weights too).
  const checked = options.norms ? { ...pass, offRows: 0, zeroRows: 0 } : pass;
  return {
    ...header, stats: pass.stats, offRows: checked.offRows, softmaxed: !!options.softmax, warnings: [...(notes ?? []), ...passWarnings(checked)],
    ...(options.norms ? { norms: true } : {}),
  };
}

/** Most bytes of head pictures the editor keeps from its scan (a head switch then reads nothing). */
export const MAX_KEPT_PICTURE_BYTES = 64 * 1024 * 1024;

/**
 * The side of the pictures the scan keeps for the head view: heads sent as pictures (more than
 * WHOLE_HEAD_MAX tokens), when all of them fit MAX_KEPT_PICTURE_BYTES; else 0 (read on request).
 */
export function keptPictureSide(shape: Pick<ModelShape, 'layers' | 'heads' | 'tokens'>): number {
  if (shape.tokens <= WHOLE_HEAD_MAX) return 0;
  const res = Math.min(shape.tokens, SENT_PICTURE_MAX);
  return shape.layers * shape.heads * res * res <= MAX_KEPT_PICTURE_BYTES ? res : 0;
}

/**
 * What a scan of a file of this shape makes of each head: its thumbnail, its picture when kept, and
 * for a big head (more than WHOLE_HEAD_MAX tokens) its map, with the pyramid from the deepest level
 * whose pyramids of every head fit their budget (tensors/pyramid.ts). The same for a worker's pass
 * and for the host putting a head's bands together.
 */
export function scanPassShape(shape: Pick<ModelShape, 'file' | 'dtype' | 'layers' | 'heads' | 'tokens' | 'tokenTexts' | 'thumb'>, options: ScanOptions = {}): PassShape {
  const picture = keptPictureSide(shape);
  const n = shape.tokens;
  const map = n > WHOLE_HEAD_MAX ? { map: { ...withBase(pyramidBase(shape.layers * shape.heads, n)) } } : {};
  const source = { file: shape.file, dtype: shape.dtype as PassShape['dtype'], n, ...(shape.tokenTexts.length ? { tokens: shape.tokenTexts } : {}) };
  return passShape(source, { softmax: !!options.softmax, thumb: shape.thumb, ...(picture ? { picture } : {}), ...map });
}

const withBase = (base: number | undefined) => (base === undefined ? {} : { base });

const shapeOfSource = (a: AttentionSource) => ({ file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: a.n, tokenTexts: a.tokens ?? [], thumb: thumbOf(a).thumb });

/** The pass over heads from … to − 1 with this file's thumbnails and, when kept, pictures and maps (a worker's share of the scan). */
export function passOverRange(a: AttentionSource, from: number, to: number, options: ScanOptions = {}): PassResult {
  const shape = scanPassShape(shapeOfSource(a), options);
  return passOverHeads(a, { softmax: options.softmax, thumb: shape.side, from, to, ...(shape.res ? { picture: shape.res } : {}), ...(shape.map ? { map: shape.map } : {}) });
}

/** Rows first … first + rows − 1 of one big head (a worker's share of its scan; tensors/band.ts). */
export function bandOverRows(a: AttentionSource, layer: number, head: number, first: number, rows: number, options: ScanOptions = {}): BandResult {
  const shape = scanPassShape(shapeOfSource(a), options);
  return passOverBand(a, shape, layer, head, first, rows, shape.map ? sinksOf(a, layer, head, options) : []);
}

/** The one pass in one thread: statistics, thumbnails and the row checks of every head (pass.ts). Refused over inspect's budget. */
export function scanModel(a: AttentionSource, options: ScanOptions = {}): { header: ModelHeader; thumbnails: Float32Array } {
  const shape = shapeOf(a);
  // Only the header and thumbnails are asked for: no pictures, no maps (a 32,768-token head's pyramid is 179 MB).
  const pass = passOverHeads(a, { softmax: options.softmax, thumb: shape.thumb });
  return { header: headerOf(shape, pass, options), thumbnails: pass.thumbnails };
}

/** The rollout (Abnar & Zuidema 2020) as float32, in a second pass; undefined when rolloutRefusal says why not. */
export function rolloutOf(a: AttentionSource, options: ScanOptions = {}): Float32Array | undefined {
  const { n } = a;
  if (rolloutRefusal(a.layers, n) !== undefined) return undefined;
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
