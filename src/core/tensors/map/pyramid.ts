// A big head as a map: level L ≥ 0 cuts it into blocks of 2^L queries × 2^L keys, and a cell of the
// map is a block's strongest weight (max) and its total (sum). Level 0 is the head itself; the
// coarsest level (levels − 1) is the first one whose side fits one tile (MAX_TILE_SIDE blocks), so
// one request shows the whole head. The coarse levels are built here from the rows as a pass reads
// them (the pyramid, kept by the editor so a zoom or pan reads nothing); deep levels are read from
// the file for the region asked (model-attention/tiles.ts). The sink keys (sinks.ts) are left out of
// the blocks and kept as columns of their own, so one key that takes most of every row does not set
// the colour scale of the rest.
//
// Memory: a level of side s is 8·s² bytes (max and sum, float32). A 32,768-token head from 16 × 16
// blocks up (levels 4 … 7: sides 2,048, 1,024, 512, 256) is 8 · (2,048² + 1,024² + 512² + 256²) =
// 44.6 MB; from 8 × 8 blocks up (level 3, side 4,096, too) 179 MB. pyramidBase picks the deepest
// level at which every big head of a file fits MAX_KEPT_PYRAMID_BYTES: a one-head 32,768 file keeps
// levels 3 up, so the deepest tile read from the file is level 2's (1,024 rows × 1,024 keys: tens of
// ms; a level-3 tile read 2,048 × 2,048 weights, 120–200 ms measured), and 4 × 8 × 4,096 keeps 3 up.

/** Blocks a side of one tile request; the coarsest level fits it. */
export const MAX_TILE_SIDE = 256;

/** Most bytes of pyramids the editor keeps for a file (all its big heads together). */
export const MAX_KEPT_PYRAMID_BYTES = 192 * 1024 * 1024;

/** The number of levels of an n-token head's map: 0 … levels − 1, the last the first whose side is ≤ MAX_TILE_SIDE. */
export function mapLevels(n: number): number {
  let level = 0;
  while (levelSide(n, level) > MAX_TILE_SIDE) level++;
  return level + 1;
}

/** Blocks a side at level L: ⌈n / 2^L⌉ (the last block of a side may be short). */
export function levelSide(n: number, level: number): number {
  return Math.ceil(n / 2 ** level);
}

/** Bytes of one head's pyramid from level `base` up (max and sum per block, and each sink's column). */
export function pyramidBytes(n: number, base: number, sinks = 8): number {
  let bytes = 0;
  for (let level = base; level < mapLevels(n); level++) bytes += 8 * levelSide(n, level) * (levelSide(n, level) + sinks);
  return bytes;
}

/**
 * The deepest level whose pyramids of `heads` heads of n tokens fit MAX_KEPT_PYRAMID_BYTES, or
 * undefined when not even the coarsest does (then every tile is read from the file).
 */
export function pyramidBase(heads: number, n: number, budget = MAX_KEPT_PYRAMID_BYTES): number | undefined {
  const top = mapLevels(n) - 1;
  for (let base = 0; base <= top; base++) if (heads * pyramidBytes(n, base) <= budget) return base;
  return undefined;
}

/** One level of a pyramid, for block rows r0 … r0 + rows − 1: row-major max and sum, and each sink's column (sink-major). */
export interface PyramidLevel {
  level: number;
  side: number;
  r0: number;
  rows: number;
  max: Float32Array;
  sum: Float32Array;
  /** sinks × rows: the sink key's strongest weight and total over each block row. */
  sinkMax: Float32Array;
  sinkSum: Float32Array;
}

