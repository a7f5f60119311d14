// The one pass over every head of a model file that `attn inspect` and the model editor make:
// each head's statistics, the row checks (NaN or ±Infinity stop with the place; rows that do not
// sum to 1 and negative weights are counted for a warning), and on request the max-pooled
// thumbnails and each layer's mean over heads (for the rollout). The file is read a block of rows at
// a time (rows.ts), so memory is a few rows plus what was asked for, and each weight is touched
// by a few loops over a row that sits in the cache.
import type { AttentionSource } from './attention-source.js';
import { earlierCopies, HeadStatsSum, STAT_NAMES, type HeadStats } from './head-stats.js';
import { rowToFloat32, forEachRow, rowScratch } from './rows.js';
import { softmaxInto } from '../attention/softmax.js';
import { TensorFileError } from './source.js';
import { heatmapIndices } from './heatmap.js';
import { MapBuilder, type MapPart } from './map/pyramid.js';
import { findSinks } from './map/sinks.js';

export interface PassOptions {
  /** Apply the softmax to each row as it is read (a file of scores); −Infinity is then allowed. */
  softmax?: boolean;
  /** Side of each head's max-pooled thumbnail (≤ n); none when absent. */
  thumb?: number;
  /** Side of each head's picture for the head view (≤ n), kept as colour indices; none when absent. */
  picture?: number;
  /**
   * Only heads from … to − 1 (flat, layer-major: layer · heads + head), so that several workers can
   * share a file's heads; every head when absent. Passes over consecutive ranges, merged in order
   * (mergePass), give exactly what one pass gives.
   */
  from?: number;
  to?: number;
  /**
   * Each head's map (pyramid.ts): its sinks (found from sampled rows first), the strongest weights
   * outside and at them, and from level `base` up its pyramid (none when base is undefined).
   */
  map?: { base?: number };
  /** Keep each head's column maxima (PassResult.columnMaxes). */
  columnMax?: boolean;
  /** Called with each layer's mean over heads (row-major n × n, the caller may consume it); every head only. */
  onLayerMean?: (layer: number, mean: Float64Array) => void;
  /** Called after each head, in order, with what is done so far (the editor posts it). */
  onHead?: (layer: number, head: number, sofar: PassResult) => void;
}

/** A head's picture: res × res colour indices (0 … 255 of max), max-pooled, and its strongest weight. */
export interface HeadPicture { res: number; indices: Uint8Array; max: number }

export interface PassResult {
  /** One per head read, layer-major. */
  stats: HeadStats[];
  /** The heads' thumbnails of thumb × thumb, in the order of `stats` (empty without `thumb`). */
  thumbnails: Float32Array;
  /** With `picture`: each head's picture (max-pooled, colour indices of its strongest weight), in the order of `stats`. */
  pictures?: HeadPicture[];
  /** With `map`: each head's map part (sinks, maxima, pyramid), in the order of `stats`. */
  maps?: MapPart[];
  /**
   * With `columnMax`: each head's strongest weight on each key over all its queries (n float32, in
   * the order of `stats`): a map's two colour scales for any sink set (tiles.ts mapFromColumns)
   * without a pyramid; 16 MB for 512 heads of 8,192 tokens.
   */
  columnMaxes?: Float32Array[];
  /** Rows whose sum is further from 1 than the dtype's rounding allows, and the first of them (all-zero rows apart). */
  offRows: number;
  firstOff: string;
  /** Rows of zeros only: a query masked out entirely (padding), not scores; and the first of them. */
  zeroRows: number;
  firstZero: string;
  negatives: number;
  firstNegative: string;
}

/**
 * How far a row's sum may be from 1. Rounding each weight of a row that sums to 1 moves the sum by at
 * most 2⁻⁸ in BF16 and 2⁻¹¹ in F16 (relative to the sum), 2⁻²⁴ in F32: 1e-2 and 1e-4 leave room.
 */
function rowTolerance(dtype: string): number {
  return dtype === 'F16' || dtype === 'BF16' ? 1e-2 : 1e-4;
}

