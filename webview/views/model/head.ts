// The head view: one head's n × n weights (rows = queries, columns = keys). Up to 64 tokens the
// cells are SVG rects with their exact value; above, one bitmap (max-pooled to ≤ 1,024 a side), and in
// the webview zoom and pan with a level of detail: after a zoom the visible window is redrawn at full
// resolution. Hover names the query and key tokens and the exact weight, and lights the row and
// column. Below, arcs keep each token's k strongest links (up to 96 tokens), and say so.
import { pointer, select, zoom, zoomIdentity, type ZoomTransform } from 'd3';
import type { ModelViewData } from '../../../src/core/model/data.js';
import { MAX_WINDOW_CELLS, maxOf, PICTURE_MAX, poolMax, SENT_PICTURE_MAX, windowWeight } from '../../../src/core/model/data.js';
import { createSvg, emptyView, note, type ViewHandle } from '../../kit/view.js';
import { wireTips } from '../../kit/tooltip.js';
import { fmt } from '../../kit/format.js';
import { clampTo, finite, heatmapHref, indicesHref, tipOptions, tokenLabel, tokenName, type ModelViewOptions } from './common.js';

/** Up to this many tokens, one SVG rect per cell (64² = 4,096 elements). */
export const SVG_CELLS_MAX = 64;
export { PICTURE_MAX };
/** The side of the blocks of exact weights a hover asks for, for a head that came as a picture (64 KiB each). */
export const HOVER_BLOCK = 128;
/** Arcs are drawn up to this many tokens (beyond, they are a solid band). */
export const ARCS_MAX = 96;

