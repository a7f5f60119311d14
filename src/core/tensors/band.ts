// A big head read in bands of rows by several workers at once, so that a file of one 32,768-token
// head (a billion weights) is read by every core and its map fills in band by band. A band hands
// back each row's terms of the statistics (HeadStatsSum.rowTerms) rather than its sums: the host adds
// them in row order (HeadBands), so the statistics are the very bits one pass over the head gives
// (and `attn inspect`'s). Thumbnail and picture are max-pooled (the same whatever the order), the
// map's pyramid comes in whole block rows (bands start at multiples of the coarsest block's height).
import type { AttentionSource } from './attention-source.js';
import { earlierCopies, HeadStatsSum, ROW_TERMS, type HeadStats } from './head-stats.js';
import { binStarts, checkedStats, checkRowSum, pictureOf, poolRow, type PassResult, type PassShape } from './pass.js';
import { forEachRow, rowScratch } from './rows.js';
import { softmaxInto } from '../attention/softmax.js';
import { MapAssembly, MapBuilder, mapLevels, type MapPart } from './map/pyramid.js';
import { TensorFileError } from './source.js';

/** Rows of a max-pooled picture (thumbnail or head picture) that a band touched: r0 … r0 + rows − 1, side wide. */
export interface PooledRows { r0: number; rows: number; max: Float32Array }

export interface BandResult {
  layer: number; head: number; first: number; rows: number;
  /** rows × ROW_TERMS: each row's part of the statistics. */
  terms: Float64Array;
  thumb: PooledRows;
  picture?: PooledRows;
  map?: MapPart;
  offRows: number; firstOff: string; zeroRows: number; firstZero: string;
  negatives: number; firstNegative: string;
}

/**
 * The bands of an n-token head: about `weights` weights each, whole block rows of its map's
 * coarsest level, in order.
 */
export function headBands(n: number, weights: number): [number, number][] {
  const height = 2 ** (mapLevels(n) - 1);
  const rows = Math.max(height, Math.floor(weights / n / height) * height);
  const bands: [number, number][] = [];
  for (let first = 0; first < n; first += rows) bands.push([first, Math.min(rows, n - first)]);
  return bands;
}

/** The picture rows that queries first … first + rows − 1 fall in (floor(i · side / n)). */
function pooledRows(n: number, side: number, first: number, rows: number): PooledRows {
  if (side === 0) return { r0: 0, rows: 0, max: new Float32Array(0) };
  const r0 = Math.floor((first * side) / n), r1 = Math.floor(((first + rows - 1) * side) / n) + 1;
  return { r0, rows: r1 - r0, max: new Float32Array((r1 - r0) * side) };
}

/**
 * Rows first … first + rows − 1 of one head: the same checks as a whole head's pass (NaN or
 * ±Infinity stop with the place), and what the host needs to make the head's statistics, thumbnail,
 * picture and map once every band is in. `sinks`: the head's (findSinks), the same for every band.
 */
export function passOverBand(a: AttentionSource, shape: PassShape, layer: number, head: number, first: number, rows: number, sinks: readonly number[]): BandResult {
  const { n, side, res } = shape;
  const copies = earlierCopies(a.tokens, n);
  const sums = new HeadStatsSum(n, copies);
  const terms = new Float64Array(rows * ROW_TERMS);
  const thumb = pooledRows(n, side, first, rows), picture = res > 0 ? pooledRows(n, res, first, rows) : undefined;
  const thumbStarts = binStarts(n, side), pictureStarts = binStarts(n, res);
  // As HeadPass does: when the picture's pixels tile the thumbnail's, the thumbnail is pooled from
  // the band's picture rows (max of maxima: the same numbers), not from every weight again.
  const thumbFromPicture = !!picture && side > 0 && res < n && res % side === 0;
  const map = shape.map ? new MapBuilder(n, sinks, shape.map.base, first, rows) : undefined;
  const counts = { offRows: 0, firstOff: '', zeroRows: 0, firstZero: '' };
  const transform = shape.softmax ? (i: number, row: Float64Array) => {
    for (let j = 0; j < n; j++) if (!Number.isFinite(row[j]) && row[j] !== -Infinity) throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j} is ${row[j]}`);
    softmaxInto(row, 0, n, row, 0);
  } : undefined;
  forEachRow(a, layer, head, (i, row, rowTerms) => {
    const sum = sums.rowTerms(i, row, rowTerms, terms, (i - first) * ROW_TERMS);
    if (sums.notFinite) throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${sums.notFinite.i} on key ${sums.notFinite.j} is ${sums.notFinite.w}`);
    checkRowSum(shape, counts, layer, head, i, row, sum);
    if (side > 0 && !thumbFromPicture) poolRow(row, thumb.max, (Math.floor((i * side) / n) - thumb.r0) * side, side, thumbStarts);
    if (picture) poolRow(row, picture.max, (Math.floor((i * res) / n) - picture.r0) * res, res, pictureStarts);
    map?.addRow(i, row);
  }, { scratch: rowScratch(n), from: first, to: first + rows, ...(transform ? { transform } : {}) });
  if (thumbFromPicture) {
    for (let y = picture!.r0; y < picture!.r0 + picture!.rows; y++) {
      const at = (Math.floor((y * side) / res) - thumb.r0) * side;
      for (let x = 0; x < res; x++) {
        const k = at + Math.floor((x * side) / res), v = picture!.max[(y - picture!.r0) * res + x];
        if (v > thumb.max[k]) thumb.max[k] = v;
      }
    }
  }
  const neg = sums.firstNegative;
  return {
    layer, head, first, rows, terms, thumb, ...(picture ? { picture } : {}), ...(map ? { map: map.result() } : {}),
    ...counts, negatives: sums.negatives, firstNegative: neg ? `layer ${layer} head ${head} query ${neg.i} key ${neg.j} (${neg.w})` : '',
  };
}

