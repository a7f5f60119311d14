// The matrix view's colour scale: the range of values a head (or all heads) spans in a mode,
// and the legend that names it.
import type { HeadData } from '../../../src/core/result/attention-data.js';
import { MODE_LABEL, type MatrixMode } from '../../../src/core/vocabulary.js';
import type { Theme } from '../../kit/colour.js';
import { fmtNear, fmtWeight } from '../../kit/format.js';
import { orderStatistic } from '../../kit/order-statistic.js';
import type { Svg } from '../../kit/view.js';

export interface Domain { lo: number; hi: number; clipped?: boolean }

export function domainOf(heads: readonly HeadData[], mode: MatrixMode): Domain {
  // A cosine is −1..1 whatever the vectors: the fixed scale lets two heads be compared by angle alone.
  if (mode === 'cosine') return { lo: -1, hi: 1 };
  let lo = Infinity, hi = -Infinity;
  if (mode === 'weights' || mode === 'norms') {
    // From 0 to the largest weight (or norm: sizes, never below 0). With many tokens a row's weights
    // are near 1/n each and one weight of 1 (the first row of a causal mask) would wash every other
    // cell out: there the top is the 99th percentile, cells above it take the top colour, and the
    // legend says "≥". The norms have their own top, the largest α · ‖v W_O‖, never the weights' 1.
    const source = (head: HeadData) => (mode === 'norms' ? head.norms?.data ?? new Float64Array(head.masked.length) : head.weights.data);
    const n = heads[0]?.weights.rows ?? 0;
    if (n <= 32) {
      for (const head of heads) for (const w of source(head)) if (w > hi) hi = w;
      return { lo: 0, hi: hi > 0 ? hi : 1 };
    }
    const all = new Float64Array(heads.length * n * n);
    let k = 0;
    for (const head of heads) {
      const w = source(head);
      for (let c = 0; c < w.length; c++) if (!head.masked[c]) all[k++] = w[c];
    }
    // The 99th percentile and the largest, as a sort would place them, without sorting (orderStatistic).
    const picked = orderStatistic(all.subarray(0, k), Math.min(k - 1, Math.floor(k * 0.99)));
    const top = picked?.kth ?? 1;
    const max = picked?.last ?? 1;
    return { lo: 0, hi: top > 0 ? top : 1, clipped: top < max };
  }
  for (const head of heads) {
    const scores = head.scores.data;
    for (let c = 0; c < scores.length; c++) {
      if (head.masked[c]) continue;
      const v = mode === 'scaled' ? scores[c] / head.divisor : scores[c];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!Number.isFinite(lo)) return { lo: 0, hi: 1 };
  return lo === hi ? { lo: lo - 1, hi: hi + 1 } : { lo, hi };
}

/**
 * The ends of the scale as text; `terms` (d_k) says how many products made a score, so an end that
 * is rounding noise next to the other (a real head's −1.78e-15 beside 67.9) reads ≈0.
 */
export function legendEnds(dom: Domain, mode: MatrixMode, terms = 1): [string, string] {
  const size = Math.max(Math.abs(dom.lo), Math.abs(dom.hi));
  const end = (v: number) => (mode === 'weights' ? fmtWeight(v, 2) : fmtNear(v, size, terms, 2));
  return [end(dom.lo), `${dom.clipped ? '≥ ' : ''}${end(dom.hi)}`];
}

export function legend(svg: Svg, theme: Theme, x: number, y: number, dom: Domain, mode: MatrixMode, maskFill: string, hasMasked: boolean, perHead = false, terms = 1): void {
  const [loText, hiText] = legendEnds(dom, mode, terms);
  const g = svg.append('g').attr('class', 'legend').attr('transform', `translate(${x},${y})`);
  g.append('text').attr('y', 10).attr('fill', theme.muted).text(perHead ? `${MODE_LABEL[mode]}, each head on its own scale` : MODE_LABEL[mode]);
  const w = 160, steps = 32, top = 16;
  for (let s = 0; s < steps; s++) {
    g.append('rect').attr('x', (s * w) / steps).attr('y', top).attr('width', w / steps + 0.5).attr('height', 10)
      .attr('fill', theme.seq(s / (steps - 1)));
  }
  g.append('rect').attr('y', top).attr('width', w).attr('height', 10).attr('fill', 'none').attr('stroke', theme.grid);
  g.append('text').attr('y', top + 24).attr('fill', theme.fg).text(perHead ? 'lowest' : loText);
  g.append('text').attr('x', w).attr('y', top + 24).attr('text-anchor', 'end').attr('fill', theme.fg)
    .text(perHead ? 'highest' : hiText);
  if (hasMasked) {
    g.append('rect').attr('x', w + 16).attr('y', top).attr('width', 14).attr('height', 10).attr('fill', maskFill).attr('stroke', theme.grid);
    g.append('text').attr('x', w + 34).attr('y', top + 9).attr('fill', theme.fg).text('masked (weight 0)');
  }
}
