// The head finder: every head's statistics in one table, sorted by the chosen statistic (highest
// first; heads without a value, such as induction when no token repeats, last). Clicking a column's
// name sorts by it; clicking a row opens that head. Each value has a bar, so a strong head stands out.
// A legend above the table says what each statistic measures (a column's hover and focus say it too).
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { STAT_NAMES, type HeadStats, type StatName } from '../../../src/core/tensors/head-stats.js';
import { createSvg, type G, type ViewHandle } from '../../kit/view.js';
import type { Theme } from '../../kit/colour.js';
import { STAT_DEFINITIONS, STAT_LEGEND_TITLE } from './stat-definitions.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { rovingGrid, type GridItem } from '../../kit/keyboard.js';
import { finite, headName, NOTE_LINE, noteLines, shown, tipOptions, wrappedNote, type ModelViewOptions } from './common.js';

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

/** The height upright column names take above the table ("duplicateToken ▾" in bold). */
const SLANT_H = 96;

/**
 * A statistic written to fit `px`: fewer digits, then a shorter exponent, never cut (a cut
 * "4.72…" of 4.72e-3 read as 4.72). The shortest form when none fits.
 */
export function fitNumber(v: number, px: number, fontSize = 12): string {
  const forms = numberForms(v);
  return forms.find((f) => numberWidth(f, fontSize) <= px) ?? narrowestForm(forms, fontSize);
}

/** The forms a statistic may be written in, longest first. */
function numberForms(v: number): string[] {
  const forms = [fmt(v, 3), fmt(v, 2), fmt(v, 1)];
  if (Number.isFinite(v) && v !== 0 && !Number.isInteger(v)) forms.push(v.toExponential(1), v.toExponential(0));
  return forms;
}

/**
 * A number's width as drawn: figures are one width in interface fonts, so a 1 is measured as a 0,
 * not as narrow as an i (counted narrow, "1.178" was given room it did not have, and a 430 px
 * finder wrote "1.1780.41").
 */
function numberWidth(f: string, fontSize: number): number {
  return textWidth(f.replace(/[0-9]/g, '0'), fontSize);
}

function narrowestForm(forms: readonly string[], fontSize: number): string {
  return forms.reduce((a, b) => (numberWidth(b, fontSize) < numberWidth(a, fontSize) ? b : a));
}

/** The room a statistic's shortest form needs at `fontSize` (0 for a head without a value). */
export function narrowestWidth(v: number | null, fontSize: number): number {
  return v === null ? 0 : numberWidth(narrowestForm(numberForms(v), fontSize), fontSize);
}

/** Space kept between a number and the next column's (a 430 px finder wrote 2e-10 and 4e-5 as "2e-104e-5"). */
export const VALUE_GAP = 6;

/**
 * The finder's columns at `width` px: layer and head 40 px each, the statistics sharing the rest
 * (36 to 120 px each); when the widest name in bold does not fit a column, the names stand upright.
 */
export function finderLayout(width: number, need = 0): { colW: number; idW: number; slant: boolean } {
  // Layer and head numbers are short: 40 px holds "layer" in bold with room to spare.
  const idW = 40;
  // `need`: the widest number's shortest form; a column is never narrower than it and the gap (the
  // table then scrolls sideways rather than run two numbers together).
  const colW = Math.max(36, Math.ceil(need) + VALUE_GAP, Math.min(120, Math.floor((width - 16 - 2 * idW) / STAT_NAMES.length)));
  const widest = STAT_NAMES.reduce((m, k) => Math.max(m, textWidth(`${k} ▾`, 12 * 1.1)), 0);
  return { colW, idW, slant: widest + 6 > colW };
}

/**
 * The legend's entries, each over its lines (the second and later indented). One text a line: a bold
 * name in a tspan of its own ran 1 px into its definition in Chromium.
 */
function drawLegend(g: G, theme: Theme, y0: number, entries: readonly string[][]): void {
  let y = y0;
  for (const entryLines of entries) {
    entryLines.forEach((line, k) => {
      g.append('text').attr('class', 'legend-line').attr('x', k === 0 ? 8 : 16).attr('y', y).attr('fill', theme.muted).text(line);
      y += NOTE_LINE;
    });
  }
}

