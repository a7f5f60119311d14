// The projection diagram: x (1×d_model) · W (d_model×d) = y (1×d) as coloured grids, in the row
// convention the seeds use: x is a row over W (a 1×3 vector drawn as a column read as 3×1), and
// hovering x_i outlines the row of W it multiplies; y lies as a row under W's columns. Hover y_j: its terms (2·4 + 0·2 + 2·0 = 8) and the column it comes from. Large
// dimensions are drawn compressed, each band the mean of several entries, and the shape is written.
import { ROLE_SYMBOL, ROLE_VECTOR } from '../../../src/core/vocabulary.js';
import { row, weightAt, weightColumn } from '../../../src/core/result/attention-data.js';
import { findMatrix } from '../../../src/core/result/matrix-info.js';
import { clip, dotTerms, fmt, fmtNear, fmtRounded, textWidth, thousands, wrapLines } from '../../kit/format.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { thinnedLabels } from '../../kit/thin-labels.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { textOn } from '../../kit/colour.js';
import { clampIndex, createSvg, drawHeading, drawNotes, emptyView, layoutHeading, layoutNotes, singleHead, type G, type ViewFn } from '../../kit/view.js';
import { maxOf } from '../../../src/core/linalg/extent.js';

/** More rows or columns than this are drawn as bands. */
export const MAX_BANDS = 64;


interface Bands { count: number; stride: number; range(b: number): [number, number] }
function bands(n: number): Bands {
  const stride = Math.max(1, Math.ceil(n / MAX_BANDS));
  return { count: Math.ceil(n / stride), stride, range: (b) => [b * stride, Math.min(n, (b + 1) * stride)] };
}

