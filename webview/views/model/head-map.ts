// A signed number for every head of a model, drawn as layers × heads cells in the theme's diverging
// colours (0 the background's near-white, the scale symmetric about 0 so equal shares look equally
// strong either way), with per-layer columns beside (the MLPs, the attention's output bias) and
// single cells below (the embeddings, the final norm's bias): what direct logit attribution and
// activation patching draw. A head cell opens that head in the head view (click, or Enter on it);
// the cells are one tab stop, the arrows walk them.
import { createSvg, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip, textWidth } from '../../kit/format.js';
import { textOn } from '../../kit/colour.js';
import { rovingGrid, type GridItem } from '../../kit/keyboard.js';
import { thinnedLabels } from '../../kit/thin-labels.js';
import { finite, headName, NOTE_LINE, noteLines, shown, tipOptions, wrappedNote, type ModelViewOptions } from './common.js';

/** A column of one number per layer beside the heads (an MLP's share). */
export interface LayerColumn {
  /** Its name in data-part and in the hover ("MLP"), and its short label over the column. */
  name: string;
  label: string;
  values: readonly number[];
}

/** A number of the whole model (the embeddings' share), a cell below the grid. */
export interface SinglePart {
  name: string;
  label: string;
  value: number;
}

export interface HeadMap {
  view: 'attribution' | 'patching';
  title: string;
  note: string;
  /** [layer][head]. */
  heads: readonly (readonly number[])[];
  columns?: readonly LayerColumn[];
  singles?: readonly SinglePart[];
  /** The legend's words for each end of the scale (what a negative and a positive number mean). */
  negative: string;
  positive: string;
  /** Lines written under the legend (the total). */
  footer?: string;
  /** A value as the hover says it (with what it is a share of). */
  describe: (v: number) => string;
}

const LEFT = 44, GAP = 10, PAD = 2, MIN_CELL = 12, MAX_CELL = 44, WRITE_AT = 38, LEGEND_W = 160;

/** The largest |value| of the map's numbers (the scale's end, both ways); 1 when all are 0. */
export function symmetricScale(map: Pick<HeadMap, 'heads' | 'columns' | 'singles'>): number {
  let m = 0;
  const see = (v: number) => { if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v); };
  map.heads.forEach((row) => row.forEach(see));
  map.columns?.forEach((c) => c.values.forEach(see));
  map.singles?.forEach((s) => see(s.value));
  return m > 0 ? m : 1;
}