/** What a pass found of one head's map over its rows (a band of them, or all). */
export interface MapPart {
  sinks: number[];
  /** Strongest weight outside / at the sinks over the rows passed. */
  max: number;
  sinkMax: number;
  /** Levels base … levels − 1; empty when no pyramid is kept. */
  levels: PyramidLevel[];
  /**
   * Each sink's weights over queries first … first + columns[s].length − 1 (float64, as read): the
   * editor pools them for a deep tile itself, so the worker reads the tile's own keys and not one
   * more read per row and sink. 8 sinks of a 32,768-token head are 2 MiB.
   */
  first: number;
  columns: Float64Array[];
}

/**
 * Builds one head's map part from its rows first … first + rows − 1, fed in order. `first` is a
 * multiple of the coarsest block's height (or 0), so every block row but the head's last is whole.
 * Sums are made in float64 (a row's part of a base block, then across its rows; a coarser block from
 * its four finer ones) and kept as float32: for F16 and BF16 weights every such sum is exact in
 * float64, whatever its order (F32 and F64 ones may differ from a tile read from the file in the last
 * bit of the float32).
 */
export class MapBuilder {
  private readonly levels: PyramidLevel[] = [];
  private readonly accMax: Float64Array[] = [];
  private readonly accSum: Float64Array[] = [];
  private readonly accSinkMax: Float64Array[] = [];
  private readonly accSinkSum: Float64Array[] = [];
  private readonly saved: Float64Array;
  private max = 0;
  private sinkMax = 0;
  private readonly columns: Float64Array[];

  constructor(private readonly n: number, readonly sinks: readonly number[], private readonly base: number | undefined, private readonly first = 0, rows = n) {
    const top = mapLevels(n) - 1;
    this.saved = new Float64Array(sinks.length);
    this.columns = sinks.map(() => new Float64Array(rows));
    if (base === undefined) return;
    if (first % 2 ** top !== 0 && first + rows !== n) throw new RangeError(`rows from ${first} do not start a block row of level ${top}`);
    for (let level = base; level <= top; level++) {
      const side = levelSide(n, level), r0 = Math.floor(first / 2 ** level), r1 = Math.ceil((first + rows) / 2 ** level);
      const count = r1 - r0, s = sinks.length;
      this.levels.push({ level, side, r0, rows: count, max: new Float32Array(count * side), sum: new Float32Array(count * side), sinkMax: new Float32Array(s * count), sinkSum: new Float32Array(s * count) });
      this.accMax.push(new Float64Array(side)); this.accSum.push(new Float64Array(side));
      this.accSinkMax.push(new Float64Array(s)); this.accSinkSum.push(new Float64Array(s));
    }
  }

  /** Query i's weights (left as they were; the sinks are set aside while the blocks are made). */
  addRow(i: number, row: Float64Array): void {
    const { sinks, saved, n } = this;
    for (let s = 0; s < sinks.length; s++) {
      const w = row[sinks[s]];
      saved[s] = w;
      this.columns[s][i - this.first] = w;
      if (w > this.sinkMax) this.sinkMax = w;
      row[sinks[s]] = 0;
    }
    try {
      if (this.base === undefined) {
        let m = this.max;
        for (let j = 0; j < n; j++) { const w = row[j]; m = w > m ? w : m; }
        this.max = m;
      } else {
        this.blocks(i, row);
      }
    } finally {
      for (let s = 0; s < sinks.length; s++) row[sinks[s]] = saved[s];
    }
  }

