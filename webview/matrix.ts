// The attention matrix of one head (or of every head, side by side): rows are queries, columns
// are keys, colour is the raw score, the scaled score or the weight. Masked cells are hatched and
// labelled. Hover a cell: the dot product term by term, the scaling, the weight, its row and
// column outlined. Small inputs draw one <rect> per cell (data-query, data-key, data-head); large
// ones (more than CANVAS_ABOVE tokens) paint a canvas and find the cell under the pointer.
import { at, row, scaledAt, isMasked } from '../src/core/model/attention-data.js';
import { rgb, select } from 'd3';
import type { AttentionData, HeadData, InputData } from '../src/core/model/attention-data.js';
import type { Theme } from './colour.js';
import { textOn } from './colour.js';
import { clip, dotTerms, fmt, textWidth } from './format.js';
import { rovingGrid } from './keyboard.js';
import { wireTips, type Tip } from './tooltip.js';
import { maxOf } from '../src/core/extent.js';
import { pairGeometry } from '../src/core/linalg/geometry.js';
import {
  clampIndex, createSvg, emptyView, hatch, note, type G, type MatrixMode, type Svg, type ViewFn, type ViewHandle,
} from './view.js';

/** Above this many tokens, or this many cells in all, the panel paints cells on a canvas. */
export const CANVAS_ABOVE = 128;
export const MAX_SVG_CELLS = 4096;
/** `attn render` draws at most this many cells in all: above, blocks of cells (jsdom is slow). */
export const MAX_STATIC_CELLS = 8192;
/** Height of a head's name and shape above its matrix. */
const HEAD_TITLE_H = 32;

export const MODE_LABEL: Record<MatrixMode, string> = {
  scores: 'raw scores q·k',
  scaled: 'scaled scores q·k ÷ s',
  weights: 'weights (softmax of each row)',
  cosine: 'cosine q·k ÷ (|q||k|): direction only',
};

export function divisorText(data: AttentionData, head: HeadData): string {
  if (data.scale === 'sqrt_dk') return `√${head.dk} ≈ ${fmt(head.divisor)}`;
  if (data.scale === 'none') return '1 (no scaling)';
  return fmt(head.divisor);
}

export function value(head: HeadData, mode: MatrixMode, i: number, j: number): number | null {
  if (isMasked(head, i, j)) return null;
  if (mode === 'cosine') return pairGeometry(row(head.q, i), row(head.k, j)).cos;
  return mode === 'weights' ? at(head.weights, i, j) : mode === 'scaled' ? scaledAt(head, i, j) : at(head.scores, i, j);
}

/** The hover text of one cell, also the <title> of the cell in `attn render`. */
export function cellLines(data: AttentionData, input: InputData, h: number, i: number, j: number): string[] {
  const head = input.heads[h];
  const tq = input.tokens[i], tk = input.tokens[j];
  const lines = [`${tq} → ${tk} (query ${i + 1}, key ${j + 1}) · head "${head.name}"`];
  if (isMasked(head, i, j)) {
    lines.push(`masked: "${tq}" may not attend to "${tk}", weight 0`);
    return lines;
  }
  lines.push(`q_${tq} · k_${tk} = ${dotTerms(row(head.q, i), row(head.k, j), at(head.scores, i, j))}`);
  const g = pairGeometry(row(head.q, i), row(head.k, j));
  lines.push(`= |q||k| cos θ = ${fmt(g.qNorm, 2)} · ${fmt(g.kNorm, 2)} · ${g.cos.toFixed(3)} (θ = ${fmt(g.degrees, 1)}°)`);
  lines.push(`scaled: ${fmt(at(head.scores, i, j))} ÷ ${divisorText(data, head)} = ${fmt(scaledAt(head, i, j))}`);
  lines.push(`weight: ${fmt(at(head.weights, i, j), 4)} (softmax of row "${tq}")`);
  return lines;
}

interface Domain { lo: number; hi: number; clipped?: boolean }