/** A number short enough for a cell. */
function short(v: number): string {
  const a = Math.abs(v);
  if (!Number.isFinite(v)) return '—';
  if (a !== 0 && (a >= 1e4 || a < 1e-2)) return v.toExponential(0);
  return v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

export function renderHeadMap(container: HTMLElement, map: HeadMap, options: ModelViewOptions): ViewHandle {
  const { theme } = options;
  const layers = map.heads.length, heads = map.heads[0]?.length ?? 0;
  const columns = map.columns ?? [], singles = map.singles ?? [];
  const width = Math.max(320, options.width);
  const room = width - LEFT - 12 - (columns.length ? GAP : 0);
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(room / Math.max(1, heads + columns.length)) - PAD));
  const pitch = cell + PAD;
  const gridW = heads * pitch + (columns.length ? GAP + columns.length * pitch : 0);
  const svgW = Math.max(width, LEFT + gridW + 12);
  const scale = symmetricScale(map);
  const colour = (v: number) => theme.div(finite(v) / scale);
  // Up to six lines: the note says what a score means (in a 430 px panel four cut "0 changes nothing").
  const lines = noteLines(map.note, svgW - 16, 6, theme.fontSize);
  const top = 62 + (lines.length - 1) * NOTE_LINE;
  const gridH = layers * pitch;
  // The single parts: a cell and its label each, side by side, onto more rows when narrow.
  const singleW = (s: SinglePart) => cell + 6 + textWidth(s.label, 11) + 16;
  const singleRows: SinglePart[][] = [];
  for (const s of singles) {
    const row = singleRows[singleRows.length - 1];
    const used = row?.reduce((a, o) => a + singleW(o), 0) ?? Infinity;
    if (row && used + singleW(s) <= svgW - 16) row.push(s);
    else singleRows.push([s]);
  }
  const singlesTop = top + gridH + 14;
  const legendTop = singlesTop + singleRows.length * (cell + 8) + 10;
  const footerLines = map.footer ? noteLines(map.footer, svgW - 16, 3, theme.fontSize) : [];
  // The legend's words beside its bar when they fit, else under it (on as many lines as they take).
  const meaning = `blue: ${map.negative}; red: ${map.positive}`;
  const beside = svgW - LEGEND_W - 24 >= textWidth(meaning, 11);
  const meaningLines = beside ? [meaning] : noteLines(meaning, svgW - 16, 3, 11);
  const footerTop = legendTop + (beside ? 44 : 44 + meaningLines.length * 14);
  const height = footerTop + footerLines.length * NOTE_LINE + 4;
  const svg = createSvg(container, theme, svgW, height, `${map.title}: ${layers} layers × ${heads} heads`, map.view);
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(clip(map.title, svgW - 16, 13.2))
    .call((t) => { if (clip(map.title, svgW - 16, 13.2) !== map.title) t.append('title').text(map.title); });
  wrappedNote(svg, theme, 8, 38, map.note, lines);
  // Column labels: heads counted from 1, thinned where they would touch; the columns' own names.
  const labelSize = cell < 24 ? 9 : 10;
  for (const h of thinnedLabels(heads, pitch, textWidth(`h${heads}`, labelSize) + 4)) {
    svg.append('text').attr('class', 'col-label').attr('x', LEFT + h * pitch + cell / 2).attr('y', top - 6).attr('text-anchor', 'middle')
      .attr('font-size', labelSize).attr('fill', theme.muted).text(`h${shown(h)}`);
  }
  const colX = (c: number) => LEFT + heads * pitch + GAP + c * pitch;
  columns.forEach((c, k) => {
    svg.append('text').attr('class', 'col-label').attr('x', colX(k) + cell / 2).attr('y', top - 6).attr('text-anchor', 'middle')
      .attr('font-size', labelSize).attr('fill', theme.muted).text(clip(c.label, pitch + (k === columns.length - 1 ? 12 : 0), labelSize));
  });
  const grid = svg.append('g').attr('class', 'grid')
    .attr('aria-label', `${layers} layers × ${heads} heads${columns.length ? ` and ${columns.map((c) => c.name).join(', ')}` : ''}: the arrows move between cells, Enter opens a head`);
  const items: GridItem[] = [];
  let start = 0;
  const write = (x: number, y: number, v: number, fill: string) => {
    if (cell < WRITE_AT) return;
    grid.append('text').attr('class', 'value').attr('x', x + cell / 2).attr('y', y + cell / 2 + 4).attr('text-anchor', 'middle')
      .attr('font-size', 10).attr('fill', textOn(fill)).attr('pointer-events', 'none').text(clip(short(v), cell - 2, 10));
  };
  const addCell = (x: number, y: number, v: number, attrs: Record<string, string | number>, row: number, col: number) => {
    const fill = colour(v);
    const rect = grid.append('rect').attr('class', 'cell').attr('x', x).attr('y', y).attr('width', cell).attr('height', cell)
      .attr('fill', fill).attr('stroke', theme.grid).attr('stroke-width', 0.5).attr('data-value', finite(v));
    for (const [k, a] of Object.entries(attrs)) rect.attr(k, a);
    if (options.interactive) {
      rect.attr('role', attrs['data-head'] !== undefined ? 'button' : 'img');
      items.push({ el: rect.node()!, row, col });
    }
    write(x, y, v, fill);
  };
  for (let layer = 0; layer < layers; layer++) {
    const y = top + layer * pitch;
    svg.append('text').attr('x', LEFT - 6).attr('y', y + cell / 2 + 4).attr('text-anchor', 'end').attr('fill', theme.muted)
      .attr('font-size', cell < 16 ? 9 : 11).text(`L${shown(layer)}`);
    for (let head = 0; head < heads; head++) {
      if (options.interactive && layer === options.layer && head === options.head) start = items.length;
      addCell(LEFT + head * pitch, y, map.heads[layer][head], { 'data-layer': layer, 'data-head': head, cursor: 'pointer' }, layer, head);
    }
    columns.forEach((c, k) => addCell(colX(k), y, c.values[layer], { 'data-layer': layer, 'data-part': c.name }, layer, heads + k));
  }
  singleRows.forEach((row, r) => {
    let x = 8;
    const y = singlesTop + r * (cell + 8);
    row.forEach((s, k) => {
      addCell(x, y, s.value, { 'data-part': s.name }, layers + r, k);
      svg.append('text').attr('class', 'part-label').attr('x', x + cell + 6).attr('y', y + cell / 2 + 4).text(s.label);
      x += singleW(s);
    });
  });
  // The legend: the diverging scale from −max through 0 to +max, and what each end means.
  const legend = svg.append('g').attr('class', 'legend').attr('transform', `translate(8,${legendTop})`);
  const steps = 32;
  for (let k = 0; k < steps; k++) {
    legend.append('rect').attr('x', (k * LEGEND_W) / steps).attr('y', 0).attr('width', LEGEND_W / steps + 0.5).attr('height', 10)
      .attr('fill', theme.div((k + 0.5) / steps * 2 - 1));
  }
  legend.append('rect').attr('width', LEGEND_W).attr('height', 10).attr('fill', 'none').attr('stroke', theme.grid);
  legend.append('text').attr('x', 0).attr('y', 24).attr('font-size', 10).attr('fill', theme.muted).text(`−${short(scale)}`);
  legend.append('text').attr('x', LEGEND_W / 2).attr('y', 24).attr('font-size', 10).attr('text-anchor', 'middle').attr('fill', theme.muted).text('0');
  legend.append('text').attr('x', LEGEND_W).attr('y', 24).attr('font-size', 10).attr('text-anchor', 'end').attr('fill', theme.muted).text(`+${short(scale)}`);
  meaningLines.forEach((line, k) => legend.append('text').attr('class', 'legend-meaning').attr('x', beside ? LEGEND_W + 12 : 0).attr('y', beside ? 9 : 38 + k * 14)
    .attr('font-size', 11).attr('fill', theme.muted).text(line));
  if (map.footer) wrappedNote(svg, theme, 8, footerTop, map.footer, footerLines, 'footer');
  const unwire = wireTips(svg.node()!, tipOptions(options), 'rect.cell', (el) => {
    const v = Number(el.getAttribute('data-value'));
    const layer = el.getAttribute('data-layer'), head = el.getAttribute('data-head'), part = el.getAttribute('data-part');
    if (head !== null && layer !== null) {
      const l = Number(layer), h = Number(head);
      return { lines: [headName(l, h), map.describe(v), 'click or Enter: open this head'], click: () => options.onPick?.({ view: 'head', layer: l, head: h }) };
    }
    const column = columns.find((c) => c.name === part), single = singles.find((s) => s.name === part);
    const what = column ? `${column.name} of layer ${shown(Number(layer))}` : single?.name ?? '';
    return { lines: [what, map.describe(v)] };
  });
  const unrove = options.interactive ? rovingGrid(grid.node()!, items, start) : () => {};
  const notes = [map.note, ...(map.footer ? [map.footer] : [])];
  return { svg: svg.node()!, notes, destroy: () => { unwire(); unrove(); svg.remove(); } };
}
