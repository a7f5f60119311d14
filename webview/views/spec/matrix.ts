// The attention matrix of one head (or of every head, side by side): rows are queries, columns
// are keys, colour is the raw score, the scaled score, the weight, the cosine or (with W_O) the
// value-weighted norm α_ij · ‖v_j W_O^h‖. Masked cells are hatched and
// labelled. Hover a cell: the dot product term by term, the scaling, the weight, its row and
// column outlined. Small inputs draw one <rect> per cell (data-query, data-key, data-head); large
// ones (more than CANVAS_ABOVE tokens) paint a canvas and find the cell under the pointer.
// The parts live beside it: matrix-text.ts (hover text), matrix-scale.ts (colour range, legend),
// matrix-layout.ts (blocks and grid), matrix-canvas.ts (pixels for large inputs).
import { MODE_LABEL, type MatrixMode } from '../../../src/core/vocabulary.js';
import type { HeadData } from '../../../src/core/result/attention-data.js';
import { rgb, type Selection } from 'd3';
import { textOn } from '../../kit/colour.js';
import { clip, fmtRounded, textWidth, wrapLines } from '../../kit/format.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { thinnedLabels } from '../../kit/thin-labels.js';
import { wireTips, type Tip } from '../../kit/tooltip.js';
import { numberedLabel, repeatedWords } from '../../kit/token-names.js';
import {
  clampIndex, createSvg, drawHeading, drawNotes, emptyView, hatch, layoutHeading, layoutNotes, type G, type ViewFn, type ViewHandle,
} from '../../kit/view.js';

/**
 * Above this many tokens, or this many cells in all, the panel paints cells on a canvas. One head of
 * the 64-token example as 4,096 <rect>s cost VS Code's webview 40 ms of style and 45 ms of paint after
 * each edit (a Chromium trace in code-server), more than all the rest of edit -> paint; 1,024 cost a
 * quarter of that. The canvas draws the same cells, their borders and the same hover and keys.
 */
export const CANVAS_ABOVE = 128;
export const MAX_SVG_CELLS = 1024;
/** `attn render` draws at most this many cells in all: above, blocks of cells (jsdom is slow). */
export const MAX_STATIC_CELLS = 8192;

export { MODE_LABEL } from '../../../src/core/vocabulary.js';

/** What the norms mode shows of a spec without W_O: why there is nothing to draw, in one line. */
export const NORMS_NEED_WO = 'Value-weighted norms (weight × ‖v W_O‖) need W_O: this spec has no "wo". Show weights, or add "wo".';
export { blockMeanText, cellLines, divisorText, value } from './matrix-text.js';
import { blockMeanText, cellLines, divisorText, meanBlock, value } from './matrix-text.js';
import { domainOf, legend, type Domain } from './matrix-scale.js';
import { HEAD_TITLE_H, layoutBlock } from './matrix-layout.js';
import { paintCanvases } from './matrix-canvas.js';

/**
 * Writes the first of `forms` (the whole text, then shorter ones) that fits `px` at `size`, the
 * last one cut if none does; anything short of the first has the first in a <title>.
 */
function headLine(t: Selection<SVGTextElement, unknown, null, undefined>, forms: readonly string[], px: number, size: number): void {
  const shown = forms.find((f) => textWidth(f, size) <= px) ?? clip(forms[forms.length - 1], px, size);
  t.text(shown);
  if (shown !== forms[0]) t.append('title').text(forms[0]);
}

/**
 * A cell's number at `digits` decimals that never passes for an exact value it is not: 0.0003 reads
 * "<0.01" (a weight) or "≈0", 0.9993 ">0.99"; where that is too wide for the cell, "≈0" or "≈1".
 */
export function cellText(v: number, digits: number, weight: boolean, px: number, size: number): string {
  const text = fmtRounded(v, digits, weight);
  const bounded = text.startsWith('<') || text.startsWith('>');
  // "<" and ">" are half an em wider in real fonts than textWidth's table says ("<0.1" beside "<0.1"
  // touched in 26 px cells at 430 px).
  if (textWidth(text, size) + (bounded ? 0.5 * size : 0) <= px) return text;
  return text.startsWith('<') ? '≈0' : text.startsWith('>') ? '≈1' : text;
}

