// The head view: one head's n × n weights (rows = queries, columns = keys). Up to 64 tokens the
// cells are SVG rects with their exact value; above, one bitmap (max-pooled to ≤ 1,024 a side), and in
// the webview zoom and pan with a level of detail: after a zoom the visible window is redrawn at full
// resolution. Hover names the query and key tokens and the exact weight, and lights the row and
// column. Token labels on both axes at any length (as many as fit, the visible range's after a zoom, and
// the range said under the matrix). Below, arcs keep each token's k strongest links (up to 96 tokens;
// beyond, those of the last 96 queries in view among the keys in view, following the zoom), and say so.
// A head above WHOLE_HEAD_MAX that the editor sent with its map is drawn as the map instead
// (map/map-view.ts: tiles of the level whose blocks are about a pixel, the sink keys apart).
// A model run's value-weighted norms are drawn the same way, on their own scale (this head's largest
// norm), the hover writing the product out: α × ‖v W_O‖ = the norm. A head switched off says so.
import { pointer, select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { MAX_WINDOW_CELLS, maxOf, PICTURE_MAX, poolMax, SENT_PICTURE_MAX, WHOLE_HEAD_MAX, windowWeight } from '../../../src/core/model-attention/data.js';
import { createSvg, emptyView, note, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { rovingGrid, type GridItem } from '../../kit/keyboard.js';
import { clampTo, crosshair, finite, headName, heatmapHref, indicesHref, NOTE_LINE, noteLines, shown, tipOptions, wrappedNote, tokenLabel, tokenName, type ModelViewOptions } from './common.js';
import { exactWeight } from './map/hover.js';
import { labelIndices, labelStride } from './map/axis.js';
import { renderHeadMapView, type MapHead, type MapViewOptions } from './map/map-view.js';
import { ARCS_MAX, arcWindowNote, drawArcLinks, linksInView } from './map/arcs.js';

export { ARCS_MAX, exactWeight, labelIndices, labelStride };

/** Up to this many tokens, one SVG rect per cell (64² = 4,096 elements). */
export const SVG_CELLS_MAX = 64;
export { PICTURE_MAX };
/** The side of the blocks of exact weights a hover asks for, for a head that came as a picture (64 KiB each). */
export const HOVER_BLOCK = 128;

/**
 * The hover's product for a value-weighted norm: "α 0.911 × ‖v W_O‖ 3.2 = 2.915". α is the norm over
 * ‖v_j W_O‖ (the head carries the norms and the key's value norm; their quotient is the weight to
 * float32's precision); a value of norm 0 writes nothing, so α is unknown there and said so.
 */
export function normProduct(norm: number, valueNorm: number | undefined): string {
  if (valueNorm === undefined) return `‖α v W_O‖ ${fmt(norm, 3)}`;
  if (!(valueNorm > 0)) return `α — × ‖v W_O‖ 0 = ${fmt(norm, 3)} (this key's value writes nothing)`;
  return `α ${fmt(norm / valueNorm, 3)} × ‖v W_O‖ ${fmt(valueNorm, 3)} = ${fmt(norm, 3)}`;
}

/** The k largest weights of each row: [query, key, weight] triples, O(n · k) per row. */
export function strongestLinks(weights: ArrayLike<number>, n: number, k: number): [number, number, number][] {
  const links: [number, number, number][] = [];
  const keep = Math.max(1, Math.min(n, Math.floor(k)));
  const bestJ = new Int32Array(keep), bestW = new Float64Array(keep);
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (let j = 0; j < n; j++) {
      const w = weights[i * n + j];
      if (!(w > 0)) continue;
      if (count < keep) { bestJ[count] = j; bestW[count] = w; count++; }
      else {
        let min = 0;
        for (let m = 1; m < keep; m++) if (bestW[m] < bestW[min]) min = m;
        if (w > bestW[min]) { bestJ[min] = j; bestW[min] = w; }
      }
    }
    for (let m = 0; m < count; m++) links.push([i, bestJ[m], bestW[m]]);
  }
  return links;
}

/** The zoomed picture's visible queries i0..i1 and keys j0..j1 (inclusive) and a cell's size on screen. */
export function visibleRange(n: number, side: number, t: { k: number; x: number; y: number }): { i0: number; i1: number; j0: number; j1: number; cell: number } {
  const cell = (side / n) * t.k;
  const from = (offset: number) => Math.max(0, Math.min(n - 1, Math.floor(-offset / cell + 1e-9)));
  const to = (offset: number) => Math.max(0, Math.min(n - 1, Math.ceil((side - offset) / cell - 1e-9) - 1));
  return { i0: from(t.y), i1: to(t.y), j0: from(t.x), j1: to(t.x), cell };
}

export function renderModelHead(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header } = data;
  const { theme } = options;
  const n = header.tokens;
  const loaded = data.head;
  const whole = loaded?.weights && loaded.weights.length === n * n ? loaded.weights : undefined;
  const picture = !whole && loaded?.picture && loaded.picture.res <= Math.min(n, SENT_PICTURE_MAX) ? loaded.picture : undefined;
  if (!loaded || (!whole && !picture)) {
    return emptyView(container, theme, options.width, 'head', `${headName(clampTo(options.layer, header.layers), clampTo(options.head, header.heads))}: loading…`);
  }
  const { layer, head } = loaded;
  // A big head the editor sent with its map: zoomed through tiles (map/map-view.ts).
  const map = (loaded as MapHead).map, store = (options as MapViewOptions).tiles;
  if (map && store && picture && n > WHOLE_HEAD_MAX && map.n === n) return renderHeadMapView(container, data, options, { ...loaded, map }, store);
  // A whole head answers every weight here; a picture's weights come from windows read on request.
  const weightAt = (i: number, j: number) => windowWeight(loaded, n, i, j);
  const tokens = header.tokenTexts;
  const labelled = tokens.length === n;
  // At least 200 px a side, or as much as the width leaves beside the row labels (110 px) and the
  // right margin (20): a 320 px editor got a 330 px picture, its last key cut.
  const side = Math.max(Math.min(200, options.width - 130), Math.min(760, options.width - 140, n * 40));
  const cell = side / n;
  // Token labels on both axes at every length: as many as fit, and after a zoom the visible range's.
  const max = whole ? maxOf(whole) : finite(loaded.max);
  const pooledTo = picture ? picture.res : whole ? Math.min(n, PICTURE_MAX) : n;
  const norms = !!header.norms;
  const ablated = (options.ablated ?? []).some((h) => h.layer === layer && h.head === head);
  const notes: string[] = [`${ablated ? 'ablated: this run replaced the head\'s output; ' : ''}rows: queries, columns: keys; colour from 0 to this head's ${norms ? 'largest value-weighted norm ‖α v W_O‖' : 'strongest weight'}, ${fmt(max, 4)}`];
  if (n > SVG_CELLS_MAX && pooledTo < n) notes.push(`the picture is max-pooled to ${pooledTo}×${pooledTo}; zoom in for every cell`);
  // The notes wrap above the slanted key labels (cut with "…" at 626 px, they hid the colour's range).
  const topNote = notes.join('; ');
  // As wide as the picture (a small head's is narrower than the panel: the note ran past its edge).
  const topLines = noteLines(topNote, Math.min(Math.min(760, options.width - 140) + 110, 110 + side + 20 - 16), 3, theme.fontSize);
  const left = 110, top = 130 + (topLines.length - 1) * NOTE_LINE;
  // The slanted key labels rise from the matrix's top to just under the notes' last line (a label of
  // the 110 px the row labels get reached 24 px into it: a long token's label crossed the note).
  const keyLabelPx = top - 4 - (36 + (topLines.length - 1) * NOTE_LINE + 6);
  // A whole head draws its arcs: every token's up to ARCS_MAX tokens, beyond those of a window of the
  // queries in view, following the zoom. A head that came as a picture says where its weights are read.
  const drawArcs = !!whole;
  // Below the matrix: the range it shows ("queries 40–79 × keys 12–51"), then the arcs.
  const arcsHeight = (drawArcs ? Math.min(240, side / 2) + 40 : 30) + 14;
  const width = left + side + 20, height = top + side + arcsHeight + 40;
  const svg = createSvg(container, theme, width, height, `${headName(layer, head)}: ${n} × ${n}`, 'head');
  // A short title (the picture can be 370 px wide in a narrow panel); what the axes are goes in the notes.
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`${headName(layer, head)}${ablated ? ' (ablated)' : ''}: ${n} × ${n} ${norms ? 'norms' : 'weights'}`);
  wrappedNote(svg, theme, 8, 36, topNote, topLines);
  const rowLabels = svg.append('g').attr('class', 'row-labels');
  const colLabels = svg.append('g').attr('class', 'col-labels');
  const range = svg.append('text').attr('class', 'zoom-range').attr('x', left).attr('y', top + side + 16).attr('fill', theme.muted);
  /** The axes' labels and the range line for a zoom of `t` (the identity: the whole head). */
  const drawLabels = (t: { k: number; x: number; y: number }) => {
    const view = visibleRange(n, side, t);
    const at = view.cell;
    const stride = labelStride(at);
    rowLabels.selectAll('*').remove();
    colLabels.selectAll('*').remove();
    const size = stride > 1 ? 11 : Math.min(12, at);
    const text = (i: number, px: number) => stride > 1 && labelled ? `${shown(i)} ${tokenLabel(tokens, i, px - 7 * String(shown(i)).length, 11)}` : tokenLabel(tokens, i, px, 11);
    // A label whose cell is mostly scrolled out of the frame is left out (it would sit among the other axis's).
    const inside = (centre: number) => centre >= -0.5 && centre <= side + 0.5;
    for (const i of labelIndices(view.i0, view.i1, stride)) {
      if (!inside(t.y + (i + 0.5) * at)) continue;
      rowLabels.append('text').attr('class', 'row-label').attr('data-i', i).attr('x', left - 4).attr('y', top + t.y + (i + 0.5) * at + size / 3)
        .attr('text-anchor', 'end').attr('font-size', size).text(text(i, left - 10));
    }
    for (const j of labelIndices(view.j0, view.j1, stride)) {
      if (!inside(t.x + (j + 0.5) * at)) continue;
      colLabels.append('text').attr('class', 'col-label').attr('data-j', j).attr('font-size', size)
        .attr('transform', `translate(${left + t.x + (j + 0.5) * at + size / 3},${top - 4}) rotate(-90)`).text(text(j, keyLabelPx));
    }
    const ranges = `${t.k > 1 ? 'shown: ' : ''}queries ${shown(view.i0)}–${shown(view.i1)} × keys ${shown(view.j0)}–${shown(view.j1)}`;
    const said = `${ranges}${stride > 1 ? ` (labels every ${stride})` : ''}`;
    // Under the matrix, within the picture (a narrow panel: "… (labels every 10)" ran 4 px out of a
    // 430 px editor, and there is no room beside or below it): without the labels' stride when the
    // whole line does not fit, cut as a last resort, the whole line in its hover either way.
    const room = width - left - 8;
    const fits = textWidth(said, theme.fontSize) <= room;
    range.text(fits ? said : clip(ranges, room, theme.fontSize));
    if (!fits) range.append('title').text(said);
  };
  drawLabels({ k: 1, x: 0, y: 0 });
  const clipId = `al-head-clip-${layer}-${head}-${Math.random().toString(36).slice(2, 8)}`;
  svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', side).attr('height', side);
  const frame = svg.append('g').attr('transform', `translate(${left},${top})`).attr('clip-path', `url(#${clipId})`);
  const matrix = frame.append('g').attr('class', 'matrix');
  if (whole && n <= SVG_CELLS_MAX) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        matrix.append('rect').attr('class', 'cell').attr('data-i', i).attr('data-j', j).attr('x', j * cell).attr('y', i * cell)
          .attr('width', cell).attr('height', cell).attr('fill', theme.seq(max > 0 ? finite(whole[i * n + j]) / max : 0));
      }
    }
  } else if (picture) {
    // Already pooled and coloured by the host: drawn as it came.
    matrix.append('image').attr('class', 'heatmap').attr('width', side).attr('height', side).attr('preserveAspectRatio', 'none')
      .attr('image-rendering', 'pixelated').attr('href', indicesHref(picture.indices, picture.res, picture.res, theme, options.deflate));
  } else if (whole) {
    const weights = whole;
    const res = Math.min(n, PICTURE_MAX);
    let picture: ArrayLike<number> = weights;
    if (res < n) {
      const pooled = new Float32Array(res * res);
      poolMax(weights, n, res, pooled);
      picture = pooled;
    }
    matrix.append('image').attr('class', 'heatmap').attr('width', side).attr('height', side).attr('preserveAspectRatio', 'none')
      .attr('image-rendering', 'pixelated').attr('href', heatmapHref(picture, 0, res, res, res, max, theme, options.deflate));
  }
  const highlight = matrix.append('g').attr('class', 'highlight').attr('pointer-events', 'none');
  // Arcs: each query's k strongest keys, from the query's position to the key's, above a token line.
  const arcTop = top + side + 30;
  let arcsFor: (t: { k: number; x: number; y: number }) => void = () => {};
  if (drawArcs && n <= ARCS_MAX) {
    const links = strongestLinks(whole!, n, options.k);
    const step = side / n, base = arcTop + Math.min(240, side / 2);
    drawArcLinks(svg, links, (i) => left + (i + 0.5) * step, arcTop, base, theme, max);
    svg.append('line').attr('x1', left).attr('x2', left + side).attr('y1', base).attr('y2', base).attr('stroke', theme.grid);
    const arcNote = `arcs: the ${Math.min(n, options.k)} strongest links of each token's ${n} (${links.length} drawn, ${n * n - links.length} weaker ones left out)`;
    notes.push(arcNote);
    wrappedNote(svg, theme, 8, base + 20, arcNote, noteLines(arcNote, width - 16, 2, theme.fontSize));
  } else if (drawArcs) {
    // Past ARCS_MAX tokens: the k strongest links of the queries in view (their last ARCS_MAX) among
    // the keys in view, drawn again as the view moves, and the line under them says which.
    const base = arcTop + Math.min(240, side / 2);
    const arcClip = `${clipId}-arcs`;
    svg.select('defs').append('clipPath').attr('id', arcClip).append('rect').attr('x', left).attr('y', arcTop - 10).attr('width', side).attr('height', base - arcTop + 12);
    const layer_ = svg.append('g').attr('class', 'arc-window').attr('clip-path', `url(#${arcClip})`);
    svg.append('line').attr('x1', left).attr('x2', left + side).attr('y1', base).attr('y2', base).attr('stroke', theme.grid);
    const noteAt = svg.append('g').attr('class', 'arc-note');
    arcsFor = (t) => {
      const view = visibleRange(n, side, t);
      const win = linksInView((i, j) => whole![i * n + j], view.i0, view.i1, view.j0, view.j1, options.k);
      layer_.selectAll('*').remove();
      drawArcLinks(layer_, win.links, (i) => left + t.x + (i + 0.5) * view.cell, arcTop, base, theme, max);
      const arcNote = arcWindowNote(win, Math.max(1, Math.floor(options.k)), view.i1 - view.i0 + 1);
      noteAt.selectAll('*').remove();
      wrappedNote(noteAt, theme, 8, base + 20, arcNote, noteLines(arcNote, width - 16, 2, theme.fontSize));
      notes[arcNoteAt] = arcNote;
    };
    const arcNoteAt = notes.length;
    notes.push('');
    arcsFor({ k: 1, x: 0, y: 0 });
  } else {
    const arcNote = `arcs: not drawn for a head of ${n} tokens that came as a picture; the hover reads each weight from the file`;
    notes.push(arcNote);
    note(svg, theme, 8, arcTop, arcNote);
  }
  const asked = new Set<string>();
  const describe = (i: number, j: number) => {
    const w = weightAt(i, j);
    if (w === undefined) {
      // Not here yet: ask for the block around it once; refresh() shows it when it comes.
      const i0 = Math.floor(i / HOVER_BLOCK) * HOVER_BLOCK, j0 = Math.floor(j / HOVER_BLOCK) * HOVER_BLOCK;
      const key = `${i0}:${j0}`;
      if (!asked.has(key)) { asked.add(key); options.askWindow?.(layer, head, i0, Math.min(HOVER_BLOCK, n - i0), j0, Math.min(HOVER_BLOCK, n - j0)); }
    }
    return [
      `query ${tokenName(tokens, i)} → key ${tokenName(tokens, j)}`,
      w === undefined ? `${norms ? 'norm' : 'weight'}: reading it from the file…` : norms ? normProduct(w, loaded.valueNorms?.[j]) : `weight ${exactWeight(w)}`,
      ...(labelled ? [] : ['(no tokens in the file: give X.tokens.json beside it)']),
    ];
  };
  let hovered: { i: number; j: number; at: { x: number; y: number } | Element } | undefined;
  let detailWanted: { i0: number; j0: number; rows: number; cols: number } | undefined;
  let unwire = () => {};
  if (n <= SVG_CELLS_MAX) {
    unwire = wireTips(svg.node()!, tipOptions(options), 'rect.cell', (el) => {
      const i = Number(el.getAttribute('data-i')), j = Number(el.getAttribute('data-j'));
      return { lines: describe(i, j), enter: () => light(i, j), leave: () => highlight.selectAll('*').remove() };
    });
    // The keyboard reads every cell: the matrix is one tab stop (its first cell), the arrows move.
    if (options.interactive) {
      const items: GridItem[] = [];
      matrix.selectAll<SVGRectElement, unknown>('rect.cell').each(function () {
        this.setAttribute('tabindex', '0');
        items.push({ el: this, row: Number(this.getAttribute('data-i')), col: Number(this.getAttribute('data-j')) });
      });
      const unrove = rovingGrid(matrix.node()!, items, 0);
      const unwireTips = unwire;
      unwire = () => { unrove(); unwireTips(); };
    }
  }
  function light(i: number, j: number): void {
    highlight.selectAll('*').remove();
    highlight.append('rect').attr('class', 'crosshair').attr('y', i * cell).attr('width', side).attr('height', cell).attr('fill', 'none').attr('stroke', crosshair(theme));
    highlight.append('rect').attr('class', 'crosshair').attr('x', j * cell).attr('width', cell).attr('height', side).attr('fill', 'none').attr('stroke', crosshair(theme));
  }
  if (options.interactive) {
    const node = frame.node()!;
    const hit = frame.insert('rect', ':first-child').attr('width', side).attr('height', side).attr('fill', theme.bg);
    if (n > SVG_CELLS_MAX) {
      frame.on('pointermove', (e: PointerEvent) => {
        const [x, y] = pointer(e, matrix.node()!);
        const i = Math.floor(y / cell), j = Math.floor(x / cell);
        if (i < 0 || j < 0 || i >= n || j >= n) return;
        light(i, j);
        hovered = { i, j, at: { x: e.clientX, y: e.clientY } };
        options.tooltip?.show(describe(i, j), { x: e.clientX, y: e.clientY });
      }).on('pointerleave', () => { hovered = undefined; highlight.selectAll('*').remove(); options.tooltip?.hide(); });
      // The keyboard reads the same cells: the picture is one tab stop, the arrows move a cell (with
      // Shift, a sixteenth of the head), Home/End go to the row's ends; the tooltip sits at the cell.
      let cursor = { i: n - 1, j: 0 };
      const step = Math.max(1, Math.round(n / 16));
      const show = () => {
        light(cursor.i, cursor.j);
        const mark = highlight.append('rect').attr('class', 'cursor').attr('x', cursor.j * cell).attr('y', cursor.i * cell)
          .attr('width', Math.max(cell, 2)).attr('height', Math.max(cell, 2)).attr('fill', 'none').attr('stroke', crosshair(theme)).attr('stroke-width', 2);
        hovered = { i: cursor.i, j: cursor.j, at: mark.node()! };
        options.tooltip?.show(describe(cursor.i, cursor.j), mark.node()!);
      };
      frame.attr('tabindex', 0).attr('role', 'application').attr('class', 'head-picture')
        .attr('aria-label', `${headName(layer, head)}, ${n} by ${n}: the arrows move from cell to cell, with Shift by ${step}; Home and End go to the row's ends`)
        .on('focus', show)
        .on('blur', () => { hovered = undefined; highlight.selectAll('*').remove(); options.tooltip?.hide(); })
        .on('keydown', (e: KeyboardEvent) => {
          const by = e.shiftKey ? step : 1;
          const move: Record<string, [number, number]> = { ArrowUp: [-by, 0], ArrowDown: [by, 0], ArrowLeft: [0, -by], ArrowRight: [0, by], Home: [0, -n], End: [0, n] };
          const d = move[e.key];
          if (!d) return;
          e.preventDefault();
          cursor = { i: Math.min(n - 1, Math.max(0, cursor.i + d[0])), j: Math.min(n - 1, Math.max(0, cursor.j + d[1])) };
          show();
        });
    }
    // Zoom and pan; after each zoom the visible window is redrawn at full resolution when it fits.
    const detail = () => matrix.select<SVGImageElement>('image.detail');
    const zoomer = zoom<SVGGElement, unknown>().scaleExtent([1, Math.max(1, n / 4)])
      .translateExtent([[0, 0], [side, side]]).extent([[0, 0], [side, side]])
      .on('zoom', (e: { transform: ZoomTransform }) => { matrix.attr('transform', e.transform.toString()); drawLabels(e.transform); arcsFor(e.transform); })
      .on('end', (e: { transform: ZoomTransform }) => {
        detail().remove();
        const t = e.transform;
        if (n <= SVG_CELLS_MAX || t.k === 1) return;
        const i0 = Math.max(0, Math.floor(-t.y / t.k / cell)), i1 = Math.min(n, Math.ceil((side - t.y) / t.k / cell));
        const j0 = Math.max(0, Math.floor(-t.x / t.k / cell)), j1 = Math.min(n, Math.ceil((side - t.x) / t.k / cell));
        detailWanted = undefined;
        if (i1 <= i0 || j1 <= j0) return;
        if (whole) {
          if ((i1 - i0) * (j1 - j0) <= PICTURE_MAX * PICTURE_MAX) drawDetail(whole, i0 * n + j0, n, i0, j0, i1 - i0, j1 - j0);
        } else if ((i1 - i0) * (j1 - j0) <= MAX_WINDOW_CELLS) {
          detailWanted = { i0, j0, rows: i1 - i0, cols: j1 - j0 };
          if (!showDetailWindow()) options.askWindow?.(layer, head, i0, i1 - i0, j0, j1 - j0);
        }
      });
    select(node).call(zoomer).call(zoomer.transform, zoomIdentity);
    hit.attr('pointer-events', 'all');
  }
  function drawDetail(values: ArrayLike<number>, offset: number, stride: number, i0: number, j0: number, rows: number, cols: number): void {
    matrix.select('image.detail').remove();
    matrix.insert('image', 'g.highlight').attr('class', 'detail').attr('x', j0 * cell).attr('y', i0 * cell)
      .attr('width', cols * cell).attr('height', rows * cell).attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated')
      .attr('href', heatmapHref(values, offset, stride, cols, rows, max, theme));
  }
  /** Draws the zoomed window at full resolution if a window read for it holds it; whether it did. */
  function showDetailWindow(): boolean {
    const want = detailWanted;
    const w = want && loaded!.windows?.find((x) => x.i0 <= want.i0 && x.j0 <= want.j0 && x.i0 + x.rows >= want.i0 + want.rows && x.j0 + x.cols >= want.j0 + want.cols);
    if (!want || !w) return false;
    drawDetail(w.weights, (want.i0 - w.i0) * w.cols + (want.j0 - w.j0), w.cols, want.i0, want.j0, want.rows, want.cols);
    detailWanted = undefined;
    return true;
  }
  return {
    svg: svg.node()!, notes,
    refresh: () => {
      showDetailWindow();
      if (hovered) options.tooltip?.show(describe(hovered.i, hovered.j), hovered.at);
    },
    destroy: () => { unwire(); svg.remove(); },
  };
}
