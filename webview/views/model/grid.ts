// The model view: every head of every layer as a thumbnail (max-pooled to ≤ 64 × 64, each scaled to
// its own strongest weight, so a head attending to one token still shows a bright dot), framed in
// the colour of a chosen head statistic; optionally each layer's heads sorted by it. Clicking a
// head opens it in the head view.
import type { ModelViewData } from '../../../src/core/model/data.js';
import { maxOf } from '../../../src/core/model/data.js';
import type { HeadStats } from '../../../src/core/tensors/head-stats.js';
import { createSvg, note, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { fmt } from '../../kit/format.js';
import { finite, heatmapHref, tipOptions, type ModelViewOptions } from './common.js';
import { STAT_NAMES } from '../../../src/core/tensors/head-stats.js';

/** Each layer's heads in drawing order: by head number, or by `stat` descending (no value last). */
export function headOrder(stats: readonly HeadStats[], layers: number, heads: number, stat: ModelViewOptions['stat'], sort: boolean): number[][] {
  return Array.from({ length: layers }, (_, layer) => {
    const order = Array.from({ length: heads }, (_, h) => h);
    if (!sort) return order;
    const value = (h: number) => stats[layer * heads + h]?.[stat] ?? null;
    return order.sort((a, b) => {
      const va = value(a), vb = value(b);
      if (va === null || vb === null) return va === null ? (vb === null ? a - b : 1) : -1;
      return vb - va || a - b;
    });
  });
}

export function renderModelGrid(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header, thumbnails } = data;
  const { theme } = options;
  const { layers, heads, thumb } = header;
  const left = 64, top = 58, gap = 4;
  const cell = Math.max(20, Math.min(96, Math.floor((options.width - left - 12) / heads) - gap));
  const width = Math.max(left + heads * (cell + gap) + 12, Math.min(options.width, 760));
  const height = top + layers * (cell + gap) + 40;
  const svg = createSvg(container, theme, width, height, `Model: ${layers} layers × ${heads} heads`, 'model');
  const stat = options.stat;
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold')
    .text(`${header.layers} layer(s) × ${header.heads} head(s) × ${header.tokens} tokens (${header.dtype})`);
  // The frame colour: the statistic from its smallest to its largest value over all heads.
  let lo = Infinity, hi = -Infinity;
  for (const s of header.stats) {
    const v = s[stat];
    if (v !== null && Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  }
  // Heads whose statistic differs only in its last digits (rounding) are one colour: a blue-to-red
  // scale over a spread of 1e-12 would show a difference that is not there.
  const same = !(hi - lo > 1e-9 * Math.max(Math.abs(hi), Math.abs(lo)));
  const span = same ? 1 : hi - lo;
  const order = headOrder(header.stats, layers, heads, stat, options.sort);
  for (let c = 0; c < heads; c++) {
    svg.append('text').attr('x', left + c * (cell + gap) + cell / 2).attr('y', top - 8).attr('text-anchor', 'middle').attr('fill', theme.muted)
      .text(options.sort ? `#${c + 1}` : `h${c}`);
  }
  const grid = svg.append('g').attr('class', 'grid');
  const read = header.stats.length, total = layers * heads;
  for (let layer = 0; layer < layers; layer++) {
    svg.append('text').attr('x', left - 8).attr('y', top + layer * (cell + gap) + cell / 2 + 4).attr('text-anchor', 'end').attr('fill', theme.muted).text(`L${layer}`);
    order[layer].forEach((head, c) => {
      const s = header.stats[layer * heads + head];
      const v = s?.[stat] ?? null;
      const x = left + c * (cell + gap), y = top + layer * (cell + gap);
      const offset = (layer * heads + head) * thumb * thumb;
      if (layer * heads + head >= read) {
        // Not read yet (the file is still being read): an empty frame, no picture, no statistic.
        grid.append('rect').attr('class', 'head-pending').attr('x', x).attr('y', y).attr('width', cell).attr('height', cell)
          .attr('fill', 'none').attr('stroke', theme.grid).attr('stroke-dasharray', '3 3');
        return;
      }
      const g = grid.append('g').attr('class', 'head-cell').attr('data-layer', layer).attr('data-head', head)
        .attr('data-stat', v === null ? '' : finite(v)).attr('transform', `translate(${x},${y})`);
      if (options.interactive) g.attr('tabindex', 0).attr('role', 'button').attr('cursor', 'pointer');
      g.append('image').attr('width', cell).attr('height', cell).attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated')
        .attr('href', heatmapHref(thumbnails, offset, thumb, thumb, thumb, maxOf(thumbnails, offset, offset + thumb * thumb), theme, options.deflate));
      g.append('rect').attr('class', 'frame').attr('x', -1).attr('y', -1).attr('width', cell + 2).attr('height', cell + 2).attr('fill', 'none')
        .attr('stroke', v === null ? theme.grid : theme.div(same ? 0 : finite((v - lo) / span) * 2 - 1)).attr('stroke-width', 2);
      if (options.sort && cell >= 28) g.append('text').attr('x', 2).attr('y', 11).attr('font-size', 9).attr('fill', theme.fg).text(`h${head}`);
    });
  }
  const notes = [
    `${read < total ? `reading the file: ${read} of ${total} heads so far; ` : ''}each thumbnail: one head max-pooled to ${thumb}×${thumb} and scaled to its own strongest weight; frame: ${same ? (Number.isFinite(lo) ? `${stat} is ${fmt(lo)} for every head read` : `no head has a ${stat}`) : `${stat} from ${fmt(finite(lo))} (blue) to ${fmt(finite(hi))} (red)`}${options.sort ? `; each layer sorted by ${stat}, highest first` : ''}`,
  ];
  note(svg, theme, 8, 36, notes[0]);
  header.warnings.forEach((w, i) => note(svg, theme, 8, height - 24 + i * 14, `warning: ${w}`));
  const unwire = wireTips(svg.node()!, tipOptions(options), 'g.head-cell', (el) => {
    const layer = Number(el.getAttribute('data-layer')), head = Number(el.getAttribute('data-head'));
    const s = header.stats[layer * heads + head];
    if (!s) return undefined;
    return {
      lines: [`layer ${layer} head ${head}`, ...STAT_NAMES.map((k) => `${k} ${s[k] === null ? '—' : fmt(s[k])}`)],
      click: () => options.onPick?.({ view: 'head', layer, head }),
    };
  });
  return { svg: svg.node()!, notes, destroy: () => { unwire(); svg.remove(); } };
}