/** Merges max-pooled rows into a side-wide picture. */
function poolInto(to: Float32Array, part: PooledRows, side: number, offset = 0): void {
  const at = offset + part.r0 * side;
  for (let k = 0; k < part.max.length; k++) if (part.max[k] > to[at + k]) to[at + k] = part.max[k];
}

/**
 * One head's bands as they arrive (any order, from any worker): `add` returns true once every row is
 * in; `finish` then gives the pass over the head, as HeadPass would have made it. The map's pyramid
 * is readable (`map`) while it fills in.
 */
export class HeadBands {
  private readonly bands: BandResult[] = [];
  private rowsIn = 0;
  private readonly thumbnail: Float32Array;
  private readonly pooled: Float32Array;
  /** The map so far (made with the first band's sinks, which every band shares). */
  map: MapAssembly | undefined;

  constructor(private readonly shape: PassShape, readonly layer: number, readonly head: number) {
    this.thumbnail = new Float32Array(shape.side * shape.side);
    this.pooled = new Float32Array(shape.res * shape.res);
  }

  get complete(): boolean { return this.rowsIn === this.shape.n; }

  add(band: BandResult): boolean {
    if (band.layer !== this.layer || band.head !== this.head || this.bands.some((b) => b.first === band.first) || this.rowsIn + band.rows > this.shape.n) throw new RangeError(`a band from row ${band.first} of layer ${band.layer} head ${band.head} does not fit`);
    // Only what finish() adds up is kept: the pooled rows and the pyramid are merged now.
    const { layer, head, first, rows, terms, offRows, firstOff, zeroRows, firstZero, negatives, firstNegative } = band;
    this.bands.push({ layer, head, first, rows, terms, offRows, firstOff, zeroRows, firstZero, negatives, firstNegative, thumb: { r0: 0, rows: 0, max: new Float32Array(0) } });
    this.rowsIn += band.rows;
    poolInto(this.thumbnail, band.thumb, this.shape.side);
    if (band.picture) poolInto(this.pooled, band.picture, this.shape.res);
    if (band.map) (this.map ??= new MapAssembly(this.shape.n, band.map.sinks, this.shape.map?.base)).add(band.map);
    return this.complete;
  }

  /** The head's pass (one head: its stats, thumbnail, picture and map), once every band is in. */
  finish(): PassResult {
    if (!this.complete) throw new RangeError(`layer ${this.layer} head ${this.head}: ${this.rowsIn} of ${this.shape.n} rows were passed`);
    const { shape, layer, head } = this;
    const bands = [...this.bands].sort((a, b) => a.first - b.first);
    const sums = new HeadStatsSum(shape.n, earlierCopies(shape.tokens, shape.n));
    const out: PassResult = { stats: [], thumbnails: this.thumbnail, offRows: 0, firstOff: '', zeroRows: 0, firstZero: '', negatives: 0, firstNegative: '' };
    for (const b of bands) {
      for (let r = 0; r < b.rows; r++) sums.addTerms(b.first + r, b.terms, r * ROW_TERMS);
      if (out.offRows === 0) out.firstOff = b.firstOff;
      if (out.zeroRows === 0) out.firstZero = b.firstZero;
      if (out.negatives === 0) out.firstNegative = b.firstNegative;
      out.offRows += b.offRows; out.zeroRows += b.zeroRows; out.negatives += b.negatives;
    }
    const stats: HeadStats = checkedStats(shape, sums.result(layer, head));
    out.stats.push(stats);
    if (shape.res > 0) out.pictures = [pictureOf(this.pooled, shape.res)];
    if (this.map) out.maps = [this.map.result()];
    return out;
  }
}
