// A tile's blocks as colour indices (0 … 255 of the theme's sequential palette): by their strongest
// weight or by their mass (the weights' sum over the block's queries, a mean row's share of its
// attention on those keys), on a linear or a log scale. The sink keys' columns have their own scale.
import type { HeadMap, HeadTile, MapColour, MapScale } from './tile-types.js';

/** The log scale spans this many decades below the scale's top (weights under 1e-4 of it are the lowest colour). */
export const LOG_DECADES = 4;

/** The index of `v` on a scale from 0 to `top`: 0 for nothing (and NaN, negatives), 255 at the top and above. */
export function shade(v: number, top: number, scale: MapScale): number {
  if (!(v > 0) || !(top > 0)) return 0;
  const r = v / top;
  const s = scale === 'linear' ? r : 1 + Math.log10(r) / LOG_DECADES;
  // Anything above nothing is at least index 1, so a faint needle still differs from an empty block.
  return s >= 1 ? 255 : Math.max(1, Math.round(s * 255));
}

/** The top of the mass scale at a level: a block's mean row mass is at most min(1, 2^L × the strongest weight) (norms: 2^L × it). */
export function massTop(map: HeadMap, level: number, norms: boolean): number {
  const top = map.max * 2 ** level;
  return norms ? top : Math.min(1, top);
}

/**
 * The mass scale's top at `level` from the largest block mass seen at each level (`seen`): the
 * level's own, or at least a coarser one's over 2^Δ (a coarse block's mass per query over 2^Δ is the
 * mean of the 4^Δ blocks it covers, so one of them reaches it); the bound `massTop` until any is seen.
 */
export function levelMassTop(seen: ReadonlyMap<number, number>, map: HeadMap, level: number, norms: boolean): number {
  const bound = massTop(map, level, norms);
  let top = 0;
  for (const [at, v] of seen) if (at >= level && v > 0) top = Math.max(top, v / 2 ** (at - level));
  return top > 0 ? Math.min(bound, top) : bound;
}

/** The tokens in block `i` of a side at `level` (the last block of a head may be short). */
function tokensIn(n: number, level: number, i: number): number {
  const b = 2 ** level;
  return Math.max(1, Math.min(b, n - i * b));
}
const queriesIn = tokensIn;

/**
 * The value a block is coloured by: its max, or its mass per query. Drawn at a finer `viewLevel`
 * (a stand-in while the finer tiles come), the mass is over the view-level columns the block really
 * covers (2^Δ, fewer at the head's last, short key block): per query it sums the keys of that many
 * view blocks, so over them it is their mean. The max is the same at every level.
 */
export function blockValue(tile: HeadTile, n: number, colour: MapColour, r: number, c: number, viewLevel = tile.level): number {
  const k = r * tile.cols + c;
  if (colour === 'max') return tile.max[k];
  const columns = viewLevel < tile.level ? Math.ceil(tokensIn(n, tile.level, tile.j0 + c) / 2 ** viewLevel) : 1;
  return tile.sum[k] / queriesIn(n, tile.level, tile.i0 + r) / columns;
}

/** The largest mass per query of a tile's blocks (the sink keys left out, as in the blocks). */
export function tileMassMax(tile: HeadTile, n: number): number {
  let top = 0;
  for (let r = 0; r < tile.rows; r++) {
    const q = queriesIn(n, tile.level, tile.i0 + r);
    for (let c = 0; c < tile.cols; c++) {
      const v = tile.sum[r * tile.cols + c] / q;
      if (v > top) top = v;
    }
  }
  return top;
}

/** Where a tile is drawn: the level in view and its scale's top (its own level and bound when not given). */
export interface ShadeAt { level: number; top: number }

/** The tile's rows × cols indices, on the scale of the level in view. */
export function tileShades(tile: HeadTile, map: HeadMap, colour: MapColour, scale: MapScale, norms: boolean, at?: ShadeAt): Uint8Array {
  const viewLevel = at?.level ?? tile.level;
  const top = at?.top ?? (colour === 'max' ? map.max : massTop(map, tile.level, norms));
  const out = new Uint8Array(tile.rows * tile.cols);
  for (let r = 0; r < tile.rows; r++) for (let c = 0; c < tile.cols; c++) out[r * tile.cols + c] = shade(blockValue(tile, map.n, colour, r, c, viewLevel), top, scale);
  return out;
}

/** A sink key's column over the tile's rows (1 × rows indices), on the sinks' own scale: its max, or its mean weight (mass). */
export function sinkShades(tile: HeadTile, column: { max: Float32Array; sum: Float32Array }, map: HeadMap, colour: MapColour, scale: MapScale): Uint8Array {
  const out = new Uint8Array(tile.rows);
  for (let r = 0; r < tile.rows; r++) {
    const v = colour === 'max' ? column.max[r] : column.sum[r] / queriesIn(map.n, tile.level, tile.i0 + r);
    out[r] = shade(v, map.sinkMax, scale);
  }
  return out;
}

/**
 * Indices of `w` × `h` with their last column repeated `padW` more times and their last row `padH`:
 * a tile drawn that many blocks wider and taller (every block in its place) reaches under its
 * neighbours, drawn after it, so scaled images leave no seam of the background between them.
 */
export function padded(indices: Uint8Array, w: number, h: number, padW: number, padH = padW): Uint8Array {
  const W = w + padW, H = h + padH;
  const out = new Uint8Array(W * H);
  for (let r = 0; r < H; r++) {
    const from = Math.min(r, h - 1) * w;
    out.set(indices.subarray(from, from + w), r * W);
    out.fill(indices[from + w - 1], r * W + w, r * W + W);
  }
  return out;
}
