// A big head as a map of tiles (the head view zooms and pans it): at level L a cell is a block of
// 2^L queries × 2^L keys, drawn as its strongest weight (max) or its total (sum); level 0 is the
// head's own weights (the hover's numbers). For a file, the coarse levels come from the pyramid the
// scan kept (tensors/pyramid.ts: nothing is read for them), the deep ones are read from the file for
// the region asked, only its columns where the file can (AttentionSource.columnBytes); a model run
// that kept q and k computes every level from them (qk-tile.ts). The sink keys
// (tensors/sinks.ts) are left out of the blocks (their cells count them as 0) and come as columns
// of their own, pooled over the same row blocks, so the colour scale of the rest is its own.
// A block's max starts at 0 (weights are ≥ 0; a negative weight, already warned of, is drawn as 0).
import type { AttentionSource } from '../tensors/attention-source.js';
import { ITEM_SIZE } from '../tensors/dtype.js';
import { decodeWeights, forEachRow } from '../tensors/rows.js';
import { levelSide, mapLevels, type MapPart } from '../tensors/map/pyramid.js';
import { findSinks, MAX_SINKS } from '../tensors/map/sinks.js';
import { TensorFileError } from '../tensors/source.js';
import { softmaxInto } from '../attention/softmax.js';
import type { ScanOptions } from './data.js';

export { levelSide, mapLevels };

export const MAX_TILE_CELLS = 2 ** 16;             // 256 × 256 blocks per request

export interface HeadTile {
  level: number; i0: number; j0: number;          // in blocks of this level
  rows: number; cols: number;                      // rows · cols ≤ MAX_TILE_CELLS, clipped to the head
  max: Float32Array; sum: Float32Array;            // per block, row-major; the sink keys left out
  sinkColumns?: { key: number; max: Float32Array; sum: Float32Array }[]; // each sink key's column, pooled over the same row blocks
}

export interface HeadMap {                          // sent with a big head ('head' message field `map`)
  n: number; levels: number;                       // deepest level 0, coarsest level = levels − 1
  sinks: number[];                                 // keys drawn as their own columns (sorted, ≤ 8)
  max: number; sinkMax: number;                    // strongest weight outside / inside the sinks (the two colour scales)
}

const isWhole = (x: unknown): x is number => Number.isInteger(x) && (x as number) >= 0;

/**
 * Why a tile request is not one of an n-token head, or undefined: the level a whole number below
 * mapLevels(n), i0 and j0 whole numbers inside the level's side, rows and cols counts ≥ 1 whose
 * product is at most MAX_TILE_CELLS (a tile past the head's edge is clipped, not refused).
 */
export function tileProblem(n: number, level: unknown, i0: unknown, j0: unknown, rows: unknown, cols: unknown): string | undefined {
  const levels = mapLevels(n);
  if (!isWhole(level) || level >= levels) return `a tile at level ${String(level)}, not a whole number below ${levels}`;
  const side = levelSide(n, level);
  if (!isWhole(i0) || !isWhole(j0) || i0 >= side || j0 >= side) return `a tile at ${String(i0)}, ${String(j0)}, not whole numbers within the ${side} blocks of level ${level}`;
  if (!isWhole(rows) || !isWhole(cols) || rows < 1 || cols < 1) return 'a tile whose rows and cols are not counts';
  if (rows * cols > MAX_TILE_CELLS) return `a tile of ${rows} × ${cols} blocks, over the ${MAX_TILE_CELLS} of one request`;
  return undefined;
}

/** A tile's rows and cols clipped to the head's blocks at its level. */
export function clipTile(n: number, level: number, i0: number, j0: number, rows: number, cols: number): { rows: number; cols: number } {
  const side = levelSide(n, level);
  return { rows: Math.min(rows, side - i0), cols: Math.min(cols, side - j0) };
}

/** Throws a RangeError naming why a tile request is not one of an n-token head (tileProblem). */
export function refuse(n: number, level: number, i0: number, j0: number, rows: number, cols: number): void {
  const problem = tileProblem(n, level, i0, j0, rows, cols);
  if (problem) throw new RangeError(problem);
}

/** The map a big head is sent with: its levels, sinks and the two colour scales' maxima. */
export function headMapOf(n: number, part: Pick<MapPart, 'sinks' | 'max' | 'sinkMax'>): HeadMap {
  return { n, levels: mapLevels(n), sinks: [...part.sinks], max: part.max, sinkMax: part.sinkMax };
}

