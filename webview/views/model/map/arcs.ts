// The head view's arcs past the tokens they can all be drawn for: each query's k strongest links,
// for the queries in view (the last ARCS_MAX of them when more are in view), among the keys in view,
// redrawn as the view moves; and a line saying exactly that (or, on a map above its exact level,
// that a zoom to single tokens draws them), never a band of thousands of arcs.
import type { Theme } from '../../../kit/colour.js';
import type { G, Svg } from '../../../kit/view.js';
import { finite, shown } from '../common.js';

/** Arcs are drawn for this many queries at most. */
export const ARCS_MAX = 96;

export interface ArcWindow {
  /** The queries whose links are drawn, and the keys they are chosen among (inclusive). */
  q0: number; q1: number; j0: number; j1: number;
  links: [number, number, number][];
}

/**
 * Each query's k strongest links in q0…q1 (its last ARCS_MAX) among keys j0…j1; `weightAt` answers a
 * cell or undefined (not read: left out). O(queries · keys · k).
 */
export function linksInView(weightAt: (i: number, j: number) => number | undefined, q0: number, q1: number, j0: number, j1: number, k: number): ArcWindow {
  const from = Math.max(q0, q1 - ARCS_MAX + 1);
  const keep = Math.max(1, Math.floor(k));
  const links: [number, number, number][] = [];
  for (let i = from; i <= q1; i++) {
    const best: [number, number][] = [];
    for (let j = j0; j <= j1; j++) {
      const w = weightAt(i, j);
      if (w === undefined || !(w > 0)) continue;
      if (best.length < keep) best.push([j, w]);
      else {
        let min = 0;
        for (let m = 1; m < keep; m++) if (best[m][1] < best[min][1]) min = m;
        if (w > best[min][1]) best[min] = [j, w];
      }
    }
    for (const [j, w] of best) links.push([i, j, w]);
  }
  return { q0: from, q1, j0, j1, links };
}

/** What the arcs drawn are, in one line. */
export function arcWindowNote(win: ArcWindow, k: number, inView: number): string {
  const queries = win.q0 === win.q1 ? `query ${shown(win.q0)}` : `queries ${shown(win.q0)}–${shown(win.q1)}`;
  const which = inView > win.q1 - win.q0 + 1 ? ` (the last ${win.q1 - win.q0 + 1} of the ${inView} in view)` : '';
  return `arcs: the ${k} strongest links of ${queries}${which} among keys ${shown(win.j0)}–${shown(win.j1)} (${win.links.length} drawn; zoom or pan for others)`;
}

/** The arcs, from each query's place to its key's (`xOf` a token's x on screen), over a base line. */
export function drawArcLinks(g: G | Svg, links: readonly [number, number, number][], xOf: (i: number) => number, top: number, base: number, theme: Theme, max: number): void {
  const arcs = (g as G).append('g').attr('class', 'arcs').attr('fill', 'none');
  for (const [i, j, w] of links) {
    const x1 = xOf(i), x2 = xOf(j);
    const lift = Math.min(base - top, Math.abs(x2 - x1) / 2 + 6);
    arcs.append('path').attr('class', 'arc').attr('data-i', i).attr('data-j', j)
      .attr('d', `M${x1},${base} Q${(x1 + x2) / 2},${base - 2 * lift} ${x2},${base}`)
      .attr('stroke', theme.focus).attr('stroke-opacity', finite(max > 0 ? 0.15 + 0.85 * Math.min(1, w / max) : 0)).attr('stroke-width', 1.5);
  }
}