/**
 * A row's sum for a sentence: four significant digits ("-6.02", not -6.020170748233795), more only
 * when four would round a sum that is off by more than the tolerance to "1".
 */
export function roundedSum(sum: number): string {
  for (let p = 4; p < 17; p++) {
    const r = Number(sum.toPrecision(p));
    if (r !== 1) return String(r);
  }
  return String(sum);
}

function notFinite(a: Pick<AttentionSource, 'file'>, layer: number, head: number, i: number, j: number, w: number): TensorFileError {
  return new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j} is ${w}`);
}

/** Max-pools one row into its line of a side × side picture (`starts` from binStarts). */
export function poolRow(row: Float64Array, into: Float32Array, at: number, side: number, starts: Int32Array, lo = 0, hi = starts[side]): void {
  // Keys outside lo … hi − 1 hold +0, which never raises a pixel (pixels start at 0): skipped.
  if (hi <= lo) return;
  const n = starts[side], last = Math.floor(((hi - 1) * side) / n);
  for (let b = Math.floor((lo * side) / n); b <= last; b++) {
    let m = into[at + b];
    const to = Math.min(starts[b + 1], hi);
    for (let j = Math.max(starts[b], lo); j < to; j++) if (row[j] > m) m = row[j];
    into[at + b] = m;
  }
}

/** The first key of each thumbnail column: key j falls in column floor(j · side / n). */
export function binStarts(n: number, side: number): Int32Array {
  const starts = new Int32Array(side + 1);
  starts[side] = n;
  for (let j = n - 1; j >= 0; j--) starts[Math.floor((j * side) / n)] = j;
  return starts;
}

function allZero(row: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) if (row[j] !== 0) return false;
  return true;
}

/** What every head of one pass shares: the shape, the options, and the scratch each head reuses. */
export interface PassShape {
  file: string; dtype: AttentionSource['dtype']; n: number; tokens?: string[];
  side: number; res: number; softmax: boolean;
  /** Build each head's map (PassOptions.map). */
  map?: { base?: number };
  /** Keep each head's column maxima (PassOptions.columnMax). */
  columnMax?: boolean;
}

/**
 * The row checks of one row whose sum is `sum` (the statistics' loop made it): a row of zeros or a
 * row off 1 is counted, the first one named. Shared by a head's pass and a band's.
 */
export function checkRowSum(shape: PassShape, counts: Pick<PassResult, 'offRows' | 'firstOff' | 'zeroRows' | 'firstZero'>, layer: number, head: number, i: number, row: Float64Array, sum: number): void {
  if (sum === 0 && allZero(row, shape.n)) {
    if (counts.zeroRows++ === 0) counts.firstZero = `layer ${layer} head ${head} query ${i}`;
  } else if (Math.abs(sum - 1) > rowTolerance(shape.dtype) && counts.offRows++ === 0) counts.firstOff = `layer ${layer} head ${head} query ${i} sums to ${roundedSum(sum)}`;
}

/** A head's statistics, refused when one is not finite (weights near the largest float overflow a sum). */
export function checkedStats(shape: PassShape, stats: HeadStats): HeadStats {
  // One rule with the head and rollout views: no number that is not finite is shown. Finite
  // weights near the largest float (1e308) overflow a sum or a statistic: refused, with where.
  const overflow = STAT_NAMES.find((k) => { const v = stats[k]; return v !== null && !Number.isFinite(v); });
  if (overflow) throw new TensorFileError(`${shape.file}: layer ${stats.layer} head ${stats.head}: its ${overflow} is beyond the largest number (the weights are too large to add up; attention weights are between 0 and 1${shape.softmax ? '' : ': were scores saved? apply the softmax'})`);
  return stats;
}

/** A picture's colour indices from its pooled weights (and the strongest of them). */
export function pictureOf(pooled: Float32Array, res: number): HeadPicture {
  let max = 0;
  for (let k = 0; k < pooled.length; k++) { const v = pooled[k]; max = v > max ? v : max; }
  return { res, indices: heatmapIndices(pooled, 0, res, res, res, max), max };
}

/**
 * One head of a pass, fed its rows in order (from a file's blocks, or from a forward pass as it
 * computes them): the statistics, the row checks, the thumbnail and the picture. `addRow` takes
 * query i's weights (float64) and their entropy terms (rows.ts); `finish` adds the head to `result`.
 * A pass over a file (passOverHeads) and a run that keeps no n × n make the same numbers from the
 * same rows.
 */
export class HeadPass {
  private readonly sums: HeadStatsSum;
  private readonly starts: Int32Array;
  private readonly pictureStarts: Int32Array;
  private readonly pooled: Float32Array;
  private readonly thumbFromPicture: boolean;
  private readonly thumbColumn: Int32Array;
  private map: MapBuilder | undefined;
  private readonly columnMax: Float32Array | undefined;
  private rows = 0;

  /**
   * `thumbnails` and `offset`: where this head's thumb × thumb thumbnail goes (zeroed here).
   * `copies`: earlierCopies of the tokens (shared by the heads of a pass).
   */
  constructor(private readonly shape: PassShape, readonly layer: number, readonly head: number, private readonly result: PassResult, private readonly offset: number, copies: Int32Array) {
    const { n, side, res } = shape;
    this.sums = new HeadStatsSum(n, copies);
    this.starts = binStarts(n, side);
    this.pictureStarts = binStarts(n, res);
    this.pooled = new Float32Array(res * res);
    // A thumbnail pixel's keys (and queries) are whole picture pixels when the picture is the head
    // itself or a multiple of the thumbnail's side (floor(⌊res·j/n⌋ · side/res) = ⌊side·j/n⌋): then the
    // thumbnail is pooled from the picture, once per head, not from every weight a second time.
    // (Only when the picture is smaller than the head: else it is the head, and pooling it costs as much.)
    this.thumbFromPicture = res > 0 && side > 0 && res < n && res % side === 0;
    this.thumbColumn = new Int32Array(this.thumbFromPicture ? res : 0);
    for (let x = 0; x < this.thumbColumn.length; x++) this.thumbColumn[x] = Math.floor((x * side) / res);
    if (shape.map) this.map = new MapBuilder(n, [0], shape.map.base);
    if (shape.columnMax) this.columnMax = new Float32Array(n);
    result.thumbnails.fill(0, offset, offset + side * side);
  }

  /**
   * The head's sinks for its map (sinks.ts), before the first row: the first token alone unless
   * told (a pass over a file finds them from sampled rows; a forward pass may do the same).
   */
  useSinks(sinks: readonly number[]): void {
    if (this.rows > 0) throw new RangeError('the sinks are set before the first row');
    if (this.shape.map) this.map = new MapBuilder(this.shape.n, sinks, this.shape.map.base);
  }

  /** The softmax a file of scores asks for, applied to a row in place (−Infinity allowed, NaN and +Infinity named). */
  softmaxRow(i: number, row: Float64Array): void {
    const { n } = this.shape;
    for (let j = 0; j < n; j++) if (!Number.isFinite(row[j]) && row[j] !== -Infinity) throw notFinite(this.shape, this.layer, this.head, i, j, row[j]);
    softmaxInto(row, 0, n, row, 0);
  }

  /**
   * Query i's row (rows come in order, each once). `lo` … `hi` − 1: the keys the row may hold weight on, when the caller knows the
   * rest are +0 (a causal run's row i: 0 … i); the loops skip the zeros, the result is the same bits.
   */
  addRow(i: number, row: Float64Array, terms: Float64Array, lo = 0, hi = this.shape.n): void {
    const { n, side, res } = this.shape, { sums, result, layer, head } = this;
    const sum = sums.addRow(i, row, terms, lo, hi);
    if (sums.notFinite) throw notFinite(this.shape, layer, head, sums.notFinite.i, sums.notFinite.j, sums.notFinite.w);
    checkRowSum(this.shape, result, layer, head, i, row, sum);
    this.map?.addRow(i, row);
    if (this.columnMax) columnMaxInto(this.columnMax, row, lo, hi);
    // Max-pooling one run of keys at a time: a compare per weight, one store per pixel.
    if (side > 0 && !this.thumbFromPicture) poolRow(row, result.thumbnails, this.offset + Math.floor((i * side) / n) * side, side, this.starts, lo, hi);
    // A picture as big as the head is the head: its row as it is.
    if (res === n) rowToFloat32(row, 0, n, this.pooled, i * n);
    else if (res > 0) poolRow(row, this.pooled, Math.floor((i * res) / n) * res, res, this.pictureStarts, lo, hi);
    this.rows++;
  }

  /** Every row is in: the head's statistics, thumbnail and picture join the result. */
  finish(): void {
    const { n, side, res } = this.shape, { sums, result, layer, head, pooled } = this;
    if (this.rows !== n) throw new RangeError(`layer ${layer} head ${head}: ${this.rows} of ${n} rows were passed`);
    result.stats.push(checkedStats(this.shape, sums.result(layer, head)));
    if (this.thumbFromPicture) {
      for (let y = 0; y < res; y++) {
        const at = this.offset + Math.floor((y * side) / res) * side;
        for (let x = 0; x < res; x++) {
          const k = at + this.thumbColumn[x], v = pooled[y * res + x];
          if (v > result.thumbnails[k]) result.thumbnails[k] = v;
        }
      }
    }
    if (res > 0) result.pictures!.push(pictureOf(pooled, res));
    if (this.map) (result.maps ??= []).push(this.map.result());
    if (this.columnMax) (result.columnMaxes ??= []).push(this.columnMax);
    if (sums.negatives > 0) {
      const first = sums.firstNegative!;
      if (result.negatives === 0) result.firstNegative = `layer ${layer} head ${head} query ${first.i} key ${first.j} (${first.w})`;
      result.negatives += sums.negatives;
    }
  }
}

/** Raises each key's column maximum to the row's weight on it (keys lo … hi − 1; the rest are +0, which raise nothing). */
export function columnMaxInto(columnMax: Float32Array, row: Float64Array, lo: number, hi: number): void {
  // A run's weights are float32 widened: stored back, each is the same number (a float64 file's is rounded).
  for (let j = lo; j < hi; j++) if (row[j] > columnMax[j]) columnMax[j] = row[j];
}

/** An empty result for `heads` heads of thumb × thumb thumbnails (and pictures when `picture`). */
export function emptyPass(heads: number, thumb: number, picture = 0): PassResult {
  return { stats: [], thumbnails: new Float32Array(heads * thumb * thumb), offRows: 0, firstOff: '', zeroRows: 0, firstZero: '', negatives: 0, firstNegative: '', ...(picture > 0 ? { pictures: [] } : {}) };
}

/** What the HeadPasses of one pass over `a` share (a forward pass that computes rows itself makes one too). */
export function passShape(a: Pick<AttentionSource, 'file' | 'dtype' | 'n' | 'tokens'>, options: Pick<PassOptions, 'thumb' | 'picture' | 'softmax' | 'map' | 'columnMax'>): PassShape {
  return { file: a.file, dtype: a.dtype, n: a.n, ...(a.tokens ? { tokens: a.tokens } : {}), side: options.thumb ?? 0, res: options.picture ?? 0, softmax: !!options.softmax, ...(options.map ? { map: options.map } : {}), ...(options.columnMax ? { columnMax: true } : {}) };
}

export function passOverHeads(a: AttentionSource, options: PassOptions = {}): PassResult {
  const { n } = a;
  const total = a.layers * a.heads;
  const from = options.from ?? 0, to = options.to ?? total;
  if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= total)) throw new RangeError(`heads ${from} … ${to} are outside the file's ${total}`);
  if (options.onLayerMean && (from !== 0 || to !== total)) throw new RangeError('a layer mean needs every head');
  const shape = passShape(a, options);
  const copies = earlierCopies(a.tokens, n);
  const mean = options.onLayerMean ? new Float64Array(n * n) : undefined;
  const scratch = rowScratch(n);
  const result = emptyPass(to - from, shape.side, shape.res);
  for (let flat = from; flat < to; flat++) {
    const layer = Math.floor(flat / a.heads), head = flat % a.heads;
    if (head === 0) mean?.fill(0);
    const pass = new HeadPass(shape, layer, head, result, (flat - from) * shape.side * shape.side, copies);
    if (shape.map) pass.useSinks(findSinks(a, layer, head, options.softmax ? (i, row) => pass.softmaxRow(i, row) : undefined));
    forEachRow(a, layer, head, (i, row, terms) => {
      pass.addRow(i, row, terms);
      if (mean) {
        const at = i * n;
        for (let j = 0; j < n; j++) mean[at + j] += row[j];
      }
    }, { scratch, ...(options.softmax ? { transform: (i: number, row: Float64Array) => pass.softmaxRow(i, row) } : {}) });
    pass.finish();
    options.onHead?.(layer, head, result);
    if (mean && head === a.heads - 1) {
      for (let k = 0; k < mean.length; k++) mean[k] /= a.heads;
      options.onLayerMean!(layer, mean);
    }
  }
  return result;
}