/** Why a head's map (the 'head' message's `map`) is not one of an n-token head, or undefined. */
export function headMapProblem(m: unknown, n: number): string | undefined {
  if (typeof m !== 'object' || m === null) return 'a map that is not an object';
  const map = m as Record<string, unknown>;
  if (map.n !== n || map.levels !== mapLevels(n)) return `a map that is not of ${n} tokens in ${mapLevels(n)} levels`;
  const sinks = map.sinks;
  if (!Array.isArray(sinks) || sinks.length > MAX_SINKS || sinks.some((k, s) => !isWhole(k) || k >= n || (s > 0 && k <= sinks[s - 1]))) return `a map whose sinks are not at most ${MAX_SINKS} sorted keys`;
  const scale = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  return scale(map.max) && scale(map.sinkMax) ? undefined : 'a map whose maxima are not finite numbers ≥ 0';
}

/**
 * A tile of zeros (clipped), with a column of zeros for each of `sinks`: a head whose scan has not
 * reached it yet. The map's tiles always carry its sinks' columns (the webview refuses one without
 * them); when they are not known yet, key 0 is the one sink every head has (sinks.ts).
 */
export function blankTile(n: number, level: number, i0: number, j0: number, rows: number, cols: number, sinks: readonly number[] = [0]): HeadTile {
  refuse(n, level, i0, j0, rows, cols);
  ({ rows, cols } = clipTile(n, level, i0, j0, rows, cols));
  const sinkColumns = sinks.map((key) => ({ key, max: new Float32Array(rows), sum: new Float32Array(rows) }));
  return { level, i0, j0, rows, cols, max: new Float32Array(rows * cols), sum: new Float32Array(rows * cols), ...(sinkColumns.length ? { sinkColumns } : {}) };
}

/**
 * The map of an n-token head from each key's strongest weight over all queries (a run's pass keeps
 * them: PassResult.columnMaxes) and its sinks: `max` the strongest outside the sinks, `sinkMax` at
 * them, exactly the maxima a pass building the pyramid finds (both start at 0, as a block's max does).
 */
export function mapFromColumns(n: number, sinks: readonly number[], columnMax: Float32Array): HeadMap {
  if (columnMax.length !== n) throw new RangeError(`${columnMax.length} column maxima for a head of ${n} keys`);
  let max = 0, sinkMax = 0;
  const isSink = new Uint8Array(n);
  for (const k of sinks) isSink[k] = 1;
  for (let j = 0; j < n; j++) {
    const w = columnMax[j];
    if (isSink[j]) sinkMax = w > sinkMax ? w : sinkMax;
    else max = w > max ? w : max;
  }
  return { n, levels: mapLevels(n), sinks: [...sinks], max, sinkMax };
}

/** The tile from a kept pyramid, or undefined when its level is deeper than the pyramid keeps. */
export function tileFromPyramid(part: MapPart, n: number, level: number, i0: number, j0: number, rows: number, cols: number): HeadTile | undefined {
  refuse(n, level, i0, j0, rows, cols);
  const lv = part.levels.find((l) => l.level === level);
  if (!lv) return undefined;
  ({ rows, cols } = clipTile(n, level, i0, j0, rows, cols));
  const max = new Float32Array(rows * cols), sum = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const from = (i0 + r - lv.r0) * lv.side + j0;
    max.set(lv.max.subarray(from, from + cols), r * cols);
    sum.set(lv.sum.subarray(from, from + cols), r * cols);
  }
  const sinkColumns = part.sinks.map((key, s) => ({
    key,
    max: lv.sinkMax.slice(s * lv.rows + i0 - lv.r0, s * lv.rows + i0 - lv.r0 + rows),
    sum: lv.sinkSum.slice(s * lv.rows + i0 - lv.r0, s * lv.rows + i0 - lv.r0 + rows),
  }));
  return { level, i0, j0, rows, cols, max, sum, ...(sinkColumns.length ? { sinkColumns } : {}) };
}

/** The sinks of heads already found, per source (a worker answers many tiles of one head). */
const known = new WeakMap<AttentionSource, Map<string, number[]>>();