/**
 * 0..1 on the colour scale from lo to hi; a domain too wide or too narrow for doubles (all scores
 * equal and huge) gives NaN here, which must become a colour, not `fill="undefined"`.
 */
function unitOf(v: number, lo: number, hi: number): number {
  const t = (v - lo) / (hi - lo);
  return Number.isFinite(t) ? Math.max(0, Math.min(1, t)) : 0.5;
}

/**
 * Every cell's level on the 256-colour table (−1 where masked), row by row: value() and the scale of
 * `norm` for each cell, read straight from the head's arrays for the modes that are stored numbers
 * (the same arithmetic: scores ÷ divisor for the scaled scores) instead of a call per cell.
 */
export function levelsOf(head: HeadData, mode: MatrixMode, n: number, domain: Domain): Int16Array {
  const out = new Int16Array(n * n);
  const { lo, hi } = domain;
  const level = (v: number) => Math.max(0, Math.min(255, Math.round(unitOf(v, lo, hi) * 255)));
  if (mode === 'cosine') {
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const v = value(head, mode, i, j);
      out[i * n + j] = v === null ? -1 : level(v);
    }
    return out;
  }
  // A head without W_O has no norms: no cell has a value, as value() says.
  if (mode === 'norms' && !head.norms) return out.fill(-1);
  const masked = head.masked, divisor = head.divisor;
  const source = mode === 'weights' ? head.weights.data : mode === 'norms' ? head.norms!.data : head.scores.data;
  for (let c = 0; c < n * n; c++) {
    out[c] = masked[c] === 1 ? -1 : level(mode === 'scaled' ? source[c] / divisor : source[c]);
  }
  return out;
}