/** What a pass saw that is not wrong enough to refuse the file: rows off 1, negative weights (sentences, no file name). */
export function passWarnings(pass: PassResult): string[] {
  const warnings: string[] = [];
  // A row of zeros is a query masked out entirely (padding, or a fully masked row): no softmax makes zeros.
  if (pass.zeroRows > 0) warnings.push(`${pass.zeroRows} query row(s) are all zero (masked queries? first: ${pass.firstZero})`);
  if (pass.offRows > 0) warnings.push(`${pass.offRows} row(s) do not sum to 1 (first: ${pass.firstOff}); were scores saved before the softmax?`);
  if (pass.negatives > 0) warnings.push(`${pass.negatives} negative weight(s) (first: ${pass.firstNegative}); attention weights are ≥ 0`);
  return warnings;
}

/**
 * Passes over ranges of heads, arriving in any order (several workers), put together in head order:
 * `read` is how many heads from the first are in, and `result()` is what one pass over them gives
 * (the counts summed, the first off row or negative weight the earliest one).
 */
export class PassAccumulator {
  readonly thumbnails: Float32Array;
  readonly stats: HeadStats[] = [];
  /** The heads' pictures, when the passes made them (in head order, as stats). */
  readonly pictures: HeadPicture[] = [];
  /** The heads' maps, when the passes made them (in head order, as stats). */
  readonly maps: MapPart[] = [];
  private readonly parts = new Map<number, PassResult>();
  private offRows = 0; private firstOff = ''; private negatives = 0; private firstNegative = ''; private zeroRows = 0; private firstZero = '';

