// The tile contract between the head view and the host, as the design gives it (the host side's
// src/core/model-attention/tiles.ts and the protocol's 'tile' messages): declared here, the very same
// shapes, until the host side's types are on this branch; then these imports switch to theirs. The
// checks below are the webview's own: a tile is used only if it is the shape the map asked for.
import { isObject } from '../../../../src/core/json/object.js';

/** Most blocks in one tile asked of the host: 256 × 256. */
export const MAX_TILE_CELLS = 2 ** 16;

/** A tile of a head at level L: blocks of 2^L queries × 2^L keys, block-max and block-sum. */
export interface HeadTile {
  level: number; i0: number; j0: number;
  rows: number; cols: number;
  max: Float32Array; sum: Float32Array;
  sinkColumns?: { key: number; max: Float32Array; sum: Float32Array }[];
}

/** What a big head's 'head' message carries besides its picture: the levels, the sink keys and the two scales. */
export interface HeadMap {
  n: number; levels: number;
  sinks: number[];
  max: number; sinkMax: number;
}

/** The webview's ask for a tile. */
export interface TileAsk { type: 'tile'; layer: number; head: number; level: number; i0: number; j0: number; rows: number; cols: number }

/** The host's answer. */
export type TileAnswer = { type: 'tile'; layer: number; head: number } & HeadTile;

/** Blocks a side at level L of an n-token head. */
export function blocksAt(n: number, level: number): number {
  return Math.ceil(n / 2 ** level);
}

const isInt = (x: unknown, lo: number, hi: number): x is number => Number.isInteger(x) && (x as number) >= lo && (x as number) <= hi;
const isScale = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;

/** Why `m` is not a head map of an n-token head (undefined when it is one). */
export function headMapProblem(m: unknown, n: number): string | undefined {
  if (!isObject(m)) return 'a head map that is not an object';
  if (m.n !== n) return `a head map of ${String(m.n).slice(0, 20)} tokens for a head of ${n}`;
  if (!isInt(m.levels, 1, 32) || blocksAt(n, (m.levels as number) - 1) < 1) return 'a head map whose levels are not a count';
  const sinks = m.sinks;
  if (!Array.isArray(sinks) || sinks.length > 8 || sinks.some((k, i) => !isInt(k, 0, n - 1) || (i > 0 && k <= sinks[i - 1]))) return 'a head map whose sinks are not up to 8 sorted keys';
  return isScale(m.max) && isScale(m.sinkMax) ? undefined : 'a head map whose scales are not finite and ≥ 0';
}

/** Why `m` is not a tile of this head's map (undefined when it is one): every array as long as its shape says. */
export function tileProblem(m: Record<string, unknown>, map: HeadMap): string | undefined {
  const { level, i0, j0, rows, cols } = m;
  if (!isInt(level, 0, map.levels - 1)) return 'a tile of a level the head has not';
  const side = blocksAt(map.n, level);
  if (!isInt(i0, 0, side - 1) || !isInt(j0, 0, side - 1) || !isInt(rows, 1, side - i0) || !isInt(cols, 1, side - j0) || rows * cols > MAX_TILE_CELLS) return `a tile of ${String(rows).slice(0, 12)} × ${String(cols).slice(0, 12)} blocks outside the head's ${side} × ${side} or over ${MAX_TILE_CELLS}`;
  const cells = rows * cols;
  if (!(m.max instanceof Float32Array) || m.max.length !== cells || !(m.sum instanceof Float32Array) || m.sum.length !== cells) return 'a tile whose max and sum are not rows × cols float32';
  const sinks = m.sinkColumns;
  if (sinks === undefined) return undefined;
  if (!Array.isArray(sinks) || sinks.length > map.sinks.length) return 'a tile with more sink columns than the head has sinks';
  for (const s of sinks as unknown[]) {
    if (!isObject(s) || !map.sinks.includes(s.key as number) || !(s.max instanceof Float32Array) || s.max.length !== rows || !(s.sum instanceof Float32Array) || s.sum.length !== rows) return 'a tile\'s sink column that is not one of the head\'s sinks, rows float32';
  }
  return undefined;
}
