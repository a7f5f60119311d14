// Tokens: the head view of BertViz for a spec. The input's tokens twice, queries on the left and
// keys on the right, joined by one line per head and pair whose opacity is the weight, in the
// head's colour. Hover a token (or focus it with Tab and the arrows) and only its lines stay: a
// query's row of weights, or a key's column; the tokens on the other side light up by their weight.
// A repeated word keeps its position beside it ("watch (2)", "watch (5)"), so the two stay apart.
// Past MAX_DRAWN_TOKENS (a lens's 2,048) both sides hold a window of that many around the selected
// token, said in one line; a token's hover still names its strongest over the whole input, and a
// click on one moves the window.
import { at, type HeadData } from '../../../src/core/result/attention-data.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { clip, fmtWeight, textWidth } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { clampIndex, createSvg, drawHeading, emptyView, layoutHeading, note, type ViewFn } from '../../kit/view.js';
import { listedKeys, tokenWindow, windowNote } from './long-input.js';

/** Past this many lines (pairs × heads) only the hovered token's lines are drawn, never all at once. */
const MAX_RESTING_LINES = 20_000;

/** Each token's label: the word, and its position when the word occurs more than once. */
export function tokenLabels(tokens: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const t of tokens) count.set(t, (count.get(t) ?? 0) + 1);
  return tokens.map((t, i) => ((count.get(t) ?? 0) > 1 ? `${t} (${i + 1})` : t));
}