  constructor(readonly total: number, readonly side: number) {
    this.thumbnails = new Float32Array(total * side * side);
  }

  get read(): number { return this.stats.length; }

  /** The pass over heads from … from + part.stats.length − 1; returns how many heads it made readable in order. */
  add(from: number, part: PassResult): number {
    if (!(Number.isInteger(from) && from >= this.read && from + part.stats.length <= this.total) || this.parts.has(from)) throw new RangeError(`a pass from head ${from} does not fit`);
    this.parts.set(from, part);
    const before = this.read;
    for (let next = this.parts.get(this.read); next; next = this.parts.get(this.read)) {
      this.parts.delete(this.read);
      this.thumbnails.set(next.thumbnails, this.read * this.side * this.side);
      if (this.offRows === 0) this.firstOff = next.firstOff;
      if (this.negatives === 0) this.firstNegative = next.firstNegative;
      if (this.zeroRows === 0) this.firstZero = next.firstZero;
      this.zeroRows += next.zeroRows;
      this.offRows += next.offRows;
      this.negatives += next.negatives;
      for (const s of next.stats) this.stats.push(s);
      for (const p of next.pictures ?? []) this.pictures.push(p);
      for (const p of next.maps ?? []) this.maps.push(p);
      if (next.stats.length === 0) break;
    }
    return this.read - before;
  }

  result(): PassResult {
    return { stats: this.stats, thumbnails: this.thumbnails, offRows: this.offRows, firstOff: this.firstOff, zeroRows: this.zeroRows, firstZero: this.firstZero, negatives: this.negatives, firstNegative: this.firstNegative };
  }
}