/** A head's sinks (findSinks over its sampled rows, the softmax applied if asked), found once per source and head. */
export function sinksOf(a: AttentionSource, layer: number, head: number, options: ScanOptions = {}): number[] {
  let bySource = known.get(a);
  if (!bySource) known.set(a, bySource = new Map());
  const key = `${layer}:${head}:${options.softmax ? 's' : 'w'}`;
  let sinks = bySource.get(key);
  if (!sinks) bySource.set(key, sinks = findSinks(a, layer, head, options.softmax ? (i, row) => softmaxChecked(a, layer, head, i, row) : undefined));
  return sinks;
}

function softmaxChecked(a: AttentionSource, layer: number, head: number, i: number, row: Float64Array): void {
  checkFinite(a, layer, head, i, 0, row, row.length, true);
  softmaxInto(row, 0, row.length, row, 0);
}

/** Refuses a NaN or ±Infinity among count weights of query i from key j0 (−Infinity allowed before a softmax). */
function checkFinite(a: AttentionSource, layer: number, head: number, i: number, j0: number, values: Float64Array, count: number, scores: boolean): void {
  for (let k = 0; k < count; k++) {
    const w = values[k];
    if (!Number.isFinite(w) && !(scores && w === -Infinity)) throw new TensorFileError(`${a.file}: layer ${layer} head ${head}: the weight of query ${i} on key ${j0 + k} is ${w}`);
  }
}

/** Rows read at once for a tile: about 4 MiB of the columns asked. */
const TILE_READ_BYTES = 4 * 1024 * 1024;

/**
 * A tile read from the source: queries i0·2^L … and keys j0·2^L … of the blocks asked (clipped to
 * the head), each block's max and sum (float64 sums kept as float32), the sinks left out and pooled
 * as columns. Only the tile's keys and the sinks are read where the source can read columns (not
 * with the softmax, which needs whole rows). Checked as the head view's reads are.
 */
export function tileFromSource(a: AttentionSource, layer: number, head: number, level: number, i0: number, j0: number, rows: number, cols: number, sinks: readonly number[], options: ScanOptions = {}, withSinks = true): HeadTile {
  const { n } = a;
  refuse(n, level, i0, j0, rows, cols);
  ({ rows, cols } = clipTile(n, level, i0, j0, rows, cols));
  const width = 2 ** level;
  const q0 = i0 * width, q1 = Math.min(n, (i0 + rows) * width), k0 = j0 * width, k1 = Math.min(n, (j0 + cols) * width);
  const keys = k1 - k0;
  const accMax = new Float64Array(cols), accSum = new Float64Array(cols);
  const max = new Float32Array(rows * cols), sum = new Float32Array(rows * cols);
  const sinkMax = sinks.map(() => new Float32Array(rows)), sinkSum = sinks.map(() => new Float32Array(rows));
  const sMax = new Float64Array(sinks.length), sSum = new Float64Array(sinks.length);
  const inside = sinks.filter((k) => k >= k0 && k < k1);
  const visit = (i: number, values: Float64Array, sinkValues: Float64Array) => {
    for (const k of inside) values[k - k0] = 0;
    for (let c = 0, at = 0; c < cols; c++, at += width) {
      const end = Math.min(keys, at + width);
      let bm = accMax[c], bs = 0;
      for (let k = at; k < end; k++) { const w = values[k]; bs += w; bm = w > bm ? w : bm; }
      accMax[c] = bm; accSum[c] += bs;
    }
    for (let s = 0; s < sinks.length; s++) {
      const w = sinkValues[s];
      sSum[s] += w;
      if (w > sMax[s]) sMax[s] = w;
    }
    if ((i + 1) % width === 0 || i === n - 1) {
      const r = Math.floor(i / width) - i0;
      for (let c = 0; c < cols; c++) { max[r * cols + c] = accMax[c]; sum[r * cols + c] = accSum[c]; }
      for (let s = 0; s < sinks.length; s++) { sinkMax[s][r] = sMax[s]; sinkSum[s][r] = sSum[s]; }
      accMax.fill(0); accSum.fill(0); sMax.fill(0); sSum.fill(0);
    }
  };
  const values = new Float64Array(Math.max(keys, 1)), sinkValues = new Float64Array(sinks.length);
  if (a.columnBytes && !options.softmax) {
    const item = ITEM_SIZE[a.dtype];
    const per = Math.max(1, Math.floor(TILE_READ_BYTES / (keys * item)));
    for (let first = q0; first < q1; first += per) {
      const count = Math.min(per, q1 - first);
      const block = a.columnBytes(layer, head, first, count, k0, keys);
      const sinkBlocks = withSinks ? sinks.map((k) => a.columnBytes!(layer, head, first, count, k, 1)) : [];
      for (let r = 0; r < count; r++) {
        const i = first + r;
        decodeWeights(a.dtype, block, r * keys, keys, values);
        checkFinite(a, layer, head, i, k0, values, keys, false);
        for (let s = 0; s < sinkBlocks.length; s++) {
          decodeWeights(a.dtype, sinkBlocks[s], r, 1, sinkValues.subarray(s, s + 1));
          checkFinite(a, layer, head, i, sinks[s], sinkValues.subarray(s, s + 1), 1, false);
        }
        visit(i, values, sinkValues);
      }
    }
  } else {
    forEachRow(a, layer, head, (i, row) => {
      checkFinite(a, layer, head, i, 0, row, n, false);
      for (let s = 0; s < sinks.length; s++) sinkValues[s] = row[sinks[s]];
      for (let k = 0; k < keys; k++) values[k] = row[k0 + k];
      visit(i, values, sinkValues);
    }, { from: q0, to: q1, terms: false, ...(options.softmax ? { transform: (i: number, row: Float64Array) => softmaxChecked(a, layer, head, i, row) } : {}) });
  }
  const sinkColumns = withSinks ? sinks.map((key, s) => ({ key, max: sinkMax[s], sum: sinkSum[s] })) : [];
  return { level, i0, j0, rows, cols, max, sum, ...(sinkColumns.length ? { sinkColumns } : {}) };
}