/** A float32 weight written so that it reads back as the same float32 (9 significant digits suffice). */
export function exactWeight(w: number): string {
  return Number.isFinite(w) ? String(Number(w.toPrecision(9))) : String(w);
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

export function renderModelHead(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header } = data;
  const { theme } = options;
  const n = header.tokens;
  const loaded = data.head;
  const whole = loaded?.weights && loaded.weights.length === n * n ? loaded.weights : undefined;
  const picture = !whole && loaded?.picture && loaded.picture.res === Math.min(n, SENT_PICTURE_MAX) ? loaded.picture : undefined;
  if (!loaded || (!whole && !picture)) {
    return emptyView(container, theme, options.width, 'head', `layer ${clampTo(options.layer, header.layers)} head ${clampTo(options.head, header.heads)}: loading…`);
  }
  const { layer, head } = loaded;
  // A whole head answers every weight here; a picture's weights come from windows read on request.
  const weightAt = (i: number, j: number) => windowWeight(loaded, n, i, j);
  const tokens = header.tokenTexts;
  const labelled = tokens.length === n;
  const side = Math.max(200, Math.min(760, options.width - 140, n * 40));
  const cell = side / n;
  const showLabels = cell >= 10;
  const left = showLabels ? 110 : 40, top = showLabels ? 130 : 60;
  const drawArcs = n <= ARCS_MAX && !!whole;
  const arcsHeight = drawArcs ? Math.min(240, side / 2) + 40 : 30;
  const width = left + side + 20, height = top + side + arcsHeight + 40;
  const svg = createSvg(container, theme, width, height, `Layer ${layer} head ${head}: ${n} × ${n}`, 'head');
  const max = whole ? maxOf(whole) : finite(loaded.max);
  // A short title (the picture can be 370 px wide in a narrow panel); what the axes are goes in the notes.
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`layer ${layer} head ${head}: ${n} × ${n} weights`);
  const notes: string[] = [`rows: queries, columns: keys; colour from 0 to this head's strongest weight, ${fmt(max, 4)}`];
  if (showLabels) {
    for (let i = 0; i < n; i++) {
      svg.append('text').attr('class', 'row-label').attr('x', left - 4).attr('y', top + (i + 0.5) * cell + 4).attr('text-anchor', 'end').attr('font-size', Math.min(12, cell)).text(tokenLabel(tokens, i, left - 10, 11));
      svg.append('text').attr('class', 'col-label').attr('transform', `translate(${left + (i + 0.5) * cell + 4},${top - 4}) rotate(-60)`).attr('font-size', Math.min(12, cell)).text(tokenLabel(tokens, i, 110, 11));
    }
  }
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
    if (picture.res < n) notes.push(`the picture is max-pooled to ${picture.res}×${picture.res}; zoom in for every cell`);
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
      notes.push(`the picture is max-pooled to ${res}×${res}; zoom in for every cell`);
    }
    matrix.append('image').attr('class', 'heatmap').attr('width', side).attr('height', side).attr('preserveAspectRatio', 'none')
      .attr('image-rendering', 'pixelated').attr('href', heatmapHref(picture, 0, res, res, res, max, theme, options.deflate));
  }
  const highlight = matrix.append('g').attr('class', 'highlight').attr('pointer-events', 'none');
  // Arcs: each query's k strongest keys, from the query's position to the key's, above a token line.
  const arcTop = top + side + 30;
  if (drawArcs) {
    const links = strongestLinks(whole!, n, options.k);
    const step = side / n, base = arcTop + Math.min(240, side / 2);
    const arcs = svg.append('g').attr('class', 'arcs').attr('fill', 'none');
    for (const [i, j, w] of links) {
      const x1 = left + (i + 0.5) * step, x2 = left + (j + 0.5) * step;
      const lift = Math.min(base - arcTop, Math.abs(x2 - x1) / 2 + 6);
      arcs.append('path').attr('class', 'arc').attr('data-i', i).attr('data-j', j)
        .attr('d', `M${x1},${base} Q${(x1 + x2) / 2},${base - 2 * lift} ${x2},${base}`)
        .attr('stroke', theme.focus).attr('stroke-opacity', finite(max > 0 ? 0.15 + 0.85 * w / max : 0)).attr('stroke-width', 1.5);
    }
    svg.append('line').attr('x1', left).attr('x2', left + side).attr('y1', base).attr('y2', base).attr('stroke', theme.grid);
    const arcNote = `arcs: the ${Math.min(n, options.k)} strongest links of each token's ${n} (${links.length} drawn, ${n * n - links.length} weaker ones left out)`;
    notes.push(arcNote);
    note(svg, theme, 8, base + 20, arcNote);
  } else {
    const arcNote = `arcs are drawn up to ${ARCS_MAX} tokens; this head has ${n}`;
    notes.push(arcNote);
    note(svg, theme, 8, arcTop, arcNote);
  }
  note(svg, theme, 8, 36, notes.join('; '));
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
      w === undefined ? 'weight: reading it from the file…' : `weight ${exactWeight(w)}`,
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
  }
  function light(i: number, j: number): void {
    highlight.selectAll('*').remove();
    highlight.append('rect').attr('y', i * cell).attr('width', side).attr('height', cell).attr('fill', 'none').attr('stroke', theme.accent);
    highlight.append('rect').attr('x', j * cell).attr('width', cell).attr('height', side).attr('fill', 'none').attr('stroke', theme.accent);
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
          .attr('width', Math.max(cell, 2)).attr('height', Math.max(cell, 2)).attr('fill', 'none').attr('stroke', theme.focus).attr('stroke-width', 2);
        hovered = { i: cursor.i, j: cursor.j, at: mark.node()! };
        options.tooltip?.show(describe(cursor.i, cursor.j), mark.node()!);
      };
      frame.attr('tabindex', 0).attr('role', 'application').attr('class', 'head-picture')
        .attr('aria-label', `layer ${layer} head ${head}, ${n} by ${n}: the arrows move from cell to cell, with Shift by ${step}; Home and End go to the row's ends`)
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
      .on('zoom', (e: { transform: ZoomTransform }) => { matrix.attr('transform', e.transform.toString()); })
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