  private blocks(i: number, row: Float64Array): void {
    const { n, saved } = this, base = this.base!, width = 2 ** base;
    // The row into the base level's block row; a coarser level is fed only when a finer block row
    // is whole (a row's work is its weights, not a pass over every level per row).
    const aMax = this.accMax[0], aSum = this.accSum[0], sMax = this.accSinkMax[0], sSum = this.accSinkSum[0];
    let m = this.max;
    for (let b = 0, j0 = 0; j0 < n; b++, j0 += width) {
      const j1 = Math.min(n, j0 + width);
      let bm = 0, bs = 0;
      for (let j = j0; j < j1; j++) { const w = row[j]; bs += w; bm = w > bm ? w : bm; }
      aSum[b] += bs;
      if (bm > aMax[b]) aMax[b] = bm;
      m = bm > m ? bm : m;
    }
    this.max = m;
    for (let s = 0; s < saved.length; s++) {
      sSum[s] += saved[s];
      if (saved[s] > sMax[s]) sMax[s] = saved[s];
    }
    // Each block row whole at this query (or the head's last) is written, added into the next
    // level's, and begun anew. Sums stay float64 until written: exact for F16 and BF16 weights.
    for (let k = 0; k < this.levels.length; k++) {
      const lv = this.levels[k];
      if (!((i + 1) % 2 ** lv.level === 0 || i === n - 1)) break;
      const r = Math.floor(i / 2 ** lv.level) - lv.r0, at = r * lv.side;
      const kMax = this.accMax[k], kSum = this.accSum[k], kSinkMax = this.accSinkMax[k], kSinkSum = this.accSinkSum[k];
      for (let c = 0; c < lv.side; c++) { lv.max[at + c] = kMax[c]; lv.sum[at + c] = kSum[c]; }
      for (let s = 0; s < saved.length; s++) { lv.sinkMax[s * lv.rows + r] = kSinkMax[s]; lv.sinkSum[s * lv.rows + r] = kSinkSum[s]; }
      if (k + 1 < this.levels.length) {
        const nMax = this.accMax[k + 1], nSum = this.accSum[k + 1], nSinkMax = this.accSinkMax[k + 1], nSinkSum = this.accSinkSum[k + 1];
        for (let c = 0; c < lv.side; c++) {
          nSum[c >> 1] += kSum[c];
          if (kMax[c] > nMax[c >> 1]) nMax[c >> 1] = kMax[c];
        }
        for (let s = 0; s < saved.length; s++) {
          nSinkSum[s] += kSinkSum[s];
          if (kSinkMax[s] > nSinkMax[s]) nSinkMax[s] = kSinkMax[s];
        }
      }
      kMax.fill(0); kSum.fill(0); kSinkMax.fill(0); kSinkSum.fill(0);
    }
  }

  result(): MapPart {
    return { sinks: [...this.sinks], max: this.max, sinkMax: this.sinkMax, levels: this.levels, first: this.first, columns: this.columns };
  }
}

/** A head's whole map part, as bands of it arrive (any order): the pyramid fills in, the maxima grow. */
export class MapAssembly {
  readonly levels: PyramidLevel[];
  readonly columns: Float64Array[];
  max = 0;
  sinkMax = 0;

  constructor(readonly n: number, readonly sinks: readonly number[], base: number | undefined) {
    this.levels = base === undefined ? [] : new MapBuilder(n, sinks, base).result().levels;
    this.columns = sinks.map(() => new Float64Array(n));
  }

  add(part: MapPart): void {
    if (part.sinks.length !== this.sinks.length || part.sinks.some((k, s) => k !== this.sinks[s])) throw new RangeError('a band of the head found other sinks');
    this.max = Math.max(this.max, part.max);
    this.sinkMax = Math.max(this.sinkMax, part.sinkMax);
    part.columns.forEach((c, s) => this.columns[s].set(c, part.first));
    for (let k = 0; k < part.levels.length; k++) {
      const from = part.levels[k], to = this.levels[k];
      to.max.set(from.max, from.r0 * to.side);
      to.sum.set(from.sum, from.r0 * to.side);
      for (let s = 0; s < this.sinks.length; s++) {
        to.sinkMax.set(from.sinkMax.subarray(s * from.rows, (s + 1) * from.rows), s * to.rows + from.r0);
        to.sinkSum.set(from.sinkSum.subarray(s * from.rows, (s + 1) * from.rows), s * to.rows + from.r0);
      }
    }
  }

  result(): MapPart {
    return { sinks: [...this.sinks], max: this.max, sinkMax: this.sinkMax, levels: this.levels, first: 0, columns: this.columns };
  }
}
