// The model view: every head of every layer as a thumbnail (max-pooled to ≤ 64 × 64, each scaled to
// its own strongest weight, so a head attending to one token still shows a bright dot), framed in
// the colour of a chosen head statistic; optionally each layer's heads sorted by it. Clicking a
// head (or Enter on it) opens it in the head view; the grid is one tab stop and the arrows walk it.
// A model run's heads switched off are hatched and labelled "ablated"; its value-weighted norms are
// drawn as its weights are, each thumbnail scaled to its own largest norm.
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import type { HeadStats } from '../../../src/core/tensors/head-stats.js';
import { createSvg, note, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip, fmt } from '../../kit/format.js';
import { rovingGrid, type GridItem } from '../../kit/keyboard.js';
import { finite, headName, NOTE_LINE, noteLines, shown, tipOptions, wrappedNote, type ModelViewOptions } from './common.js';
import { layerPicture } from './thumbnails.js';
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

/**
 * Where the grid's thumbnails go at `width` px: a cell of 20 to 96 px, as many heads per row as fit
 * (a layer of more heads than that wraps onto more rows, `bands` of them), so the grid never runs
 * past the stage (630 px of grid in a 606 px stage cut column h8).
 */
export function gridLayout(width: number, heads: number): { cell: number; perRow: number; bands: number } {
  const left = GRID_LEFT, gap = GRID_GAP, room = Math.max(0, width - left - 12);
  const perRow = Math.max(1, Math.min(heads, Math.floor(room / (20 + gap))));
  const cell = Math.max(20, Math.min(96, Math.floor(room / perRow) - gap));
  return { cell, perRow, bands: Math.ceil(heads / perRow) };
}

const GRID_LEFT = 64, GRID_GAP = 4;