export const renderProjection: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const inputIndex = clampIndex(options.input, data.inputs.length);
  const input = data.inputs[inputIndex];
  if (!input || input.tokens.length === 0) return emptyView(container, theme, options.width, 'projection', 'No tokens to draw.');
  const role = options.projection;
  const h = singleHead(data, options);
  const m = findMatrix(data, role, h);
  if (!m) {
    return emptyView(container, theme, options.width, 'projection', role === 'wo'
      ? 'This spec has no W_O: the heads\' outputs, side by side, are the output.'
      : `No ${ROLE_SYMBOL[role]} for head ${h + 1}.`);
  }
  const t = clampIndex(options.token, input.tokens.length);
  const word = input.tokens[t];
  const x = role === 'wo' ? row(input.concat, t) : row(input.embeddings, t);
  const W = (i: number, j: number) => weightAt(m, i, j);
  const y = Array.from({ length: m.cols }, (_, j) => x.reduce((s, xi, i) => s + xi * W(i, j), 0));
  const rowNames = role === 'wo' ? Array.from({ length: m.rows }, (_, i) => `c${i}`) : data.features.slice(0, m.rows);
  const colNames = Array.from({ length: m.cols }, (_, j) => (role === 'wo' && m.cols === data.dModel ? data.features[j] : `${ROLE_VECTOR[role][0]}${j}`));
  const xName = role === 'wo' ? `concat_${word}` : `e_${word}`;
  const yName = `${ROLE_VECTOR[role]}_${word}`;
  const headName = role === 'wo' ? '' : ` of head "${input.heads[h]?.name ?? h + 1}"`;
  const notes: string[] = [];
  if (m.identity) notes.push(`${ROLE_SYMBOL[role]} is the identity ("identity" in the spec): ${yName} = ${xName}`);
  const rb = bands(m.rows), cb = bands(m.cols);
  if (rb.stride > 1 || cb.stride > 1) {
    notes.push(`compressed: ${m.rows} rows shown as ${rb.count} bands of ${rb.stride}, ${m.cols} columns as ${cb.count} bands of ${cb.stride} (each band the mean)`);
  }

  const fs = theme.fontSize;
  const pad = 12;
  const shape = `${xName} (1×${m.rows}) · ${ROLE_SYMBOL[role]} (${m.rows}×${m.cols}) = ${yName} (1×${m.cols})`;
  const titleText = `${yName} = ${xName} · ${ROLE_SYMBOL[role]}${headName}`;
  const heading = layoutHeading(titleText, Math.max(options.width, 284) - 2 * pad, fs);
  // The notes wrap too: "compressed: 512 rows shown as 64 bands…" was cut at 430 px.
  const noteBlock = layoutNotes(notes, Math.max(options.width, 284) - 2 * pad, fs);
  const titleH = 42 + heading.extra + noteBlock.height;
  // The labels as drawn: a band's range ("104–111") or a feature's name. The left margin holds the
  // widest of them and "· W_Q" (a margin sized from the feature names ran band ranges and "· W_Q"
  // past the picture's left edge).
  const rowText = (b: number) => { const [a, z] = rb.range(b); return rb.stride > 1 ? `${a}–${z - 1}` : rowNames[a] ?? `${a}`; };
  const colText = (b: number) => { const [a, z] = cb.range(b); return cb.stride > 1 ? `${a}–${z - 1}` : colNames[a]; };
  const rowTexts = Array.from({ length: rb.count }, (_, b) => rowText(b));
  const colTexts = Array.from({ length: cb.count }, (_, b) => colText(b));
  const rowLabelW = Math.min(110, Math.max(maxOf(rowTexts, (n) => textWidth(n, fs - 1)), textWidth(`· ${ROLE_SYMBOL[role]}`, fs) * 1.2, 20) + 10);
  const avail = Math.max(260, options.width) - 2 * pad - rowLabelW - 40;
  let cell = Math.floor(avail / (Math.max(cb.count, rb.count) + 1));
  cell = Math.max(4, Math.min(48, cell, Math.floor(Math.max(260, 640) / rb.count)));
  const showVals = cell >= 28;
  // Rows and columns too thin for a label each are labelled one in k (the hover names every one);
  // column labels stand at 45°, so the room between two is cell · sin 45°.
  const labelRoom = (fs - 1) * 1.5;
  const rowLabelled = thinnedLabels(rb.count, cell, labelRoom);
  const colLabelled = thinnedLabels(cb.count, cell * Math.SQRT1_2, labelRoom);
  const colLabelH = Math.min(80, maxOf(colLabelled, (b) => textWidth(colTexts[b], fs - 1))) * 0.72 + 14;
  const xX = pad + rowLabelW;
  const wX = xX + 8;
  // x (a row) first, then "·", then W with its column labels, then "=" and y.
  const xTop = titleH + 18;
  const gridTop = xTop + cell + 22 + colLabelH;
  const yTop = gridTop + rb.count * cell + 22;
  const width = Math.max(options.width, wX + Math.max(cb.count, rb.count) * cell + pad + 40);
  // One line under W_Q, W_K or W_V for scale: how big this matrix is in the original Transformer.
  const scaleLine = role === 'wo' ? undefined : fullSizeLine(data, ROLE_SYMBOL[role], m.rows * m.cols, m.identity);
  // Wrapped, never cut: cut at 430 and 626 px it ended "× 2 (encoder, decoder) =…", the seed's
  // 3,145,728 gone. Measured 8% wide, as real fonts run wider than textWidth's table.
  // "= 3,145,728 numbers" is kept on one line (bound by no-break spaces while wrapping).
  const scaleLines = scaleLine
    ? wrapLines(scaleLine.text.replace(/ = (\S+) numbers/, '\u00a0=\u00a0$1\u00a0numbers'), (width - 2 * pad) / 1.08, fs, 6).map((l) => l.replace(/\u00a0/g, ' '))
    : [];
  const scaleLineH = Math.round(fs * 1.35);
  const height = yTop + cell + 44 + (scaleLine ? 22 + (scaleLines.length - 1) * scaleLineH : 0);
  const svg = createSvg(container, theme, width, height, `Projection: ${shape}`, 'projection');
  drawHeading(svg, 'title', pad, 16, heading, titleText);
  svg.append('text').attr('class', 'shape').attr('x', pad).attr('y', 34 + heading.extra).attr('fill', theme.muted).attr('font-family', theme.mono).text(shape);
  drawNotes(svg, theme, pad, 52 + heading.extra, noteBlock, notes);

  const maxAbs = (v: Iterable<number>) => Math.max(1e-12, maxOf(v, Math.abs));
  const xMax = maxAbs(x), wMax = m.values ? maxAbs(m.values.data) : 1, yMax = maxAbs(y);
  const mean = (v: ArrayLike<number>) => Array.from(v).reduce((a, b) => a + b, 0) / Math.max(1, v.length);
  const tips = new TipTable();
  const focusables: { el: Element; row: number; col: number }[] = [];
  // Plain DOM calls for the cells (up to 64 × 64 of W): d3's attr() per attribute cost a third of the
  // drawing. The cells' outline is set once on their group; a number's text turns it off again.
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const cellGroup = (cls: string) => svg.append('g').attr('class', cls).attr('stroke', theme.grid).attr('stroke-width', 0.5) as unknown as G;
  const cellRect = (g: G, cx: number, cy: number, v: number, scale: number, cls: string, tip: number, gridRow: number, gridCol: number): SVGRectElement => {
    const fill = theme.div(v / scale);
    const parent = g.node()!;
    const r = parent.ownerDocument.createElementNS(SVG_NS, 'rect');
    // Its place in the keyboard's grid is kept in `focusables`, not in attributes nobody reads.
    const attrs: [string, string | number][] = [['class', `${cls} hot`], ['x', cx], ['y', cy], ['width', cell], ['height', cell], ['fill', fill], ['data-tip', tip]];
    for (const [k, val] of attrs) r.setAttribute(k, String(val));
    parent.appendChild(r);
    focusables.push({ el: r, row: gridRow, col: gridCol });
    if (showVals) {
      const s = fmtRounded(v, 2);
      if (textWidth(s, fs - 1) < cell - 4) {
        g.append('text').attr('x', cx + cell / 2).attr('y', cy + cell / 2 + (fs - 1) * 0.35).attr('text-anchor', 'middle')
          .attr('font-size', fs - 1).attr('fill', textOn(fill)).attr('stroke', 'none').attr('pointer-events', 'none').text(s);
      }
    }
    return r;
  };

  const hl = () => svg.select<SVGGElement>('g.highlight');
  const outline = (rx: number, ry: number, rw: number, rh: number, colour = theme.accent) => {
    hl().append('rect').attr('x', rx).attr('y', ry).attr('width', rw).attr('height', rh).attr('fill', 'none').attr('stroke', colour).attr('stroke-width', 2);
  };
  const clear = () => hl().selectAll('*').remove();

  // Labels: the features down the left (shared by x and W's rows), W's columns along the top.
  const labels = svg.append('g').attr('class', 'labels').attr('font-size', fs - 1);
  // One label; cut to `px`, its whole text in a hover.
  const label = (x: number, y: number, full: string, px: number, anchor: 'end' | 'start', turn: number) => {
    const shown = clip(full, px, fs - 1);
    const t = labels.append('text').attr('x', x).attr('y', y).attr('text-anchor', anchor);
    if (turn) t.attr('transform', `rotate(${turn} ${x} ${y})`);
    t.text(shown);
    if (shown !== full) t.append('title').text(full);
  };
  for (const b of rowLabelled) label(xX - 6, gridTop + b * cell + cell / 2 + 4, rowTexts[b], rowLabelW - 8, 'end', 0);
  for (const b of colLabelled) label(wX + b * cell + cell / 2, gridTop - 6, colTexts[b], 80, 'start', -45);
  labels.append('text').attr('class', 'x-label').attr('x', xX - 6).attr('y', xTop + cell / 2 + 4).attr('text-anchor', 'end').attr('font-weight', 600).attr('font-size', fs).text('x');
  labels.append('text').attr('x', xX - 6).attr('y', gridTop - colLabelH - 2).attr('text-anchor', 'end').attr('font-weight', 600).attr('font-size', fs)
    .text(`· ${ROLE_SYMBOL[role]}`);
  svg.append('text').attr('x', wX - 6).attr('y', yTop + cell / 2 + 5).attr('text-anchor', 'end').attr('font-weight', 700).text('=');
  svg.append('text').attr('x', wX).attr('y', yTop + cell + 16).attr('font-weight', 600).text(`${yName} (1×${m.cols})`);

  const xG = cellGroup('x');
  for (let b = 0; b < rb.count; b++) {
    const [a, z] = rb.range(b);
    const v = mean(x.slice(a, z));
    const tip = tips.add({
      lines: () => rb.stride > 1
        ? [`${xName}[${a}–${z - 1}]: mean ${fmtNear(v, xMax)}`]
        : [`${xName}[${rowNames[a] ?? a}] = ${fmtNear(x[a], xMax)}`, role === 'wo' ? 'the heads\' outputs, joined' : `the embedding of "${word}"; click or press Enter to show it in the spec`,
          `multiplies row ${a + 1} of ${ROLE_SYMBOL[role]}`],
      enter: () => {
        outline(wX + b * cell, xTop, cell, cell);
        outline(wX, gridTop + b * cell, cb.count * cell, cell);
      },
      leave: clear,
      reveal: role === 'wo' ? undefined : { kind: 'token', input: inputIndex, token: t },
    });
    cellRect(xG, wX + b * cell, xTop, v, xMax, 'x-cell', tip, 0, b);
  }
  const wG = cellGroup('w');
  for (let bi = 0; bi < rb.count; bi++) {
    const [ra, rz] = rb.range(bi);
    for (let bj = 0; bj < cb.count; bj++) {
      const [ca, cz] = cb.range(bj);
      const block: number[] = [];
      for (let i = ra; i < rz; i++) for (let j = ca; j < cz; j++) block.push(W(i, j));
      const v = mean(block);
      const single = rb.stride === 1 && cb.stride === 1;
      const tip = tips.add({
        lines: () => single
          ? [`${ROLE_SYMBOL[role]}[${rowNames[ra] ?? ra}, ${colNames[ca]}] = ${fmt(W(ra, ca))}`, `row ${ra + 1}, column ${ca + 1}${headName}; click or press Enter to show it in the spec`]
          : [`${ROLE_SYMBOL[role]} rows ${ra}–${rz - 1}, columns ${ca}–${cz - 1}: mean ${fmt(v)}`],
        enter: () => {
          outline(wX, gridTop + bi * cell, cb.count * cell, cell);
          outline(wX + bj * cell, gridTop, cell, rb.count * cell);
        },
        leave: clear,
        reveal: { kind: 'matrix', role, ...(role === 'wo' ? {} : { head: h }), row: ra, col: ca },
      });
      const r = cellRect(wG, wX + bj * cell, gridTop + bi * cell, v, wMax, 'w-cell', tip, bi + 1, bj);
      r.setAttribute('data-row-index', String(ra));
      r.setAttribute('data-col-index', String(ca));
    }
  }
  const yG = cellGroup('y');
  for (let b = 0; b < cb.count; b++) {
    const [a, z] = cb.range(b);
    const v = mean(y.slice(a, z));
    const tip = tips.add({
      lines: () => cb.stride > 1
        ? [`${yName}[${a}–${z - 1}]: mean ${fmtNear(v, yMax, m.rows)}`]
        : [`${yName}[${colNames[a]}] = ${xName} · column ${a + 1} of ${ROLE_SYMBOL[role]}`, dotTerms(x, weightColumn(m, a), y[a])],
      enter: () => {
        outline(wX + b * cell, gridTop, cell, rb.count * cell);
        outline(wX, xTop, rb.count * cell, cell);
        outline(wX + b * cell, yTop, cell, cell, theme.focus);
      },
      leave: clear,
    });
    cellRect(yG, wX + b * cell, yTop, v, yMax, 'y-cell', tip, rb.count + 2, b);
  }
  if (scaleLine) {
    const t = svg.append('text').attr('class', 'full-size').attr('x', pad).attr('y', yTop + cell + 44).attr('fill', theme.muted);
    scaleLines.forEach((line, k) => t.append('tspan').attr('x', pad).attr('dy', k === 0 ? 0 : scaleLineH).text(line));
    // Where the figure comes from, one hover away.
    t.append('title').text(`${scaleLine.text}\n${scaleLine.tip}`);
  }
  svg.append('g').attr('class', 'highlight').attr('pointer-events', 'none');

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};

/** "At full size …": the original Transformer's count for this matrix role, beside this spec's own. */
export function fullSizeLine(data: { parameters: { fullSize: { dModel: number; dk: number; heads: number; blocks: number; stacks: number; total: number } } }, name: string, own: number, identity: boolean): { text: string; tip: string } {
  const f = data.parameters.fullSize;
  const mine = identity ? 'here: the identity, nothing learnt' : `here: ${thousands(own)}`;
  return {
    text: `Full size: ${name} is ${f.dModel}×${f.dk} per head × ${f.heads} heads × ${f.blocks} layers × ${f.stacks} (encoder, decoder) = ${thousands(f.total)} numbers; ${mine}.`,
    tip: `In the original Transformer (d_model ${f.dModel}, d_k ${f.dk}, ${f.heads} heads, ${f.blocks} layers in the encoder and ${f.blocks} in the decoder), ` +
      `every ${name} is ${f.dModel}×${f.dk} = ${thousands(f.dModel * f.dk)} learnt numbers, ${thousands(f.total)} in all. An estimate for scale, not a count of this spec.`,
  };
}
