// What the map says of a place: at level 0 a cell is exact, so the hover writes the query and key
// tokens and the weight as the float32 it is; above, the block's range of queries and keys, its
// strongest weight and its sum. A sink key's cell is read from its own column.
import type { TokenTexts } from '../common.js';
import { shown, tokenName } from '../common.js';
import { fmt } from '../../../kit/format.js';
import { blocksAt, type HeadMap, type HeadTile } from './tile-types.js';

/**
 * A float32 weight written so that it reads back as the same float32, in the fewest digits that do
 * (a notebook's 0.85, stored as float32, hovered as "weight 0.850000024"; 9 significant digits always
 * suffice). A number that is no float32 keeps its 9 digits.
 */
export function exactWeight(w: number): string {
  if (!Number.isFinite(w)) return String(w);
  if (Math.fround(w) === w) {
    for (let p = 1; p < 9; p++) {
      const v = Number(w.toPrecision(p));
      if (Math.fround(v) === w) return String(v);
    }
  }
  return String(Number(w.toPrecision(9)));
}

/** The block (r, c) of `tile` holding block row bi and block column bj of its level, or undefined. */
export function blockIn(tile: HeadTile, bi: number, bj: number): { r: number; c: number } | undefined {
  const r = bi - tile.i0, c = bj - tile.j0;
  return r >= 0 && c >= 0 && r < tile.rows && c < tile.cols ? { r, c } : undefined;
}

/** The finest kept tile at `level` or coarser that holds token (i, j), with the block. */
export function tileAt(tiles: readonly HeadTile[], level: number, i: number, j: number): { tile: HeadTile; r: number; c: number } | undefined {
  let best: { tile: HeadTile; r: number; c: number } | undefined;
  for (const tile of tiles) {
    if (tile.level < level || (best && tile.level >= best.tile.level)) continue;
    const at = blockIn(tile, Math.floor(i / 2 ** tile.level), Math.floor(j / 2 ** tile.level));
    if (at) best = { tile, ...at };
  }
  return best;
}

/** "1,025–1,040": a block's tokens, counted from 1. */
function span(b: number, level: number, n: number): string {
  const from = b * 2 ** level, to = Math.min(n, (b + 1) * 2 ** level) - 1;
  return from === to ? `${shown(from)}` : `${shown(from)}–${shown(to)}`;
}

/** The hover's lines for token (i, j) of the main map at `level`, from the kept tiles. */
export function describeCell(tiles: readonly HeadTile[], map: HeadMap, level: number, i: number, j: number, tokens: TokenTexts, norms: boolean): string[] {
  const what = norms ? 'norm' : 'weight';
  const sink = map.sinks.indexOf(j);
  const found = tileAt(tiles, level, i, j);
  if (!found) return [level === 0 ? `query ${tokenName(tokens, i)} → key ${tokenName(tokens, j)}` : blockName(map.n, level, i, j), `${what}: reading this part of the head…`];
  const { tile, r, c } = found;
  if (tile.level === 0) {
    const column = sink >= 0 ? tile.sinkColumns?.find((s) => s.key === j) : undefined;
    const w = sink >= 0 ? column?.max[r] : tile.max[r * tile.cols + c];
    return [`query ${tokenName(tokens, i)} → key ${tokenName(tokens, j)}${sink >= 0 ? ' (a sink key, drawn at the left)' : ''}`, w === undefined ? `${what}: reading it…` : `${what} ${exactWeight(w)}`];
  }
  const k = r * tile.cols + c;
  return [
    blockName(map.n, tile.level, i, j),
    `strongest ${what} ${fmt(tile.max[k], 4)}, sum ${fmt(tile.sum[k], 4)}${map.sinks.length ? ' (the sink keys left out)' : ''}`,
  ];
}

/** "queries 1,025–1,040 × keys 2,049–2,064 (a block of 16 × 16)". */
export function blockName(n: number, level: number, i: number, j: number): string {
  const bi = Math.floor(i / 2 ** level), bj = Math.floor(j / 2 ** level);
  return `queries ${span(bi, level, n)} × keys ${span(bj, level, n)} (a block of ${2 ** level} × ${2 ** level}, level ${level} of ${blocksAt(n, level)} blocks a side)`;
}

/** The hover's lines for a sink key's column at query i. */
export function describeSink(tiles: readonly HeadTile[], map: HeadMap, level: number, i: number, key: number, tokens: TokenTexts, norms: boolean): string[] {
  const what = norms ? 'norm' : 'weight';
  let best: { tile: HeadTile; r: number; col: { max: Float32Array; sum: Float32Array } } | undefined;
  for (const tile of tiles) {
    if (tile.level < level || (best && tile.level >= best.tile.level)) continue;
    const col = tile.sinkColumns?.find((s) => s.key === key);
    const r = Math.floor(i / 2 ** tile.level) - tile.i0;
    if (col && r >= 0 && r < tile.rows) best = { tile, r, col };
  }
  const head = `key ${tokenName(tokens, key)}, a sink (its own scale, to ${fmt(map.sinkMax, 4)})`;
  if (!best) return [head, `${what}: reading this part of the head…`];
  const { tile, r, col } = best;
  if (tile.level === 0) return [`query ${tokenName(tokens, i)} → ${head}`, `${what} ${exactWeight(col.max[r])}`];
  return [`queries ${span(tile.i0 + r, tile.level, map.n)} → ${head}`, `strongest ${what} ${fmt(col.max[r], 4)}, sum ${fmt(col.sum[r], 4)}`];
}
