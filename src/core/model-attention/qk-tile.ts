// A tile of a run's head map (tiles.ts) computed from the run's kept queries and keys (qk-source.ts),
// with no pyramid: the rows of the tile's queries a block at a time (≤ TILE_BLOCK_CELLS weights), each
// block only on the tile's keys that its rows can see (a causal head's coarsest tile is its lower
// triangle: one pass over the head's rows), each weight qkWindow's (the dense run's float32 bits), and
// each block of the map its max and float64 sum kept as float32, the sinks left out and pooled as
// columns of their own, as tileFromSource pools a file's rows: the same numbers a dense head gives.
import { keyRange } from '../attention/attend32.js';
import { gemm32 } from '../kernels/gemm32.js';
import { checkRows } from '../tensors/attention-source.js';
import { qkWindow, type QkRun } from './qk-source.js';
import { clipTile, refuse, type HeadTile } from './tiles.js';

/** Weights computed at once for a tile: 16 MiB of float32 (and as much of scores inside qkWindow). */
export const TILE_BLOCK_CELLS = 2 ** 22;

/**
 * The tile of blocks i0 … i0 + rows − 1 × j0 … j0 + cols − 1 at `level` (clipped to the head) of a
 * run's head, its `sinks` (sorted keys, the head's: findSinks over the run's rows) left out of the
 * blocks and given as sinkColumns. Refused as tileProblem refuses a request.
 */
export function qkTile(run: QkRun, layer: number, head: number, level: number, i0: number, j0: number, rows: number, cols: number, sinks: readonly number[]): HeadTile {
  const { store, divisor, softcap } = run, { n, layers, heads, kvHeads, headDim } = store.shape;
  checkRows(layers, heads, n, layer, head, 0, 0);
  const scales = run.scales?.[layer * heads + head], kvHead = Math.floor(head / (heads / kvHeads));
  refuse(n, level, i0, j0, rows, cols);
  ({ rows, cols } = clipTile(n, level, i0, j0, rows, cols));
  const width = 2 ** level, mask = run.masks[layer];
  const q0 = i0 * width, q1 = Math.min(n, (i0 + rows) * width), k0 = j0 * width, k1 = Math.min(n, (j0 + cols) * width);
  const max = new Float32Array(rows * cols), sum = new Float32Array(rows * cols);
  const sinkMax = sinks.map(() => new Float32Array(rows)), sinkSum = sinks.map(() => new Float32Array(rows));
  const accMax = new Float64Array(cols), accSum = new Float64Array(cols);
  const sMax = new Float64Array(sinks.length), sSum = new Float64Array(sinks.length);
  const isSink = new Uint8Array(n);
  for (const k of sinks) isSink[k] = 1;
  /**
   * A block of rows' weights on keys lo … lo + span − 1, walked a row at a time: `row(r, add)` calls
   * add(c, max, sum) for each of the tile's key blocks the row sees, its sinks left out. With the
   * run's row scales each weight is rowWeight's expression rounded to float32 as qkWindow stores it
   * (computed here in one loop, not stored); without them, qkWindow's own.
   */
  const blockWeights = (a0: number, count: number, lo: number, span: number) => {
    // The scores on the kernel at depth headDim, as qkWindow computes them (each cell the same bits whatever the keys).
    const values = scales ? gemm32(store.read(layer, 'q', head, a0, count), count, headDim, store.read(layer, 'k', kvHead, lo, span), span, true) : qkWindow(run, layer, head, a0, count, lo, span);
    return {
      row(r: number, add: (c: number, max: number, sum: number) => void): void {
        const i = a0 + r, at = r * span - lo;
        const own = keyRange(i, i + 1, n, mask);
        const from = Math.max(lo, own.from), to = Math.min(lo + span, own.to);
        const rowMax = scales ? scales[2 * i] : 0, rowSum = scales ? scales[2 * i + 1] : 1;
        if (scales && rowMax === -Infinity) return;
        for (let c = Math.max(0, Math.floor((from - k0) / width)); c < cols; c++) {
          const b0 = Math.max(from, k0 + c * width), b1 = Math.min(to, k0 + (c + 1) * width);
          if (b1 <= b0) break;
          let bm = 0, bs = 0;
          for (let k = b0; k < b1; k++) {
            if (isSink[k]) continue;
            let w = values[at + k];
            if (scales) w = Math.fround(Math.exp((softcap === undefined ? w / divisor : softcap * Math.tanh(w / divisor / softcap)) - rowMax) / rowSum);
            bs += w; bm = w > bm ? w : bm;
          }
          add(c, bm, bs);
        }
      },
    };
  };
  const step = Math.max(1, Math.floor(TILE_BLOCK_CELLS / (k1 - k0)));
  for (let a0 = q0; a0 < q1; a0 += step) {
    const count = Math.min(step, q1 - a0);
    // Only the keys some row of the block sees: a row's others are +0, which add and raise nothing.
    const seen = keyRange(a0, a0 + count, n, mask);
    const lo = Math.max(k0, seen.from), hi = Math.min(k1, seen.to), span = Math.max(0, hi - lo);
    const block = span > 0 ? blockWeights(a0, count, lo, span) : undefined;
    const sinkWeights = sinks.map((k) => qkWindow(run, layer, head, a0, count, k, 1));
    for (let r = 0; r < count; r++) {
      const i = a0 + r;
      if (block) block.row(r, (c, bm, bs) => { accMax[c] = bm > accMax[c] ? bm : accMax[c]; accSum[c] += bs; });
      for (let s = 0; s < sinks.length; s++) {
        const w = sinkWeights[s][r];
        sSum[s] += w;
        if (w > sMax[s]) sMax[s] = w;
      }
      if ((i + 1) % width === 0 || i === n - 1) {
        const b = Math.floor(i / width) - i0;
        for (let c = 0; c < cols; c++) { max[b * cols + c] = accMax[c]; sum[b * cols + c] = accSum[c]; }
        for (let s = 0; s < sinks.length; s++) { sinkMax[s][b] = sMax[s]; sinkSum[s][b] = sSum[s]; }
        accMax.fill(0); accSum.fill(0); sMax.fill(0); sSum.fill(0);
      }
    }
  }
  const sinkColumns = sinks.map((key, s) => ({ key, max: sinkMax[s], sum: sinkSum[s] }));
  return { level, i0, j0, rows, cols, max, sum, ...(sinkColumns.length ? { sinkColumns } : {}) };
}