export function renderModelGrid(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header } = data;
  const { theme } = options;
  const { layers, heads, thumb } = header;
  const left = GRID_LEFT, gap = GRID_GAP;
  const { cell, perRow, bands } = gridLayout(options.width, heads);
  const width = Math.max(left + perRow * (cell + gap) + 12, Math.min(options.width, 760));
  const wrapped = bands > 1;
  // A wrapped layer's rows are apart by a little more than a cell; layers by a line more.
  const layerH = bands * (cell + gap) + (wrapped ? 8 : 0);
  const stat = options.stat;
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
  const read = header.stats.length, total = layers * heads;
  // The statistics describe distributions: of norms (rows that do not sum to 1) they would mislead.
  const framed = !header.norms;
  const sorted = options.sort && framed;
  const ablated = new Set((options.ablated ?? []).map((h) => `${h.layer}.${h.head}`));
  const what = header.norms ? 'value-weighted norms ‖α v W_O‖ max-pooled' : 'max-pooled';
  const notes = [
    `${read < total ? `reading the file: ${read} of ${total} heads so far; ` : ''}${ablated.size ? `${ablated.size} head(s) ablated (hatched): ${header.norms ? 'the norms are the run\'s own, without the ablation' : 'the attention is the ablated run\'s'}; ` : ''}each thumbnail: one head's ${what} to ${thumb}×${thumb} and scaled to its own strongest ${header.norms ? 'norm' : 'weight'}; frame: ${!framed ? `no statistic (the ${stat} of norms is not the weights'; switch to the weights for it)` : same ? (Number.isFinite(lo) ? `${stat} is ${fmt(lo)} for every head read` : `no head has a ${stat}`) : `${stat} from ${fmt(finite(lo))} (blue) to ${fmt(finite(hi))} (red)`}${sorted ? `; each layer sorted by ${stat}, highest first` : ''}`,
  ];
  // The note wraps (a narrow editor cut it), and the grid starts below it.
  // Up to six lines: with heads ablated the note says so first, and four cut the frame's colours at 430 px.
  const lines = noteLines(notes[0], width - 16, 6, theme.fontSize);
  const top = 58 + (lines.length - 1) * NOTE_LINE;
  // The SVG says the warnings only where no page shows them (the editor's warning line does).
  const warnings = options.interactive ? [] : header.warnings;
  const height = top + layers * layerH + 40 + warnings.length * 14;
  const svg = createSvg(container, theme, width, height, `Model: ${layers} layers × ${heads} heads`, 'model');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold')
    .text(clip(`${header.layers} layer(s) × ${header.heads} head(s) × ${header.tokens} tokens (${header.dtype})`, width - 16, 13.2));
  wrappedNote(svg, theme, 8, 36, notes[0], lines);
  const order = headOrder(header.stats, layers, heads, stat, sorted);
  // Column names (heads counted from 1, as everywhere on screen), or places when each layer is sorted.
  // A wrapped layer names its heads in each thumbnail's corner instead.
  if (!wrapped) {
    for (let c = 0; c < heads; c++) {
      svg.append('text').attr('x', left + c * (cell + gap) + cell / 2).attr('y', top - 8).attr('text-anchor', 'middle').attr('fill', theme.muted)
        .attr('font-size', cell < 28 ? 10 : 12).text(sorted ? `#${c + 1}` : `h${shown(c)}`);
    }
  }
  const grid = svg.append('g').attr('class', 'grid')
    .attr('aria-label', `${layers} layers × ${heads} heads: the arrows move between heads and layers, Home and End to a layer's ends, Page Up and Page Down to the first and last layer, Enter opens the head${options.ablated ? ', a ablates or restores it' : ''}`);
  const items: GridItem[] = [];
  let start = 0;
  // Each layer's thumbnails as one picture, defined once (see thumbnails.ts); a cell shows its head's part.
  const defs = svg.append('defs');
  if (ablated.size) {
    // One hatch for every ablated head (the same definition wherever the grid is drawn).
    defs.append('pattern').attr('id', 'al-ablated-hatch').attr('patternUnits', 'userSpaceOnUse').attr('width', 6).attr('height', 6)
      .attr('patternTransform', 'rotate(45)')
      .append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6).attr('stroke', theme.fg).attr('stroke-width', 2).attr('stroke-opacity', 0.55);
  }
  for (let layer = 0; layer < layers; layer++) {
    const y0 = top + layer * layerH;
    const picture = layer * heads < read ? layerPicture(data, layer, theme, options.deflate) : undefined;
    if (picture) {
      defs.append('image').attr('id', picture.id).attr('width', heads * thumb).attr('height', thumb)
        .attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated').attr('href', picture.href);
    }
    svg.append('text').attr('x', left - 8).attr('y', y0 + cell / 2 + 4).attr('text-anchor', 'end').attr('fill', theme.muted).text(`L${shown(layer)}`);
    order[layer].forEach((head, c) => {
      const s = header.stats[layer * heads + head];
      const v = s?.[stat] ?? null;
      const x = left + (c % perRow) * (cell + gap), y = y0 + Math.floor(c / perRow) * (cell + gap);
      if (layer * heads + head >= read || !picture) {
        // Not read yet (the file is still being read): an empty frame, no picture, no statistic.
        grid.append('rect').attr('class', 'head-pending').attr('x', x).attr('y', y).attr('width', cell).attr('height', cell)
          .attr('fill', 'none').attr('stroke', theme.grid).attr('stroke-dasharray', '3 3');
        return;
      }
      const g = grid.append('g').attr('class', 'head-cell').attr('data-layer', layer).attr('data-head', head)
        .attr('data-stat', v === null ? '' : finite(v)).attr('transform', `translate(${x},${y})`);
      if (options.interactive) {
        g.attr('tabindex', 0).attr('role', 'button').attr('cursor', 'pointer');
        // The keyboard's row is the layer, its column the place in the layer (wrapped rows are one row).
        if (layer === options.layer && head === options.head) start = items.length;
        items.push({ el: g.node()!, row: layer, col: c });
      }
      // The head's thumbnail: a viewport of the cell's size onto its thumb × thumb of the layer's picture.
      g.append('svg').attr('class', 'thumbnail').attr('width', cell).attr('height', cell).attr('viewBox', `${head * thumb} 0 ${thumb} ${thumb}`)
        .attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated')
        .append('use').attr('href', `#${picture.id}`);
      g.append('rect').attr('class', 'frame').attr('x', -1).attr('y', -1).attr('width', cell + 2).attr('height', cell + 2).attr('fill', 'none')
        .attr('stroke', v === null || !framed ? theme.grid : theme.div(same ? 0 : finite((v - lo) / span) * 2 - 1)).attr('stroke-width', 2);
      if ((sorted || wrapped) && cell >= 28) g.append('text').attr('x', 2).attr('y', 11).attr('font-size', 9).attr('fill', theme.fg).text(`h${shown(head)}`);
      if (ablated.has(`${layer}.${head}`)) {
        g.attr('data-ablated', 'true').attr('aria-label', `${headName(layer, head)}, ablated`);
        g.append('rect').attr('class', 'ablated').attr('width', cell).attr('height', cell).attr('fill', 'url(#al-ablated-hatch)');
        if (cell >= 28) g.append('text').attr('class', 'ablated-label').attr('x', cell / 2).attr('y', cell - 4).attr('text-anchor', 'middle').attr('font-size', 9).attr('font-weight', 'bold').attr('fill', theme.fg).attr('stroke', theme.bg).attr('stroke-width', 2).attr('paint-order', 'stroke').text('ablated');
      }
    });
  }
  warnings.forEach((w, i) => note(svg, theme, 8, height - 24 - (warnings.length - 1 - i) * 14, `warning: ${w}`));
  const unwire = wireTips(svg.node()!, tipOptions(options), 'g.head-cell', (el) => {
    const layer = Number(el.getAttribute('data-layer')), head = Number(el.getAttribute('data-head'));
    const s = header.stats[layer * heads + head];
    if (!s) return undefined;
    return {
      lines: [
        `${headName(layer, head)}${ablated.has(`${layer}.${head}`) ? ' (ablated)' : ''}`,
        ...(framed ? STAT_NAMES.map((k) => `${k} ${s[k] === null ? '—' : fmt(s[k])}`) : ['value-weighted norms: the head view writes α × ‖v W_O‖ for each cell']),
        ...(options.ablated ? [`a or a right click: ${ablated.has(`${layer}.${head}`) ? 'restore' : 'ablate'} this head`] : []),
      ],
      click: () => options.onPick?.({ view: 'head', layer, head }),
    };
  });
  // One tab stop for the whole grid (the shown head's thumbnail): the arrows walk heads and layers,
  // Home/End a layer's ends, PageUp/PageDown the first and last layer.
  const unrove = rovingGrid(grid.node()!, items, start);
  const onPage = (e: KeyboardEvent) => {
    if (e.key !== 'PageUp' && e.key !== 'PageDown') return;
    const from = (e.target as Element).closest?.('g.head-cell');
    const at = items.find((it) => it.el === from);
    if (!at) return;
    e.preventDefault();
    const column = items.filter((it) => it.col === at.col);
    const to = e.key === 'PageUp' ? column[0] : column[column.length - 1];
    if (!to || to.el === at.el) return;
    at.el.removeAttribute('tabindex');
    to.el.setAttribute('tabindex', '0');
    (to.el as HTMLElement).focus();
  };
  if (options.interactive) grid.node()!.addEventListener('keydown', onPage);
  return { svg: svg.node()!, notes, destroy: () => { unwire(); unrove(); grid.node()!.removeEventListener('keydown', onPage); svg.remove(); } };
}
