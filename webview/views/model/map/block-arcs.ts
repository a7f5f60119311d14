// The map's arcs above its exact level: the tokens in view pooled into groups of whole blocks, as
// many query groups as ARCS_MAX allows (so the band is never a hairball of thousands), and each
// group's k strongest links to the key groups in view by the strongest weight of the blocks they
// hold, from the kept tiles of the level in view (the sink keys are left out of blocks, as in the map).
import type { HeadTile } from './tile-types.js';
import { ARCS_MAX, linksInView } from './arcs.js';

export interface BlockArcs {
  /** Tokens a group holds a side: whole blocks of the level in view. */
  group: number;
  /** First query and key token of each link's groups, and its strongest weight. */
  links: [number, number, number][];
  /** Query groups whose blocks in view are all kept (read, links or not: a causal head's zeros too), of the groups in view. */
  read: number; groups: number;
}

/** The tokens a group holds: 2^level × the fewest powers of two that leave ≤ ARCS_MAX query groups in i0…i1. */
export function groupSize(level: number, i0: number, i1: number): number {
  let g = 2 ** level;
  while (Math.floor(i1 / g) - Math.floor(i0 / g) + 1 > ARCS_MAX) g *= 2;
  return g;
}

/** Each query group's k strongest key groups among the tokens in view (queries i0…i1, keys j0…j1). */
export function blockLinksInView(tiles: readonly HeadTile[], level: number, i0: number, i1: number, j0: number, j1: number, k: number): BlockArcs {
  const g = groupSize(level, i0, i1), b = 2 ** level;
  const gi0 = Math.floor(i0 / g), gj0 = Math.floor(j0 / g);
  const rows = Math.floor(i1 / g) - gi0 + 1, cols = Math.floor(j1 / g) - gj0 + 1;
  // The strongest block of each group pair; NaN where no block of it is kept yet.
  const grid = new Float64Array(rows * cols).fill(NaN);
  for (const tile of tiles) {
    if (tile.level !== level) continue;
    for (let r = 0; r < tile.rows; r++) {
      const qi = (tile.i0 + r) * b;
      if (qi + b - 1 < i0 || qi > i1) continue;
      const row = (Math.floor(qi / g) - gi0) * cols;
      for (let c = 0; c < tile.cols; c++) {
        const kj = (tile.j0 + c) * b;
        if (kj + b - 1 < j0 || kj > j1) continue;
        const at = row + Math.floor(kj / g) - gj0, v = tile.max[r * tile.cols + c];
        if (!(grid[at] >= v)) grid[at] = v;
      }
    }
  }
  const weightAt = (gi: number, gj: number) => {
    const v = grid[(gi - gi0) * cols + gj - gj0];
    return Number.isNaN(v) ? undefined : v;
  };
  const win = linksInView(weightAt, gi0, gi0 + rows - 1, gj0, gj0 + cols - 1, k);
  // Read by the blocks kept, not by the links found: above a causal diagonal every block is 0 and
  // no group has a link, yet nothing is left to read.
  let read = 0;
  for (let r = 0; r < rows; r++) if (!grid.subarray(r * cols, (r + 1) * cols).some(Number.isNaN)) read++;
  return { group: g, links: win.links.map(([gi, gj, w]) => [gi * g, gj * g, w]), read, groups: rows };
}
