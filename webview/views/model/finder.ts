// The head finder: every head's statistics in one table, sorted by the chosen statistic (highest
// first; heads without a value, such as induction when no token repeats, last). Clicking a column's
// name sorts by it; clicking a row opens that head. Each value has a bar, so a strong head stands out.
import type { ModelViewData } from '../../../src/core/model/data.js';
import { STAT_NAMES, type HeadStats, type StatName } from '../../../src/core/tensors/head-stats.js';
import { createSvg, note, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { fmt } from '../../kit/format.js';
import { finite, tipOptions, type ModelViewOptions } from './common.js';

/** Most rows drawn (a 64 × 64 model has 4,096 heads; the table says how many are left out). */
export const FINDER_ROWS_MAX = 1024;

/** The heads sorted by `stat`, highest first, null last, ties by layer then head. */
export function sortHeads(stats: readonly HeadStats[], stat: StatName): HeadStats[] {
  return [...stats].sort((a, b) => {
    const va = a[stat], vb = b[stat];
    if (va === null || vb === null) return va === null ? (vb === null ? 0 : 1) : -1;
    return vb - va || a.layer - b.layer || a.head - b.head;
  });
}

export function renderModelFinder(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header } = data;
  const { theme } = options;
  const rows = sortHeads(header.stats, options.stat);
  const shown = rows.slice(0, FINDER_ROWS_MAX);
  const rowH = 20, top = 60, colW = 120, idW = 56; // colW: "duplicateToken" in bold is about 110 px
  const width = Math.max(options.width, 2 * idW + STAT_NAMES.length * colW + 16);
  const height = top + shown.length * rowH + 30;
  const svg = createSvg(container, theme, width, height, `Head finder: ${rows.length} heads`, 'finder');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`${rows.length} heads, sorted by ${options.stat} (highest first)`);
  const total = header.layers * header.heads;
  const reading = rows.length < total ? `reading the file: the ${rows.length} of ${total} heads read so far; ` : '';
  const notes = [`${reading}click or press Enter on a column to sort by it, on a row to open the head${rows.length > shown.length ? `; the first ${shown.length} of ${rows.length} rows are shown` : ''}`];
  note(svg, theme, 8, 34, notes[0]);
  // Each statistic's range over all heads, for the bars.
  const range = STAT_NAMES.map((k) => {
    let lo = 0, hi = 0;
    for (const s of header.stats) { const v = s[k]; if (v !== null && Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; } }
    return { lo, hi: hi > lo ? hi : lo + 1 };
  });
  const head = svg.append('g').attr('class', 'columns').attr('font-weight', 'bold');
  head.append('text').attr('x', 8).attr('y', top - 6).text('layer');
  head.append('text').attr('x', 8 + idW).attr('y', top - 6).text('head');
  STAT_NAMES.forEach((k, c) => {
    const t = head.append('text').attr('class', 'column').attr('data-stat', k).attr('x', 8 + 2 * idW + c * colW).attr('y', top - 6)
      .attr('fill', k === options.stat ? theme.focus : theme.fg).text(k === options.stat ? `${k} ▾` : k);
    if (options.interactive) t.attr('tabindex', 0).attr('role', 'button').attr('cursor', 'pointer');
  });
  const body = svg.append('g').attr('class', 'rows');
  shown.forEach((s, r) => {
    const y = top + r * rowH;
    const g = body.append('g').attr('class', 'head-row').attr('data-layer', s.layer).attr('data-head', s.head).attr('transform', `translate(0,${y})`);
    if (options.interactive) g.attr('tabindex', 0).attr('role', 'button').attr('cursor', 'pointer');
    g.append('rect').attr('width', width).attr('height', rowH).attr('fill', r % 2 ? theme.bg : theme.masked).attr('fill-opacity', 0.6);
    g.append('text').attr('x', 8).attr('y', 14).text(String(s.layer));
    g.append('text').attr('x', 8 + idW).attr('y', 14).text(String(s.head));
    STAT_NAMES.forEach((k, c) => {
      const v = s[k];
      const x = 8 + 2 * idW + c * colW;
      if (v !== null) {
        const { lo, hi } = range[c];
        g.append('rect').attr('class', 'bar').attr('x', x).attr('y', 3).attr('height', rowH - 6)
          .attr('width', finite((colW - 12) * (v - lo) / (hi - lo))).attr('fill', theme.seq(0.35)).attr('fill-opacity', 0.7);
      }
      g.append('text').attr('class', 'value').attr('data-stat', k).attr('x', x + 2).attr('y', 14).text(v === null ? '—' : fmt(v));
    });
  });
  const unwireRows = wireTips(svg.node()!, tipOptions(options), 'g.head-row', (el) => {
    const layer = Number(el.getAttribute('data-layer')), h = Number(el.getAttribute('data-head'));
    return { lines: [`layer ${layer} head ${h}: open it`], click: () => options.onPick?.({ view: 'head', layer, head: h }) };
  });
  const unwireColumns = options.interactive
    ? wireTips(svg.node()!, tipOptions(options), 'text.column', (el) => {
      const k = el.getAttribute('data-stat') as StatName;
      return { lines: [`sort by ${k}`], click: () => options.onPick?.({ stat: k }) };
    })
    : () => {};
  return { svg: svg.node()!, notes, destroy: () => { unwireRows(); unwireColumns(); svg.remove(); } };
}