/**
 * A tile's sink columns from the sinks' weights the scan kept (MapPart.columns, whole once the head
 * is read): pooled over the tile's row blocks as tileFromSource pools them (the same sums, in the
 * same order), so the worker reads only the tile's keys.
 */
export function sinkColumnsOf(part: Pick<MapPart, 'sinks' | 'columns' | 'first'>, n: number, level: number, i0: number, rows: number): NonNullable<HeadTile['sinkColumns']> {
  const width = 2 ** level;
  return part.sinks.map((key, s) => {
    const column = part.columns[s], max = new Float32Array(rows), sum = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      let m = 0, t = 0;
      for (let i = (i0 + r) * width, end = Math.min(n, (i0 + r + 1) * width); i < end; i++) { const w = column[i - part.first]; t += w; m = w > m ? w : m; }
      max[r] = m; sum[r] = t;
    }
    return { key, max, sum };
  });
}

/**
 * Why a tile (a host → webview answer) does not fit an n-token head, or undefined: its blocks
 * clipped to the head, max and sum rows × cols float32, and its sink columns (`sinks` of them when
 * known, else at most MAX_SINKS) each a key of the head with rows float32.
 */
export function headTileProblem(t: Record<string, unknown>, n: number, sinks?: number): string | undefined {
  const problem = tileProblem(n, t.level, t.i0, t.j0, t.rows, t.cols);
  if (problem) return problem;
  const level = t.level as number, rows = t.rows as number, cols = t.cols as number;
  const clipped = clipTile(n, level, t.i0 as number, t.j0 as number, rows, cols);
  if (clipped.rows !== rows || clipped.cols !== cols) return 'a tile that reaches past the head';
  const cells = (x: unknown, count: number) => x instanceof Float32Array && x.length === count;
  if (!cells(t.max, rows * cols) || !cells(t.sum, rows * cols)) return 'a tile whose max and sum are not rows × cols float32';
  if (t.sinkColumns === undefined) return !sinks ? undefined : 'a tile without its sink columns';
  if (!Array.isArray(t.sinkColumns) || (sinks === undefined ? t.sinkColumns.length > MAX_SINKS : t.sinkColumns.length !== sinks)) return `a tile whose sink columns are not ${sinks ?? `at most ${MAX_SINKS}`}`;
  for (const c of t.sinkColumns as unknown[]) {
    const col = c as Record<string, unknown> | null;
    if (typeof col !== 'object' || col === null || !isWhole(col.key) || (col.key as number) >= n || !cells(col.max, rows) || !cells(col.sum, rows)) return 'a sink column that is not { key, max and sum of rows float32 }';
  }
  return undefined;
}
