// Which tiles a view of a big head needs: the level whose blocks are about a screen pixel, and the
// tiles of that level (aligned on a grid of 256 blocks, so a pan asks for the few new ones and the
// cache answers the rest) that meet the queries and keys in view, nearest the centre first.
import { blocksAt, MAX_TILE_CELLS } from './tile-types.js';

/** A tile's side in blocks: 256 × 256 = MAX_TILE_CELLS. */
export const TILE_SIDE = Math.floor(Math.sqrt(MAX_TILE_CELLS));

/** A region of a head at a level, in blocks (what a 'tile' message asks for). */
export interface TileSpec { level: number; i0: number; j0: number; rows: number; cols: number }

/** A zoom of the map: scale k ≥ 1 and the offset of the picture's corner, in screen px (d3's transform). */
export interface Zoom { k: number; x: number; y: number }

/** Queries i0…i1 and keys j0…j1 in view (inclusive, tokens from 0) and a token's size on screen. */
export interface InView { i0: number; i1: number; j0: number; j1: number; px: number }

export function tileKey(t: TileSpec): string {
  return `${t.level}:${t.i0}:${t.j0}:${t.rows}:${t.cols}`;
}

/** The tokens in view of an n-token head drawn `side` px a side, zoomed by `t`. */
export function inView(n: number, side: number, t: Zoom): InView {
  const px = (side / n) * t.k;
  const from = (offset: number) => Math.max(0, Math.min(n - 1, Math.floor(-offset / px + 1e-9)));
  const to = (offset: number) => Math.max(0, Math.min(n - 1, Math.ceil((side - offset) / px - 1e-9) - 1));
  return { i0: from(t.y), i1: to(t.y), j0: from(t.x), j1: to(t.x), px };
}

/**
 * The level whose blocks are nearest a pixel: 2^L tokens ≈ 1 px (level 0 once a token is a pixel or
 * more: every cell exact), never past the coarsest the head has.
 */
export function levelFor(n: number, side: number, k: number, levels: number): number {
  const tokensPerPx = n / (side * k);
  const level = tokensPerPx <= 1 ? 0 : Math.round(Math.log2(tokensPerPx));
  return Math.max(0, Math.min(levels - 1, level));
}

/** The grid tiles at `level` meeting the view, nearest its centre first. */
export function tilesFor(n: number, level: number, view: InView): TileSpec[] {
  const side = blocksAt(n, level), block = 2 ** level;
  const ti0 = Math.floor(Math.floor(view.i0 / block) / TILE_SIDE), ti1 = Math.floor(Math.floor(view.i1 / block) / TILE_SIDE);
  const tj0 = Math.floor(Math.floor(view.j0 / block) / TILE_SIDE), tj1 = Math.floor(Math.floor(view.j1 / block) / TILE_SIDE);
  const ci = (view.i0 + view.i1) / 2 / block / TILE_SIDE - 0.5, cj = (view.j0 + view.j1) / 2 / block / TILE_SIDE - 0.5;
  const out: (TileSpec & { d: number })[] = [];
  for (let ti = ti0; ti <= ti1; ti++) {
    for (let tj = tj0; tj <= tj1; tj++) {
      const i0 = ti * TILE_SIDE, j0 = tj * TILE_SIDE;
      out.push({ level, i0, j0, rows: Math.min(TILE_SIDE, side - i0), cols: Math.min(TILE_SIDE, side - j0), d: (ti - ci) ** 2 + (tj - cj) ** 2 });
    }
  }
  return out.sort((a, b) => a.d - b.d).map(({ d: _d, ...t }) => t);
}

/** Whether tile `t` meets the tokens in view. */
export function meets(t: TileSpec, view: InView): boolean {
  const b = 2 ** t.level;
  return t.i0 * b <= view.i1 && (t.i0 + t.rows) * b > view.i0 && t.j0 * b <= view.j1 && (t.j0 + t.cols) * b > view.j0;
}

/**
 * A zoom kept apart from the picture's size (a resize or a new page keeps what was in view): the
 * token at the view's centre and the tokens its side spans.
 */
export interface KeptZoom { ci: number; cj: number; span: number }

export function keptZoom(n: number, side: number, t: Zoom): KeptZoom {
  const px = (side / n) * t.k;
  return { ci: (side / 2 - t.y) / px, cj: (side / 2 - t.x) / px, span: side / px };
}

/** The d3 transform that shows `kept` in a picture of `side` px, clamped to the head. */
export function zoomOf(n: number, side: number, kept: KeptZoom, maxK: number): Zoom {
  const k = Math.max(1, Math.min(maxK, n / kept.span));
  const px = (side / n) * k;
  const clampOffset = (c: number) => Math.max(side - n * px, Math.min(0, side / 2 - c * px));
  return { k, x: clampOffset(kept.cj), y: clampOffset(kept.ci) };
}