export function renderModelFinder(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header } = data;
  const { theme } = options;
  const rows = sortHeads(header.stats, options.stat);
  const drawn = rows.slice(0, FINDER_ROWS_MAX);
  // The table fits the width it is given (at 626 px its last three columns were off-screen, the only
  // scrollbar under every row): the columns share it, and names too long for a column stand upright.
  let need = 0;
  for (const s of drawn) for (const k of STAT_NAMES) need = Math.max(need, narrowestWidth(s[k], theme.fontSize));
  const { colW, idW, slant } = finderLayout(options.width, need);
  const width = Math.max(options.width, 16 + 2 * idW + STAT_NAMES.length * colW);
  const total = header.layers * header.heads;
  const reading = rows.length < total ? `reading the file: the ${rows.length} of ${total} heads read so far; ` : '';
  const notes = [`${reading}click or press Enter on a column to sort by it, on a row to open the head (layers and heads counted from 1)${rows.length > drawn.length ? `; the first ${drawn.length} of ${rows.length} rows are shown` : ''}`];
  const lines = noteLines(notes[0], width - 16, 4, theme.fontSize);
  // What each statistic measures, on screen above the table (a column's hover and focus say it too).
  const legend = [STAT_LEGEND_TITLE, ...STAT_NAMES.map((k) => `${k}: ${STAT_DEFINITIONS[k]}`)].map((entry) => noteLines(entry, width - 24, 3, theme.fontSize));
  const legendTop = 34 + lines.length * NOTE_LINE + 6;
  const legendH = legend.reduce((h, l) => h + l.length, 0) * NOTE_LINE;
  notes.push(legend.map((l) => l.join(' ')).join(' '));
  const rowH = 20, top = 60 + (lines.length - 1) * NOTE_LINE + legendH + 12 + (slant ? SLANT_H : 0);
  const height = top + drawn.length * rowH + 30;
  const svg = createSvg(container, theme, width, height, `Head finder: ${rows.length} heads`, 'finder');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(clip(`${rows.length} heads, sorted by ${options.stat} (highest first)`, width - 16, 13.2));
  wrappedNote(svg, theme, 8, 34, notes[0], lines);
  drawLegend(svg.append('g').attr('class', 'legend'), theme, legendTop, legend);
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
    const x = 8 + 2 * idW + c * colW;
    const t = head.append('text').attr('class', 'column').attr('data-stat', k).attr('x', x).attr('y', top - 6)
      .attr('fill', k === options.stat ? theme.focus : theme.fg).text(k === options.stat ? `${k} ▾` : k);
    if (slant) t.attr('x', 0).attr('y', 0).attr('transform', `translate(${x + 12},${top - 6}) rotate(-90)`);
    if (options.interactive) t.attr('tabindex', 0).attr('role', 'button').attr('cursor', 'pointer').attr('aria-label', `${k}: ${STAT_DEFINITIONS[k]}; sort by it`);
    else t.append('title').text(`${k}: ${STAT_DEFINITIONS[k]}`);
  });
  const body = svg.append('g').attr('class', 'rows');
  // The rows are one tab stop (up to 1,024 of them): the arrows move between them.
  const rowItems: GridItem[] = [];
  drawn.forEach((s, r) => {
    const y = top + r * rowH;
    const g = body.append('g').attr('class', 'head-row').attr('data-layer', s.layer).attr('data-head', s.head).attr('transform', `translate(0,${y})`);
    if (options.interactive) { g.attr('tabindex', 0).attr('role', 'button').attr('cursor', 'pointer'); rowItems.push({ el: g.node()!, row: r, col: 0 }); }
    g.append('rect').attr('width', width).attr('height', rowH).attr('fill', r % 2 ? theme.bg : theme.masked).attr('fill-opacity', 0.6);
    g.append('text').attr('x', 8).attr('y', 14).text(String(shown(s.layer)));
    g.append('text').attr('x', 8 + idW).attr('y', 14).text(String(shown(s.head)));
    STAT_NAMES.forEach((k, c) => {
      const v = s[k];
      const x = 8 + 2 * idW + c * colW;
      if (v !== null) {
        const { lo, hi } = range[c];
        g.append('rect').attr('class', 'bar').attr('x', x).attr('y', 3).attr('height', rowH - 6)
          .attr('width', finite((colW - 12) * (v - lo) / (hi - lo))).attr('fill', theme.seq(0.35)).attr('fill-opacity', 0.7);
      }
      g.append('text').attr('class', 'value').attr('data-stat', k).attr('x', x + 2).attr('y', 14).text(v === null ? '—' : fitNumber(v, colW - VALUE_GAP, theme.fontSize));
    });
  });
  const unwireRows = wireTips(svg.node()!, tipOptions(options), 'g.head-row', (el) => {
    const layer = Number(el.getAttribute('data-layer')), h = Number(el.getAttribute('data-head'));
    const s = header.stats.find((x) => x.layer === layer && x.head === h);
    return { lines: [`${headName(layer, h)}: open it`, ...(s ? STAT_NAMES.map((k) => `${k} ${s[k] === null ? '—' : fmt(s[k])}`) : [])], click: () => options.onPick?.({ view: 'head', layer, head: h }) };
  });
  const unwireColumns = options.interactive
    ? wireTips(svg.node()!, tipOptions(options), 'text.column', (el) => {
      const k = el.getAttribute('data-stat') as StatName;
      return { lines: [`${k}: ${STAT_DEFINITIONS[k]}`, `click or Enter: sort by ${k}`], click: () => options.onPick?.({ stat: k }) };
    })
    : () => {};
  const unrove = rovingGrid(body.node()!, rowItems, 0);
  return { svg: svg.node()!, notes, destroy: () => { unwireRows(); unwireColumns(); unrove(); svg.remove(); } };
}