export const renderTokens: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const inputIndex = clampIndex(options.input, data.inputs.length);
  const input = data.inputs[inputIndex];
  if (!input || input.tokens.length === 0 || input.heads.length === 0) return emptyView(container, theme, options.width, 'tokens', 'No tokens to draw.');
  const fs = theme.fontSize, pad = 12;
  const n = input.tokens.length;
  const hidden = new Set(options.hiddenHeads ?? []);
  const shownHeads = options.head === 'all'
    ? input.heads.map((_, h) => h).filter((h) => !hidden.has(h))
    : [clampIndex(options.head, input.heads.length)];
  const labels = tokenLabels(input.tokens);
  // The tokens drawn: first … first + m − 1 (all of them up to MAX_DRAWN_TOKENS).
  const { first, count: m } = tokenWindow(n, options.token);
  const drawn = Array.from({ length: m }, (_, k) => first + k);
  const width = Math.max(options.width, 320);
  const labelW = Math.min(160, Math.max(40, maxOf(drawn, (k) => textWidth(labels[k], fs)) + 10), (width - 2 * pad - 80) / 2);
  const gap = Math.min(360, width - 2 * pad - 2 * labelW);
  const left = pad + (width - 2 * pad - 2 * labelW - gap) / 2 + labelW;
  const right = left + gap;
  const rowH = Math.max(fs + 6, Math.min(28, 600 / m));
  const tokenFs = Math.min(fs, rowH - 3);
  const headName = (h: number) => input.heads[h].name;
  const titleText = `Who attends to whom in "${input.name}": hover or focus a token (left: queries, right: keys); a line's opacity is its weight`
    + (shownHeads.length === 1 ? `, head "${headName(shownHeads[0])}"` : `, ${shownHeads.length} heads`);
  const title = layoutHeading(titleText, width - 2 * pad, fs, true, 4);
  const legendH = shownHeads.length > 1 ? 20 : 0;
  const resting = m * m * shownHeads.length <= MAX_RESTING_LINES;
  // Written on the picture under the legend, a line each (cut to the width, whole in its hover).
  const notes = [
    ...(m < n ? [windowNote({ first, count: m, n }, 'a token\'s hover names its strongest over all of them; click a token to move the window')] : []),
    ...(resting ? [] : [`${m} tokens: the lines are drawn for one token at a time: the selected one, or the one hovered or focused`]),
  ];
  const notesY = 30 + title.extra + legendH + 8;
  const top = notesY + notes.length * 16;
  const height = top + m * rowH + 16;
  const svg = createSvg(container, theme, width, height, `Attention between the tokens of "${input.name}"`, 'tokens');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  notes.forEach((t, k) => note(svg, theme, pad, notesY + 4 + k * 16, t));
  const colour = (h: number) => theme.heads[h % theme.heads.length];
  if (legendH) {
    let x = pad;
    const lg = svg.append('g').attr('class', 'legend');
    for (const h of shownHeads) {
      const name = clip(headName(h), 120, fs - 1);
      lg.append('rect').attr('x', x).attr('y', 26 + title.extra).attr('width', 10).attr('height', 10).attr('fill', colour(h));
      lg.append('text').attr('x', x + 14).attr('y', 35 + title.extra).attr('font-size', fs - 1).text(name);
      x += 14 + textWidth(name, fs - 1) + 14;
      if (x > width - pad - 60) break;
    }
  }
  const y = (i: number) => top + (i - first) * rowH + rowH / 2;
  const visible = (head: HeadData, i: number, j: number) => !(head.masked[i * n + j]);

  // The lines: one per head and pair, kept by query and by key for the hover.
  const lines = svg.append('g').attr('class', 'lines');
  const drawLines = (only?: { side: 'query' | 'key'; index: number }) => {
    lines.selectAll('*').remove();
    for (const h of shownHeads) {
      const head = input.heads[h];
      const pairs: [number, number][] = [];
      if (only?.side === 'query') for (const j of drawn) pairs.push([only.index, j]);
      else if (only?.side === 'key') for (const i of drawn) pairs.push([i, only.index]);
      else if (resting) for (const i of drawn) for (const j of drawn) pairs.push([i, j]);
      for (const [i, j] of pairs) {
        const w = at(head.weights, i, j);
        if (!visible(head, i, j) || !(w > 0.005)) continue;
        lines.append('line').attr('class', 'link').attr('data-head', h).attr('data-query', i).attr('data-key', j)
          .attr('x1', left + 6).attr('y1', y(i)).attr('x2', right - 6).attr('y2', y(j))
          .attr('stroke', colour(h)).attr('stroke-width', 2).attr('stroke-opacity', only ? w : w * 0.6);
      }
    }
  };
  drawLines();

  // The tokens: each a focusable label; its weights light the other side.
  const tips = new TipTable();
  const focusables: { el: Element; row: number; col: number }[] = [];
  const shades = svg.append('g').attr('class', 'shades');
  const light = (side: 'query' | 'key', index: number) => {
    shades.selectAll('*').remove();
    drawLines({ side, index });
    const other = side === 'query' ? 'key' : 'query';
    for (const k of drawn) {
      // The strongest head's weight (the one line a reader follows), as the token's shade.
      const w = maxOf(shownHeads, (h) => {
        const head = input.heads[h];
        const [i, j] = side === 'query' ? [index, k] : [k, index];
        return visible(head, i, j) ? at(head.weights, i, j) : 0;
      });
      const x = other === 'key' ? right : left - labelW;
      shades.append('rect').attr('class', `shade ${other}`).attr('data-token', k).attr('x', x).attr('y', y(k) - rowH / 2 + 1).attr('width', labelW).attr('height', rowH - 2)
        .attr('fill', theme.accent).attr('fill-opacity', Math.min(1, w) * 0.45).attr('pointer-events', 'none');
    }
  };
  // Too many lines to draw at rest: the selected token's stand in for them (never an empty picture).
  const selected = options.token >= first && options.token < first + m ? options.token : first + m - 1;
  const rest = () => {
    if (!resting) { light('query', selected); return; }
    shades.selectAll('*').remove();
    drawLines();
  };
  if (!resting) rest();
  const tipLines = (side: 'query' | 'key', k: number) => {
    const out = [side === 'query' ? `"${labels[k]}" as a query: its weights on every key` : `"${labels[k]}" as a key: the weight every query gives it`];
    for (const h of shownHeads) {
      const head = input.heads[h];
      // The four strongest over the whole input (a window's hover names what lies outside it too), never a sort of all n.
      const weight = (o: number) => (side === 'query' ? at(head.weights, k, o) : at(head.weights, o, k));
      const open = (o: number) => (side === 'query' ? visible(head, k, o) : visible(head, o, k));
      const ranked = listedKeys(n, weight, open, [], 4).filter(open)
        .map((o) => ({ o, w: weight(o) }))
        .sort((a, b) => b.w - a.w || a.o - b.o);
      out.push(`head "${headName(h)}": ${ranked.map((r) => `${labels[r.o]} ${fmtWeight(r.w)}`).join(', ') || 'every key masked'}`);
      if (out.length > 9) break;
    }
    return out;
  };
  const tokenGroup = svg.append('g').attr('class', 'tokens');
  drawn.forEach((k) => {
    for (const side of ['query', 'key'] as const) {
      const el = tokenGroup.append('text').attr('class', `token ${side} hot`).attr('data-token', k).attr('data-side', side)
        .attr('x', side === 'query' ? left : right).attr('y', y(k) + tokenFs * 0.35).attr('text-anchor', side === 'query' ? 'end' : 'start')
        .attr('font-size', tokenFs).attr('cursor', 'default').text(clip(labels[k], labelW - 8, tokenFs))
        .attr('data-tip', tips.add({ lines: tipLines(side, k), enter: () => light(side, k), leave: rest, ...(m < n ? { click: () => options.onPick?.({ token: k }) } : {}) }));
      focusables.push({ el: el.node()!, row: k - first, col: side === 'query' ? 0 : 1 });
    }
  });
  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