export const renderMatrix: ViewFn = (container, data, options): ViewHandle => {
  const theme = options.theme;
  const input = data.inputs[clampIndex(options.input, data.inputs.length)];
  if (!input || input.tokens.length === 0) return emptyView(container, theme, options.width, 'matrix', 'No tokens to draw.');
  if (input.heads.length === 0) return emptyView(container, theme, options.width, 'matrix', 'No heads to draw.');
  const n = input.tokens.length;
  const mode = options.matrixMode;
  // Asked of the n numbers each head keeps, not of its norms: a decoded head makes those (n × n) when first read.
  if (mode === 'norms' && !input.heads.every((h) => h.valueNorms)) return emptyView(container, theme, options.width, 'matrix', NORMS_NEED_WO);
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
  // A repeated word ("the cat saw the dog") gets its position on every label, as in the token menu.
  const labels = repeatedWords(input.tokens).size > 0 ? input.tokens.map((_, i) => numberedLabel(input.tokens, i)) : input.tokens;
  const probe = layoutBlock(labels, n, 10, stride, fs);
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
  // Past what the panel's width holds at its smallest cell (a lens's 2,048 tokens: one pixel a cell), the picture scrolls: said.
  if (useCanvas && m * cell > avail) notes.push(`${n.toLocaleString('en-US')} tokens: each cell is ${cell} px, so a head is ${(m * cell).toLocaleString('en-US')} px a side, wider than the panel: scroll sideways; hover a cell or use the arrows for its numbers`);
  const block = layoutBlock(labels, n, cell, stride, Math.min(fs, Math.max(8, cell - 2)));
  const rowsOfHeads = Math.ceil(heads.length / perRow);
  const legendH = 52;
  const width = Math.max(options.width, pad * 2 + perRow * (block.width + gap));
  // Each head's name in its room: 'head "head 3"', else the name alone, else the name on up to three
  // lines (8 heads side by side at 430 and 700 px cut six of eight names to 'head "he…'). Every
  // head's title then takes as many lines as the longest, so the matrices stay in line.
  const nameSize = fs * 1.1, nameLineH = Math.round(fs * 1.25);
  const roomOf = (k: number) => (k % perRow === perRow - 1 ? width - (pad + (k % perRow) * (block.width + gap)) - pad : block.width + gap - 8) - block.labelW;
  // One form for every head (not 'head 1' beside 'head "head 2"').
  const fitsAll = (form: (name: string) => string) => heads.every((h, k) => textWidth(form(input.heads[h].name), nameSize) <= roomOf(k));
  const nameLines = heads.map((h, k) => {
    const name = input.heads[h].name;
    if (fitsAll((x) => `head "${x}"`)) return [`head "${name}"`];
    if (fitsAll((x) => x)) return [name];
    return wrapLines(name, roomOf(k), nameSize, 3);
  });
  const titleExtra = (Math.max(1, ...nameLines.map((l) => l.length)) - 1) * nameLineH;
  const blockH = block.height + titleExtra;
  // The title wraps in a narrow panel (it was cut with "…" at 676 px) and pushes the matrices down.
  const titleText = `${input.name}: ${MODE_LABEL[mode]}, rows = queries, columns = keys`;
  const heading = layoutHeading(titleText, width - 2 * pad, fs, true, 4);
  const noteBlock = layoutNotes(notes, width - 2 * pad, fs);
  const titleH = 22 + heading.extra + noteBlock.height;
  const height = titleH + rowsOfHeads * (blockH + 12) + legendH;
  const svg = createSvg(container, theme, width, height, `Attention matrix of "${input.name}", ${MODE_LABEL[mode]}`, 'matrix');
  const maskFill = hatch(svg, theme);
  drawHeading(svg, 'title', pad, 16, heading, titleText);
  drawNotes(svg, theme, pad, 34 + heading.extra, noteBlock, notes);

  // Each head on its own scale in small multiples, worked out when the head is first drawn (a head
  // painted later, below the first screen, reads its weights then); the legend then names no numbers,
  // so no shared scale is worked out. Else one scale for all.
  const shared = smallMultiples ? undefined : domainOf(heads.map((h) => input.heads[h]), mode);
  const ownDomains = new Map<number, Domain>();
  const domainFor = (h: number): Domain => {
    if (shared) return shared;
    let d = ownDomains.get(h);
    if (!d) ownDomains.set(h, (d = domainOf([input.heads[h]], mode)));
    return d;
  };
  const dom = shared ?? domainFor(heads[0]);
  // 0..1 on the colour scale of head h; a domain too wide or too narrow for doubles (all scores
  // equal and huge) gives NaN here, which must become a colour, not `fill="undefined"`.
  const norm = (v: number, h: number) => {
    const d = domainFor(h);
    return unitOf(v, d.lo, d.hi);
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
    const oy = titleH + Math.floor(k / perRow) * (blockH + 12);
    const g = svg.append('g').attr('class', 'head-matrix').attr('data-head', h).attr('transform', `translate(${ox},${oy})`);
    // The head's name, then its shape and scaling on a second, quieter line.
    // The head's name (bold) and its scaling, each shortened to its room with the whole text in a
    // hover: 8 heads side by side left "d_k 4, ÷ √…" and 'head "hea…' with nothing to read.
    const room = roomOf(k);
    const nameText = g.append('text').attr('class', 'head-name').attr('x', block.labelW).attr('y', 12).attr('font-weight', 600)
      .attr('fill', theme.heads[h % theme.heads.length]);
    const lines = nameLines[k];
    if (lines.length === 1) headLine(nameText, [lines[0]], room, nameSize);
    else lines.forEach((line, i) => nameText.append('tspan').attr('x', block.labelW).attr('dy', i === 0 ? 0 : nameLineH).text(line));
    if (nameText.select('title').empty() && lines.join(' ') !== `head "${head.name}"`) nameText.append('title').text(`head "${head.name}"`);
    const divisor = divisorText(data, head);
    headLine(g.append('text').attr('class', 'head-shape').attr('x', block.labelW).attr('y', 27 + titleExtra).attr('fill', theme.muted)
      .attr('font-size', fs - 1), [`d_k ${head.dk}, ÷ ${divisor}`, `÷ ${divisor}`], room, fs - 1);
    const gx = block.labelW, gy = block.labelH + HEAD_TITLE_H + titleExtra;
    // Token labels: queries down the left, keys along the top (slanted or upright when the cells
    // are narrow); labels closer than a line of text are thinned, the selected token's kept.
    if (cell >= 7) {
      const lab = g.append('g').attr('class', 'labels').attr('font-size', labelFs);
      const keep = [Math.floor(clampIndex(options.token, n) / stride)];
      const rowsShown = thinnedLabels(m, cell, block.labelRoom, keep);
      const colsShown = block.colTurn === -45 ? rowsShown : thinnedLabels(m, cell, block.colTurn === 0 ? 0 : block.labelRoom, keep);
      for (const b of rowsShown) {
        const i = b * stride;
        lab.append('text').attr('class', 'row-label token hot').attr('data-token', i).attr('data-head', h)
          .attr('x', gx - 4).attr('y', gy + b * cell + cell / 2 + labelFs * 0.35).attr('text-anchor', 'end')
          .text(clip(labels[i], block.labelW - 8, labelFs));
      }
      for (const b of colsShown) {
        const i = b * stride;
        const cx = gx + b * cell + cell / 2;
        const t = lab.append('text').attr('class', 'col-label token hot').attr('data-token', i).attr('data-head', h)
          .attr('x', cx).attr('y', gy - 4);
        if (block.colTurn === 0) t.attr('text-anchor', 'middle').text(clip(labels[i], Math.min(110, cell - 4), labelFs));
        else {
          t.attr('text-anchor', 'start').attr('transform', `rotate(${block.colTurn} ${cx} ${gy - 4})`).text(clip(labels[i], 110, labelFs));
          if (block.colTurn === -90) t.attr('dy', '0.35em');
        }
      }
    } else {
      // No room for token labels: the axes are named, shortened to the matrix's side ("queries
      // 1–64 →" ran past a 64 px matrix into the legend), the whole text in the hover.
      const side = m * cell;
      headLine(g.append('text').attr('x', gx).attr('y', gy - 4).attr('fill', theme.muted), [`keys 1–${n} →`, 'keys →', 'k →'], side, fs);
      headLine(g.append('text').attr('x', gx - fs - 4).attr('y', gy).attr('fill', theme.muted)
        .attr('transform', `rotate(90 ${gx - fs - 4} ${gy})`), [`queries 1–${n} →`, 'queries →', 'q →'], side, fs);
    }
    const frame = () => g.append('rect').attr('class', 'frame').attr('x', gx).attr('y', gy).attr('width', m * cell).attr('height', m * cell)
      .attr('fill', 'none').attr('stroke', theme.grid);
    if (useCanvas) {
      canvasBox.push({ x: ox + gx, y: oy + gy, w: m * cell, h: m * cell, head: h });
      if (head.masked.includes(1)) hasMasked = true;
      frame();
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
          // Rounded to the digits the cell has room for: 0.0061 at one digit is "0", never an exponent
          // too wide to fit (such cells were left blank while smaller weights showed "0").
          const digits = cell >= 40 ? 2 : 1;
          const text = v === null ? (cell >= 44 ? 'masked' : '×') : cellText(v, digits, mode === 'weights', cell - 3, labelFs);
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
    frame();
  });
  legend(svg, theme, pad, height - legendH + 6, dom, mode, maskFill, hasMasked, smallMultiples, Math.max(1, ...heads.map((h) => input.heads[h].dk)));

  // Highlight of the hovered cell's row and column: two outlines, drawn above the cells.
  const hl = svg.append('g').attr('class', 'highlight').attr('pointer-events', 'none');
  const headOrigin = (h: number) => {
    const k = heads.indexOf(h);
    const ox = pad + (k % perRow) * (block.width + gap) + block.labelW;
    const oy = titleH + Math.floor(k / perRow) * (blockH + 12) + block.labelH + HEAD_TITLE_H + titleExtra;
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
        lines: [`${input.tokens[t]} (token ${t + 1} of "${input.name}")`, 'click or press Enter: show it in the spec and pick it'],
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

  const painted = useCanvas ? paintCanvases({
    container, boxes: canvasBox, data, input, n, cell, options, theme, lut: rgbLut, highlight, clear,
    levels: (h) => levelsOf(input.heads[h], mode, n, domainFor(h)),
  }) : { canvases: [], paintAll: () => {}, cleanup: () => {} };
  cleanups.push(painted.cleanup);
  const canvases = painted.canvases;

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
    paintAll: painted.paintAll,
    notes,
    destroy: () => { cleanups.forEach((f) => f()); svg.remove(); },
  };
};