function domainOf(heads: readonly HeadData[], mode: MatrixMode): Domain {
  // A cosine is −1..1 whatever the vectors: the fixed scale lets two heads be compared by angle alone.
  if (mode === 'cosine') return { lo: -1, hi: 1 };
  let lo = Infinity, hi = -Infinity;
  if (mode === 'weights') {
    // From 0 to the largest weight. With many tokens a row's weights are near 1/n each and one
    // weight of 1 (the first row of a causal mask) would wash every other cell out: there the top
    // is the 99th percentile, cells above it take the top colour, and the legend says "≥".
    const n = heads[0]?.weights.rows ?? 0;
    if (n <= 32) {
      for (const head of heads) for (const w of head.weights.data) if (w > hi) hi = w;
      return { lo: 0, hi: hi > 0 ? hi : 1 };
    }
    const all = new Float64Array(heads.length * n * n);
    let k = 0;
    for (const head of heads) {
      const w = head.weights.data;
      for (let c = 0; c < w.length; c++) if (!head.masked[c]) all[k++] = w[c];
    }
    const used = all.subarray(0, k).sort();
    const top = used[Math.min(k - 1, Math.floor(k * 0.99))] ?? 1;
    const max = used[k - 1] ?? 1;
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

function legend(svg: Svg, theme: Theme, x: number, y: number, dom: Domain, mode: MatrixMode, maskFill: string, hasMasked: boolean, perHead = false): void {
  const g = svg.append('g').attr('class', 'legend').attr('transform', `translate(${x},${y})`);
  g.append('text').attr('y', 10).attr('fill', theme.muted).text(perHead ? `${MODE_LABEL[mode]}, each head on its own scale` : MODE_LABEL[mode]);
  const w = 160, steps = 32, top = 16;
  for (let s = 0; s < steps; s++) {
    g.append('rect').attr('x', (s * w) / steps).attr('y', top).attr('width', w / steps + 0.5).attr('height', 10)
      .attr('fill', theme.seq(s / (steps - 1)));
  }
  g.append('rect').attr('y', top).attr('width', w).attr('height', 10).attr('fill', 'none').attr('stroke', theme.grid);
  g.append('text').attr('y', top + 24).attr('fill', theme.fg).text(perHead ? 'lowest' : fmt(dom.lo, 2));
  g.append('text').attr('x', w).attr('y', top + 24).attr('text-anchor', 'end').attr('fill', theme.fg)
    .text(perHead ? 'highest' : `${dom.clipped ? '≥ ' : ''}${fmt(dom.hi, 2)}`);
  if (hasMasked) {
    g.append('rect').attr('x', w + 16).attr('y', top).attr('width', 14).attr('height', 10).attr('fill', maskFill).attr('stroke', theme.grid);
    g.append('text').attr('x', w + 34).attr('y', top + 9).attr('fill', theme.fg).text('masked (weight 0)');
  }
}

interface Block {
  /** Cell size in pixels. */
  cell: number;
  /** Tokens per drawn cell (1 unless a static render of a large input). */
  stride: number;
  labelW: number;
  labelH: number;
  width: number;
  height: number;
}

function layoutBlock(tokens: readonly string[], n: number, cell: number, stride: number, fontSize: number): Block {
  const m = Math.ceil(n / stride);
  const showLabels = cell >= 7;
  const longest = showLabels ? Math.min(110, Math.max(maxOf(tokens, (t) => textWidth(t, fontSize)), 10)) : 0;
  const labelW = showLabels ? longest + 8 : 28;
  const labelH = showLabels ? (cell >= textWidth('wwwwww', fontSize) ? fontSize + 8 : longest * 0.72 + 12) : 18;
  return { cell, stride, labelW, labelH, width: labelW + m * cell, height: labelH + m * cell + HEAD_TITLE_H + 4 };
}

export const renderMatrix: ViewFn = (container, data, options): ViewHandle => {
  const theme = options.theme;
  const input = data.inputs[clampIndex(options.input, data.inputs.length)];
  if (!input || input.tokens.length === 0) return emptyView(container, theme, options.width, 'matrix', 'No tokens to draw.');
  if (input.heads.length === 0) return emptyView(container, theme, options.width, 'matrix', 'No heads to draw.');
  const n = input.tokens.length;
  const mode = options.matrixMode;
  const notes: string[] = [];
  const heads = options.head === 'all' ? input.heads.map((_, h) => h) : [clampIndex(options.head, input.heads.length)];
  const useCanvas = options.interactive && (n > CANVAS_ABOVE || heads.length * n * n > MAX_SVG_CELLS);
  const maxSide = Math.max(16, Math.floor(Math.sqrt(MAX_STATIC_CELLS / heads.length)));
  const stride = !options.interactive && n > maxSide ? Math.ceil(n / maxSide) : 1;
  if (stride > 1) notes.push(`${n} tokens: each cell is a block of ${stride}×${stride} token pairs (its mean)`);
  const m = Math.ceil(n / stride);
  const fs = theme.fontSize;
  const pad = 8, gap = 24;
  const avail = Math.max(200, options.width - 2 * pad);
  // Cell size: as large as fits (up to 44 px), with every head side by side when there is room.
  const probe = layoutBlock(input.tokens, n, 10, stride, fs);
  const minCell = useCanvas ? 1 : 2;
  const rawCell = (perRow: number) => Math.floor((avail - perRow * (probe.labelW + gap)) / (perRow * m));
  const cellFor = (perRow: number) => Math.max(minCell, Math.min(44, rawCell(perRow)));
  const tallness = (perRow: number, c: number) => Math.ceil(heads.length / perRow) * (probe.labelH + m * c + HEAD_TITLE_H + 16);
  let perRow = heads.length;
  let cell = cellFor(perRow);
  while (perRow > 1 && cell < 22) {
    perRow -= 1;
    cell = cellFor(perRow);
  }
  // Small multiples: one head per row made 8 heads of 64 tokens a page thousands of pixels tall.
  // When the heads would stand taller than 1.5 panel widths, pick the grid with the largest cells
  // that fits, each head on its own colour scale (a weak head is still readable beside a sharp one).
  const smallMultiples = heads.length > 1 && tallness(perRow, cell) > 1.5 * avail;
  if (smallMultiples) {
    // Only grids that fit the width (a clamped cell would push the last heads off the right edge);
    // among those, the largest cells within the height, else the widest grid that fits.
    const fitting = Array.from({ length: heads.length }, (_, k) => k + 1).filter((p) => p === 1 || rawCell(p) >= minCell);
    let best = { perRow: fitting[fitting.length - 1], cell: cellFor(fitting[fitting.length - 1]) };
    for (const p of fitting) {
      const c = cellFor(p);
      if (tallness(p, c) <= 1.5 * avail && c > best.cell) best = { perRow: p, cell: c };
    }
    ({ perRow, cell } = best);
    notes.push(`${heads.length} heads as small multiples: each head coloured from its own lowest to its own highest value`);
  }
  const block = layoutBlock(input.tokens, n, cell, stride, Math.min(fs, Math.max(8, cell - 2)));
  const rowsOfHeads = Math.ceil(heads.length / perRow);
  const titleH = 22 + notes.length * 16;
  const legendH = 52;
  const width = Math.max(options.width, pad * 2 + perRow * (block.width + gap));
  const height = titleH + rowsOfHeads * (block.height + 12) + legendH;
  const svg = createSvg(container, theme, width, height, `Attention matrix of "${input.name}", ${MODE_LABEL[mode]}`, 'matrix');
  const maskFill = hatch(svg, theme);
  svg.append('text').attr('class', 'title').attr('x', pad).attr('y', 16).attr('font-weight', 600)
    .text(clip(`${input.name}: ${MODE_LABEL[mode]}, rows = queries, columns = keys`, width - 2 * pad, theme.fontSize * 1.1));
  notes.forEach((t, k) => note(svg, theme, pad, 34 + k * 16, t));

  const dom = domainOf(heads.map((h) => input.heads[h]), mode);
  const domains = new Map(heads.map((h) => [h, smallMultiples ? domainOf([input.heads[h]], mode) : dom]));
  // 0..1 on the colour scale of head h; a domain too wide or too narrow for doubles (all scores
  // equal and huge) gives NaN here, which must become a colour, not `fill="undefined"`.
  const norm = (v: number, h: number) => {
    const d = domains.get(h) ?? dom;
    const t = (v - d.lo) / (d.hi - d.lo);
    return Number.isFinite(t) ? Math.max(0, Math.min(1, t)) : 0.5;
  };
  // 256 colours computed once: 16,384 cells then cost a lookup each, not an interpolation.
  const lut = Array.from({ length: 256 }, (_, k) => theme.seq(k / 255));
  const colour = (v: number, h: number) => lut[Math.max(0, Math.min(255, Math.round(norm(v, h) * 255)))];
  const rgbLut = lut.map((c) => { const r = rgb(c); return [r.r, r.g, r.b] as [number, number, number]; });
  let hasMasked = false;
  const cellsG: G[] = [];
  const canvasBox: { x: number; y: number; w: number; h: number; head: number }[] = [];
  const labelFs = Math.min(fs, Math.max(8, cell - 2));
  const showValues = stride === 1 && cell >= 26;

  heads.forEach((h, k) => {
    const head = input.heads[h];
    const ox = pad + (k % perRow) * (block.width + gap);
    const oy = titleH + Math.floor(k / perRow) * (block.height + 12);
    const g = svg.append('g').attr('class', 'head-matrix').attr('data-head', h).attr('transform', `translate(${ox},${oy})`);
    // The head's name, then its shape and scaling on a second, quieter line.
    const room = (k % perRow === perRow - 1 ? width - ox - pad : block.width + gap - 8) - block.labelW;
    g.append('text').attr('class', 'head-name').attr('x', block.labelW).attr('y', 12).attr('font-weight', 600)
      .attr('fill', theme.heads[h % theme.heads.length]).text(clip(`head "${head.name}"`, room, fs));
    g.append('text').attr('class', 'head-shape').attr('x', block.labelW).attr('y', 27).attr('fill', theme.muted)
      .attr('font-size', fs - 1).text(clip(`d_k ${head.dk}, ÷ ${divisorText(data, head)}`, room, fs - 1));
    const gx = block.labelW, gy = block.labelH + HEAD_TITLE_H;
    // Token labels: queries down the left, keys along the top (slanted when the cells are narrow).
    if (cell >= 7) {
      const everyK = 1;
      const lab = g.append('g').attr('class', 'labels').attr('font-size', labelFs);
      for (let i = 0; i < n; i += everyK * stride) {
        const t = input.tokens[i];
        lab.append('text').attr('class', 'row-label token hot').attr('data-token', i).attr('data-head', h)
          .attr('x', gx - 4).attr('y', gy + (i / stride) * cell + cell / 2 + labelFs * 0.35).attr('text-anchor', 'end')
          .text(clip(t, block.labelW - 8, labelFs));
        const slanted = block.labelH > labelFs + 8;
        const cx = gx + (i / stride) * cell + cell / 2;
        lab.append('text').attr('class', 'col-label token hot').attr('data-token', i).attr('data-head', h)
          .attr('x', cx).attr('y', gy - 4)
          .attr('text-anchor', slanted ? 'start' : 'middle')
          .attr('transform', slanted ? `rotate(-45 ${cx} ${gy - 4})` : null)
          .text(clip(t, 110, labelFs));
      }
    } else {
      g.append('text').attr('x', gx).attr('y', gy - 4).attr('fill', theme.muted).text(`keys 1–${n} →`);
      g.append('text').attr('x', gx - fs - 4).attr('y', gy).attr('fill', theme.muted)
        .attr('transform', `rotate(90 ${gx - fs - 4} ${gy})`).text(`queries 1–${n} →`);
    }
    if (useCanvas) {
      canvasBox.push({ x: ox + gx, y: oy + gy, w: m * cell, h: m * cell, head: h });
      if (head.masked.includes(1)) hasMasked = true;
      return;
    }
    // Cell borders are set once on the group: every attribute fewer per cell counts at 16,384 cells.
    const cells = g.append('g').attr('class', 'cells').attr('transform', `translate(${gx},${gy})`)
      .attr('stroke', cell >= 6 ? theme.bg : 'none').attr('stroke-width', cell >= 6 ? 1 : 0);
    cellsG.push(cells as unknown as G);
    // Plain DOM calls in this loop: it runs up to 16,384 times per head.
    const cellsNode = cells.node()!;
    const doc = cellsNode.ownerDocument;
    const SVG = 'http://www.w3.org/2000/svg';
    const frag = doc.createDocumentFragment();
    for (let bi = 0; bi < m; bi++) {
      for (let bj = 0; bj < m; bj++) {
        const i = bi * stride, j = bj * stride;
        let v: number | null;
        if (stride === 1) v = value(head, mode, i, j);
        else {
          let sum = 0, cnt = 0;
          for (let a = i; a < Math.min(n, i + stride); a++) for (let b = j; b < Math.min(n, j + stride); b++) {
            const x = value(head, mode, a, b);
            if (x !== null) { sum += x; cnt++; }
          }
          v = cnt ? sum / cnt : null;
        }
        if (v === null) hasMasked = true;
        const fill = v === null ? maskFill : colour(v, h);
        const rect = doc.createElementNS(SVG, 'rect');
        rect.setAttribute('class', v === null ? 'cell hot masked' : 'cell hot');
        rect.setAttribute('data-query', String(i));
        rect.setAttribute('data-key', String(j));
        rect.setAttribute('data-head', String(h));
        rect.setAttribute('x', String(bj * cell));
        rect.setAttribute('y', String(bi * cell));
        rect.setAttribute('width', String(cell));
        rect.setAttribute('height', String(cell));
        rect.setAttribute('fill', fill);
        if (stride > 1) rect.setAttribute('data-block', String(stride));
        frag.appendChild(rect);
        if (showValues) {
          const text = v === null ? (cell >= 44 ? 'masked' : '×') : Math.abs(v) < 0.005 && v !== 0 ? '0' : fmt(v, cell >= 40 ? 2 : 1);
          if (textWidth(text, labelFs) <= cell - 3) {
            const t = doc.createElementNS(SVG, 'text');
            t.setAttribute('class', 'value');
            t.setAttribute('pointer-events', 'none');
            t.setAttribute('stroke', 'none');
            t.setAttribute('x', String(bj * cell + cell / 2));
            t.setAttribute('y', String(bi * cell + cell / 2 + labelFs * 0.35));
            t.setAttribute('text-anchor', 'middle');
            t.setAttribute('font-size', String(labelFs));
            t.setAttribute('fill', v === null ? theme.fg : textOn(fill));
            t.textContent = text;
            frag.appendChild(t);
          }
        }
      }
    }
    cellsNode.appendChild(frag);
    g.append('rect').attr('class', 'frame').attr('x', gx).attr('y', gy).attr('width', m * cell).attr('height', m * cell)
      .attr('fill', 'none').attr('stroke', theme.grid);
  });
  legend(svg, theme, pad, height - legendH + 6, dom, mode, maskFill, hasMasked, smallMultiples);

  // Highlight of the hovered cell's row and column: two outlines, drawn above the cells.
  const hl = svg.append('g').attr('class', 'highlight').attr('pointer-events', 'none');
  const headOrigin = (h: number) => {
    const k = heads.indexOf(h);
    const ox = pad + (k % perRow) * (block.width + gap) + block.labelW;
    const oy = titleH + Math.floor(k / perRow) * (block.height + 12) + block.labelH + HEAD_TITLE_H;
    return { ox, oy };
  };
  const highlight = (h: number, i: number, j: number) => {
    hl.selectAll('*').remove();
    const { ox, oy } = headOrigin(h);
    const bi = Math.floor(i / stride), bj = Math.floor(j / stride);
    const line = { fill: 'none', stroke: theme.accent, 'stroke-width': 2 };
    const r1 = hl.append('rect').attr('x', ox).attr('y', oy + bi * cell).attr('width', m * cell).attr('height', cell);
    const r2 = hl.append('rect').attr('x', ox + bj * cell).attr('y', oy).attr('width', cell).attr('height', m * cell);
    const r3 = hl.append('rect').attr('x', ox + bj * cell - 1).attr('y', oy + bi * cell - 1).attr('width', cell + 2).attr('height', cell + 2);
    for (const r of [r1, r2]) for (const [k, v] of Object.entries(line)) r.attr(k, v);
    r3.attr('fill', 'none').attr('stroke', theme.focus).attr('stroke-width', 3);
  };
  const clear = () => { hl.selectAll('*').remove(); };

  const describe = (el: Element): Tip | undefined => {
    const h = Number(el.getAttribute('data-head'));
    if (el.classList.contains('token')) {
      const t = Number(el.getAttribute('data-token'));
      return {
        lines: [`${input.tokens[t]} (token ${t + 1} of "${input.name}")`, 'click: show it in the spec and pick it'],
        reveal: { kind: 'token', input: options.input, token: t },
        click: () => options.onPick?.({ token: t }),
      };
    }
    const i = Number(el.getAttribute('data-query')), j = Number(el.getAttribute('data-key'));
    if (!Number.isInteger(i) || !Number.isInteger(j)) return undefined;
    const lines = stride > 1
      ? [`queries ${i + 1}–${Math.min(n, i + stride)} × keys ${j + 1}–${Math.min(n, j + stride)}, head "${input.heads[h].name}"`,
        blockMeanText(MODE_LABEL[mode], meanBlock(input.heads[h], mode, i, j, stride, n))]
      : cellLines(data, input, h, i, j);
    return {
      lines,
      enter: () => highlight(h, i, j),
      leave: clear,
      reveal: { kind: 'token', input: options.input, token: i },
      click: () => options.onPick?.({ token: i }),
    };
  };
  const cleanups: (() => void)[] = [];
  const svgNode = svg.node()!;
  cleanups.push(wireTips(svgNode, options, '.hot', describe));

  const canvases: HTMLCanvasElement[] = [];
  const wrap = useCanvas ? select(container).append('div').attr('class', 'canvas-layer') : undefined;
  if (wrap) cleanups.push(() => wrap.remove());
  for (const box of useCanvas ? canvasBox : []) {
    const head = input.heads[box.head];
    const canvas = wrap!.append('canvas').attr('class', 'matrix-canvas').node()!;
    canvases.push(canvas);
    const dpr = container.ownerDocument.defaultView?.devicePixelRatio ?? 1;
    canvas.width = Math.ceil(box.w * dpr);
    canvas.height = Math.ceil(box.h * dpr);
    canvas.style.width = `${box.w}px`;
    canvas.style.height = `${box.h}px`;
    canvas.style.left = `${box.x}px`;
    canvas.style.top = `${box.y}px`;
    canvas.dataset.x = String(box.x);
    canvas.dataset.y = String(box.y);
    canvas.dataset.head = String(box.head);
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'application');
    canvas.setAttribute('aria-label', `${n}×${n} attention matrix, head "${head.name}": arrow keys move between cells`);
    const ctx = canvas.getContext('2d');
    if (ctx) paintCells(ctx, canvas.width, canvas.height, n, cell * dpr, (i, j) => {
      const v = value(head, mode, i, j);
      return v === null ? -1 : Math.max(0, Math.min(255, Math.round(norm(v, box.head) * 255)));
    }, rgbLut, theme);
    let active: [number, number] = [clampIndex(options.token, n), 0];
    const at = (e: PointerEvent): [number, number] | undefined => {
      const r = canvas.getBoundingClientRect();
      const i = Math.floor((e.clientY - r.top) / cell), j = Math.floor((e.clientX - r.left) / cell);
      return i >= 0 && j >= 0 && i < n && j < n ? [i, j] : undefined;
    };
    const show = (i: number, j: number, anchor: { x: number; y: number } | Element) => {
      highlight(box.head, i, j);
      options.tooltip?.show(cellLines(data, input, box.head, i, j), anchor);
    };
    const move = (e: Event) => {
      const p = at(e as PointerEvent);
      if (!p) return;
      active = p;
      show(p[0], p[1], { x: (e as PointerEvent).clientX, y: (e as PointerEvent).clientY });
    };
    const leave = () => { clear(); options.tooltip?.hide(); };
    const click = (e: Event) => {
      const p = at(e as PointerEvent);
      if (!p) return;
      options.onReveal?.({ kind: 'token', input: options.input, token: p[0] });
      options.onPick?.({ token: p[0] });
    };
    const key = (e: Event) => {
      const ke = e as KeyboardEvent;
      const [i, j] = active;
      const d: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (ke.key === 'Escape') { leave(); return; }
      const step = d[ke.key];
      if (!step) return;
      ke.preventDefault();
      active = [Math.max(0, Math.min(n - 1, i + step[0])), Math.max(0, Math.min(n - 1, j + step[1]))];
      show(active[0], active[1], canvas);
    };
    canvas.addEventListener('pointermove', move);
    canvas.addEventListener('pointerleave', leave);
    canvas.addEventListener('click', click);
    canvas.addEventListener('keydown', key);
    canvas.addEventListener('focus', () => show(active[0], active[1], canvas));
    canvas.addEventListener('blur', leave);
  }

  if (options.interactive && !useCanvas) {
    for (const g of cellsG) {
      const items = Array.from(g.node()!.querySelectorAll('rect.cell'), (el) => ({
        el, row: Number(el.getAttribute('data-query')), col: Number(el.getAttribute('data-key')),
      }));
      cleanups.push(rovingGrid(g.node()!, items, clampIndex(options.token, n) * m));
    }
  }

  return {
    svg: svgNode,
    canvases,
    notes,
    destroy: () => { cleanups.forEach((f) => f()); svg.remove(); },
  };
};

/** The hover line of a block of cells: its mean, or why it has none. */
export function blockMeanText(what: string, mean: number | null): string {
  return mean === null ? `mean ${what}: none, the mask hides every pair in this block` : `mean ${what}: ${fmt(mean)}`;
}

/** The mean over a block's unmasked pairs; null when the mask hides every pair of the block. */
function meanBlock(head: HeadData, mode: MatrixMode, i: number, j: number, stride: number, n: number): number | null {
  let sum = 0, cnt = 0;
  for (let a = i; a < Math.min(n, i + stride); a++) for (let b = j; b < Math.min(n, j + stride); b++) {
    const x = value(head, mode, a, b);
    if (x !== null) { sum += x; cnt++; }
  }
  return cnt ? sum / cnt : null;
}

/**
 * Paints every cell straight into the canvas's pixels: a million cells (1024 tokens) cost one
 * pass over the pixels instead of a million fillRect calls. `level(i, j)` is 0..255 on the
 * colour table, or −1 for a masked cell, which gets the diagonal hatch.
 */
function paintCells(ctx: CanvasRenderingContext2D, width: number, height: number, n: number, cellPx: number,
  level: (i: number, j: number) => number, lut: readonly [number, number, number][], theme: Theme): void {
  const img = ctx.createImageData(width, height);
  const px = img.data;
  const m = rgb(theme.masked), hatch = rgb(theme.maskedHatch);
  const levels = new Int16Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) levels[i * n + j] = level(i, j);
  for (let y = 0; y < height; y++) {
    const i = Math.min(n - 1, Math.floor(y / cellPx));
    for (let x = 0; x < width; x++) {
      const j = Math.min(n - 1, Math.floor(x / cellPx));
      const k = levels[i * n + j];
      const o = (y * width + x) * 4;
      if (k < 0) {
        const line = (x + y) % 6 < 1.5;
        px[o] = line ? hatch.r : m.r; px[o + 1] = line ? hatch.g : m.g; px[o + 2] = line ? hatch.b : m.b;
      } else {
        const c = lut[k];
        px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2];
      }
      px[o + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}
