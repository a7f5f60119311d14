// Where a tile is drawn on screen: its edges on device pixels. Drawn scaled by the zoom, a tile's edge
// fell between pixels and was blended with the tile under it, a faint seam across the level-0 map;
// snapped, each tile starts on the pixel where its neighbour's last block ends (the same edge gives
// the same pixel), and covers it. The frame is itself translated (by the labels' margin, the sink
// columns and the notes above), so an edge is snapped where it lands in the picture, not in the frame:
// at 1.25 device pixels a px, a frame at 130 px starts at 162.5 device pixels.
import type { TileSpec, Zoom } from './plan.js';

export interface Rect { x: number; y: number; width: number; height: number }

/** `v` px on the nearest device pixel (`dpr` device pixels a px). */
export function snap(v: number, dpr: number): number {
  const d = dpr > 0 && Number.isFinite(dpr) ? dpr : 1;
  return Math.round(v * d) / d;
}

/** From a to b px of a frame at `origin` px snapped: where it starts in the frame and its length. */
function span(a: number, b: number, dpr: number, origin: number): [number, number] {
  const from = snap(origin + a, dpr);
  return [from - origin, snap(origin + b, dpr) - from];
}

/**
 * Tile `t` and `pad` blocks more each way in the map's frame at zoom `z` (a token `cell` px at k = 1),
 * the frame's corner at `origin` px in the picture: the image is the tile's blocks and its last column
 * and row repeated `pad` times.
 */
export function tileRect(t: TileSpec, cell: number, z: Zoom, dpr: number, pad: number, origin: { x: number; y: number } = { x: 0, y: 0 }): Rect {
  const px = cell * z.k * 2 ** t.level;
  const [x, width] = span(z.x + t.j0 * px, z.x + (t.j0 + t.cols + pad) * px, dpr, origin.x);
  const [y, height] = span(z.y + t.i0 * px, z.y + (t.i0 + t.rows + pad) * px, dpr, origin.y);
  return { x, y, width, height };
}
