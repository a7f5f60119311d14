// Compare: the same word in several inputs, side by side, on one scale. For each input that
// contains the word: the sentence with the word highlighted, how much the word attends to each
// token (the selected head), and the word's vector before and after attention, feature by
// feature. The mouse next to "cat" leans animal; next to "keyboard", tech. An input of more than
// MAX_KEY_ROWS tokens (a lens's 2,048) has bars for the ones the word attends to most, said in one line.
import { at, row, scaledAt } from '../../../src/core/result/attention-data.js';
import { clip, fmtFixed, fmtNear, fmtWeight, largestAbs, textWidth, wrapLines } from '../../kit/format.js';
import { scoreText } from './matrix-text.js';
import { plottableOutputs } from './quadrant.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { clampIndex, createSvg, emptyView, note, singleHead, type G, type ViewFn } from '../../kit/view.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { listSome } from '../../../src/core/json/quote.js';
import { compareOverBudget } from '../../../src/core/result/view-budget.js';
import { listedKeys, MAX_KEY_ROWS } from './long-input.js';

export const renderCompare: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const base = data.inputs[clampIndex(options.input, data.inputs.length)];
  if (!base || base.tokens.length === 0) return emptyView(container, theme, options.width, 'compare', 'No tokens to draw.');
  const baseIndex = data.inputs.indexOf(base);
  const chosen = clampIndex(options.token, base.tokens.length);
  const word = base.tokens[chosen];
  // Its SVG grows with inputs × features: a spec too wide for it is said, never drawn for minutes.
  const tooBig = compareOverBudget(data, baseIndex, chosen, 'choose the quadrant or matrix view instead');
  if (tooBig) return emptyView(container, theme, options.width, 'compare', tooBig);
  const h = singleHead(data, options);
  const notes: string[] = [];
  // The chosen token itself in its own input (a repeated word's own position, not its first), and
  // the occurrence with the same rank elsewhere ("the" no. 2 beside "the" no. 2), else the first.
  const rank = occurrenceRank(base.tokens, chosen);
  const found = data.inputs.map((inp, a) => ({ a, inp, t: a === baseIndex ? chosen : nthOccurrence(inp.tokens, word, rank) })).filter((f) => f.t >= 0);
  if (found.some((f) => countOf(f.inp.tokens, word) > 1)) {
    notes.push(`"${word}" appears more than once: each panel shows the occurrence named in it (token number in the sentence)`);
  }
  const missing = data.inputs.filter((inp) => !inp.tokens.includes(word)).map((inp) => `"${inp.name}"`);
  if (missing.length) notes.push(`"${word}" is not in ${listSome(missing, 6)}`);
  if (data.inputs.length < 2) notes.push('only one input in this spec: add another input to compare contexts');
  const outs = plottableOutputs(data, { head: options.head === 'all' ? 'all' : h });
  if (outs.why) notes.push(outs.why);
  // Each panel's bars: every token, or past MAX_KEY_ROWS the ones the word attends to most and the word itself.
  const barsOf = new Map(found.map((f) => {
    const head = f.inp.heads[h];
    return [f, head ? listedKeys(f.inp.tokens.length, (j) => at(head.weights, f.t, j), (j) => scaledAt(head, f.t, j) !== null, [f.t]) : []] as const;
  }));
  const longest = maxOf(found, (f) => f.inp.tokens.length);
  if (longest > MAX_KEY_ROWS) {
    notes.push(`${longest.toLocaleString('en-US')} tokens, more than the ${MAX_KEY_ROWS} bars drawn at once: each panel shows the tokens "${word}" attends to most (and itself), in reading order; hover a bar for its weight`);
  }

  const fs = theme.fontSize;
  const pad = 12, gap = 20;
  const minPanel = Math.min(280, Math.max(230, options.width - 2 * pad));
  const perRow = Math.max(1, Math.min(found.length, Math.floor((Math.max(options.width, minPanel) - 2 * pad + gap) / (minPanel + gap))));
  const panelW = Math.max(minPanel, (Math.max(options.width, minPanel) - 2 * pad - (perRow - 1) * gap) / perRow);
  const maxTokens = maxOf(found, (f) => barsOf.get(f)!.length);
  const barRowH = fs + 8;
  const d = data.dModel;
  const featRowH = fs + 10;
  // The key over the feature bars wraps in a narrow panel (one line ran past the panel's edge at 430 px).
  const keyText = outs.rows ? `"${word}" before (outline) and ${outs.label} (filled)` : `"${word}" (input embedding)`;
  const keyLines = wrapLines(keyText, panelW - 20, fs - 1);
  const keyLineH = fs + 2;
  const keyExtra = (keyLines.length - 1) * keyLineH;
  const panelH = 36 + maxTokens * barRowH + 30 + keyExtra + d * featRowH + 24;
  const titleH = 24 + notes.length * 16;
  const rows = Math.ceil(found.length / perRow);
  const width = Math.max(options.width, 2 * pad + perRow * panelW + (perRow - 1) * gap);
  const height = titleH + rows * (panelH + gap) + 30;
  const svg = createSvg(container, theme, width, height, `"${word}" in ${found.length} contexts`, 'compare');
  svg.append('text').attr('class', 'title').attr('x', pad).attr('y', 16).attr('font-weight', 600)
    .text(clip(`"${word}" in ${found.length} context${found.length === 1 ? '' : 's'}: head "${base.heads[h]?.name ?? ''}"`, width - 2 * pad, theme.fontSize * 1.1));
  notes.forEach((s, k) => note(svg, theme, pad, 34 + k * 16, s));

  // One scale for every panel: weights 0..1, vectors by the largest absolute entry anywhere.
  let vmax = 1e-12;
  for (const f of found) {
    for (const v of row(f.inp.embeddings, f.t)) vmax = Math.max(vmax, Math.abs(v));
    if (outs.rows) for (const v of row(outs.rows(f.inp), f.t)) vmax = Math.max(vmax, Math.abs(v));
  }
  const tips = new TipTable();
  const focusables: { el: Element; row: number; col: number }[] = [];
  found.forEach((f, k) => {
    const ox = pad + (k % perRow) * (panelW + gap), oy = titleH + Math.floor(k / perRow) * (panelH + gap);
    const g = svg.append('g').attr('class', 'panel').attr('data-input', f.a).attr('transform', `translate(${ox},${oy})`) as unknown as G;
    const c = theme.heads[f.a % theme.heads.length];
    g.append('rect').attr('width', panelW).attr('height', panelH).attr('rx', 4).attr('fill', 'none').attr('stroke', theme.grid);
    g.append('rect').attr('width', 4).attr('height', panelH).attr('fill', c);
    const which = countOf(f.inp.tokens, word) > 1 ? ` (token ${f.t + 1}, "${word}" no. ${occurrenceRank(f.inp.tokens, f.t) + 1})` : '';
    g.append('text').attr('x', 12).attr('y', 18).attr('font-weight', 600).text(clip(`${f.inp.name}${which}`, panelW - 20, fs));
    const head = f.inp.heads[h];
    if (!head) return;
    g.append('text').attr('x', 12).attr('y', 34).attr('fill', theme.muted).attr('font-size', fs - 1).text(`how much "${word}" attends to each word`);
    const bars = barsOf.get(f)!;
    const labelW = Math.min(110, maxOf(bars, (j) => textWidth(f.inp.tokens[j], fs)) + 10);
    const barX = 12 + labelW, barW = panelW - barX - 60;
    bars.forEach((j, r) => {
      const tok = f.inp.tokens[j];
      const y = 42 + r * barRowH;
      const w = at(head.weights, f.t, j);
      const masked = scaledAt(head, f.t, j) === null;
      const isWord = j === f.t;
      g.append('text').attr('class', isWord ? 'token same-word' : 'token').attr('x', barX - 6).attr('y', y + fs - 1).attr('text-anchor', 'end')
        .attr('font-weight', isWord ? 700 : 400).attr('fill', isWord ? theme.accent : theme.fg).text(clip(tok, labelW - 8, fs));
      const bar = g.append('rect').attr('class', 'bar hot').attr('x', barX).attr('y', y + 2).attr('height', barRowH - 6)
        .attr('width', Math.max(1, w * barW)).attr('fill', masked ? theme.masked : c).attr('data-input', f.a).attr('data-token', j)
        .attr('data-tip', tips.add({
          lines: [`${word} → ${tok} in "${f.inp.name}": weight ${fmtWeight(w, 4)}`, masked ? 'masked' : `score ${scoreText(head, f.t, j)}, scaled ${scoreText(head, f.t, j, true)}`],
          reveal: { kind: 'token', input: f.a, token: j },
        }));
      focusables.push({ el: bar.node()!, row: k * 1000 + r, col: 0 });
      g.append('text').attr('x', barX + Math.max(1, w * barW) + 4).attr('y', y + fs - 1).attr('fill', theme.muted).attr('font-size', fs - 1).text(fmtWeight(w, 2));
    });
    // Before and after, feature by feature: a hollow bar for the input, a filled one for the output.
    const keyY = 42 + bars.length * barRowH + 18;
    const key = g.append('text').attr('class', 'feature-key').attr('x', 12).attr('y', keyY).attr('fill', theme.muted).attr('font-size', fs - 1);
    keyLines.forEach((line, k) => key.append('tspan').attr('x', 12).attr('dy', k === 0 ? 0 : keyLineH).text(line));
    if (keyLines.join(' ') !== keyText) key.append('title').text(keyText);
    const fy = keyY + keyExtra;
    const fl = Math.min(110, maxOf(data.features, (n) => textWidth(n, fs)) + 10);
    const half = (panelW - fl - 24 - 84) / 2, zeroX = 12 + fl + half;
    g.append('line').attr('x1', zeroX).attr('x2', zeroX).attr('y1', fy + 6).attr('y2', fy + 8 + d * featRowH).attr('stroke', theme.muted);
    const e = row(f.inp.embeddings, f.t);
    const o = outs.rows ? row(outs.rows(f.inp), f.t) : undefined;
    // An entry within rounding noise of its vector's largest (a layer norm's 2.45e-18 beside 3) reads ≈0.
    const eSize = largestAbs(e), oSize = o ? largestAbs(o) : 0;
    for (let q = 0; q < d; q++) {
      const y = fy + 8 + q * featRowH;
      g.append('text').attr('x', 12 + fl - 6).attr('y', y + fs).attr('text-anchor', 'end').text(clip(data.features[q], fl - 8, fs));
      const bx = (v: number) => (v >= 0 ? zeroX : zeroX + (v / vmax) * half);
      const bw = (v: number) => Math.max(1, (Math.abs(v) / vmax) * half);
      if (o) {
        const r = g.append('rect').attr('class', 'feature-after hot').attr('x', bx(o[q])).attr('y', y + 3).attr('width', bw(o[q])).attr('height', featRowH - 6)
          .attr('fill', c).attr('fill-opacity', 0.85)
          .attr('data-tip', tips.add({ lines: [`${word} ${outs.label}, ${data.features[q]}: ${fmtNear(o[q], oSize)}`, `before: ${fmtNear(e[q], eSize)} (in "${f.inp.name}")`] }));
        focusables.push({ el: r.node()!, row: k * 1000 + 500 + q, col: 0 });
      }
      g.append('rect').attr('class', 'feature-before hot').attr('x', bx(e[q])).attr('y', y + 1).attr('width', bw(e[q])).attr('height', featRowH - 2)
        .attr('fill', 'none').attr('stroke', theme.fg).attr('stroke-width', 1.2)
        .attr('data-tip', tips.add({ lines: [`${word} input embedding, ${data.features[q]}: ${fmtNear(e[q], eSize)}`] }));
      // Two decimals kept (2.20, not 2.2), as the description writes them.
      g.append('text').attr('class', 'feature-values').attr('x', panelW - 8).attr('y', y + fs).attr('text-anchor', 'end').attr('font-size', fs - 1).attr('fill', theme.muted)
        .text(o ? `${fmtFixed(e[q], 2)}→${fmtFixed(o[q], 2)}` : fmtFixed(e[q], 2));
    }
  });
  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};

/** How many times tokens[i] occurs before position i (0 for its first occurrence). */
export function occurrenceRank(tokens: readonly string[], i: number): number {
  let rank = 0;
  for (let j = 0; j < i; j++) if (tokens[j] === tokens[i]) rank++;
  return rank;
}

/** Position of the rank-th occurrence of word (0-based), else of its first, else -1. */
export function nthOccurrence(tokens: readonly string[], word: string, rank: number): number {
  let first = -1, seen = 0;
  for (let j = 0; j < tokens.length; j++) {
    if (tokens[j] !== word) continue;
    if (first < 0) first = j;
    if (seen++ === rank) return j;
  }
  return first;
}

function countOf(tokens: readonly string[], word: string): number {
  let n = 0;
  for (const t of tokens) if (t === word) n++;
  return n;
}
