// Arcs: the tokens in reading order, an arc from each query token to each key it attends to,
// width and opacity by weight, one colour per head. Arcs to a later token bend above the line,
// arcs to an earlier token below, attention to itself is a ring. Hover a token: only its arcs.
// Hover an arc: "watch → apple: weight …, score 136, scaled …". With many tokens only the
// strongest links of each token are kept, and the view says so. Past MAX_DRAWN_TOKENS (a lens's
// 2,048) the line holds a window of that many around the selected token, said in one line; a click
// on a token moves it, so the drawing stays a few thousand elements whatever the input's length.
import { at, row } from '../../../src/core/result/attention-data.js';
import type { InputData } from '../../../src/core/result/attention-data.js';
import { clip, fmt, fmtWeight, textWidth } from '../../kit/format.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { labelEvery, thinnedLabels } from '../../kit/thin-labels.js';
import { divisorText, scoreText } from './matrix-text.js';
import { wireTips, type Tip } from '../../kit/tooltip.js';
import { plainToken, quotedToken, repeatedWords } from '../../kit/token-names.js';
import { clampIndex, createSvg, emptyView, note, type ViewFn } from '../../kit/view.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { outsideWeight, tokenWindow, windowNote } from './long-input.js';

/** Above this many tokens only the TOP_K strongest links of each token are drawn. */
export const ALL_LINKS_UP_TO = 24;
export const TOP_K = 3;

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Links weaker than this are never drawn (they would be invisible anyway). */
export const MIN_WEIGHT = 0.01;

interface Link { h: number; i: number; j: number; w: number }

/** Each link's lane: 0 for the first head linking its query and key, 1 for the second, and so on. */
export function arcLanes(links: readonly Link[]): Map<Link, number> {
  const count = new Map<string, number>();
  const lanes = new Map<Link, number>();
  for (const l of links) {
    const key = `${l.i},${l.j}`;
    const k = count.get(key) ?? 0;
    lanes.set(l, k);
    count.set(key, k + 1);
  }
  return lanes;
}

/** Each query's links of at least minWeight (its topK strongest), among tokens first … first + count − 1 (default: all). */
export function strongestLinks(input: InputData, heads: readonly number[], topK: number | undefined, minWeight = MIN_WEIGHT, first = 0, count = input.tokens.length): Link[] {
  const links: Link[] = [];
  const n = input.tokens.length;
  for (const h of heads) {
    const W = input.heads[h].weights;
    for (let i = first; i < first + count; i++) {
      let kept: Link[] = [];
      for (let j = first; j < first + count; j++) {
        const w = W.data[i * n + j];
        if (w >= minWeight) kept.push({ h, i, j, w });
      }
      if (topK !== undefined && kept.length > topK) kept = kept.sort((a, b) => b.w - a.w).slice(0, topK);
      for (const l of kept) links.push(l);
    }
  }
  return links;
}

export const renderArcs: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const inputIndex = clampIndex(options.input, data.inputs.length);
  const input = data.inputs[inputIndex];
  if (!input || input.tokens.length === 0) return emptyView(container, theme, options.width, 'arcs', 'No tokens to draw.');
  const n = input.tokens.length;
  const H = input.heads.length;
  const hidden = new Set(options.hiddenHeads ?? []);
  const allHeads = input.heads.map((_, h) => h);
  const heads = options.head === 'all' ? allHeads.filter((h) => !hidden.has(h)) : [clampIndex(options.head, H)];
  const notes: string[] = [];
  // A long input: the tokens around the selected one (first … first + m − 1), the others left out.
  const { first, count: m } = tokenWindow(n, options.token);
  if (m < n) notes.push(windowNote({ first, count: m, n }, 'click a token near either end to move them'));
  const last = first + m - 1;
  // What the window leaves out of the selected token's row (the first head shown): a sink before it, say.
  const chosen = options.token >= 0 && options.token < n ? options.token : n - 1;
  const away = heads.length > 0 ? outsideWeight(row(input.heads[heads[0]].weights, chosen), { first, count: m, n }) : undefined;
  if (away && away.share >= MIN_WEIGHT) {
    const [j, w] = away.strongest;
    const named = (k: number) => `${clip(JSON.stringify(input.tokens[k]), 120, theme.fontSize)} (token ${k + 1}`;
    notes.push(`${named(chosen)}) puts ${fmt(away.share, 3)} of its weight${heads.length > 1 ? ` in head "${input.heads[heads[0]].name}"` : ''} on tokens outside them, most on ${named(j)}, ${fmt(w, 3)})`);
  }
  // Many tokens: keep each token's strongest links (fewer when several heads share the picture).
  const topK = m > ALL_LINKS_UP_TO ? (heads.length > 2 ? 1 : heads.length > 1 ? 2 : TOP_K) : undefined;
  if (topK) notes.push(`${m} tokens: showing the ${topK === 1 ? 'strongest link' : `${topK} strongest links`} of each token per head (weights ≥ ${MIN_WEIGHT})${m < n ? ' among them' : ''}; hover or focus a token for its own`);
  const thick = topK ? 3.5 : 7;
  const links = strongestLinks(input, heads, topK, MIN_WEIGHT, first, m);
  if (heads.length === 0) notes.push('every head is hidden: click or press Enter on a head in the legend to show it');

  const fs = theme.fontSize;
  const pad = 12;
  const shownTokens = input.tokens.slice(first, first + m);
  const widest = Math.max(maxOf(shownTokens, (t) => textWidth(t, fs)), 8);
  const avail = Math.max(260, options.width) - 2 * pad;
  // The tokens share the panel's width (a line wider than the panel ran its last labels off the
  // edge); labels that do not fit across stand upright, and every k-th of them is kept when even
  // upright ones would touch (the selected token always, every token's name in its hover).
  const stepIn = (room: number) => Math.max(Math.min(room / m, Math.max(150, widest + 14)), 4);
  // Two heads linking the same pair each get their own lane: drawn on one path, their translucent
  // strokes blended into a colour the legend does not have.
  const lanes = arcLanes(links);
  const laneGap = thick + 3;
  // A ring's radius over a token attending to itself, and how far the first or last token's rings
  // reach past the margin at a step: a causal spec's first token attends only to itself, in every
  // head, one lane a head (8 heads in a 326 px panel ran past the left edge). The line moves in by that.
  const ringR = (l: Link, at: number) => Math.min(at * 0.3, 9) + (lanes.get(l) ?? 0) * laneGap * 0.5;
  const ringsOut = (at: number) => {
    let out = 0;
    for (const l of links) {
      if (l.i === l.j && (l.i === first || l.i === last)) out = Math.max(out, ringR(l, at) + (0.6 + thick * l.w) / 2 - at / 2 - pad);
    }
    return Math.ceil(out);
  };
  let step = stepIn(avail), edge = 0;
  for (let k = 0; k < 3 && ringsOut(step) > edge; k++) {
    edge = ringsOut(step);
    step = stepIn(avail - 2 * edge);
  }
  const slanted = step < widest + 8;
  const labelled = new Set(slanted ? thinnedLabels(m, step, fs * 1.5, [options.token - first]).map((k) => k + first) : shownTokens.map((_, k) => k + first));
  if (labelled.size < m) notes.push(`one token in ${labelEvery(step, fs * 1.5)} is named under the line, and the selected one; hover or focus a token for its name`);
  const lineW = step * m;
  const width = Math.max(options.width, lineW + 2 * pad + 2 * edge);
  const maxReach = Math.min(lineW / 2, 160);
  const arcH = (d: number) => Math.min(maxReach, Math.max(14, d * step * 0.5));
  const reach = (l: Link) => arcH(Math.abs(l.j - l.i)) + (lanes.get(l) ?? 0) * laneGap;
  let maxUp = 0, maxDown = 0;
  for (const l of links) {
    if (l.j > l.i) maxUp = Math.max(maxUp, reach(l));
    if (l.j < l.i) maxDown = Math.max(maxDown, reach(l));
    if (l.j === l.i) maxUp = Math.max(maxUp, 2 * ringR(l, step));
  }
  // Legend items flow like words; their positions are known before the picture's height.
  const legendItems = input.heads.map((head) => `head "${head.name}"`);
  const allLabel = options.head === 'all' ? 'all heads (click or press Enter on one to hide it)' : 'show all heads';
  // Cut with "…" where even a line of its own is too narrow (a 326 px panel ran it past the picture's
  // edge); its hover says what it does.
  const legendRoom = Math.max(260, options.width) - 2 * pad;
  const allShown = textWidth(allLabel, fs) + 4 <= legendRoom ? allLabel : clip(allLabel, legendRoom - 4, fs);
  const legendPos: [number, number][] = [];
  {
    let lx = 0, ly = 0;
    const room = legendRoom;
    legendItems.forEach((label) => {
      const w = textWidth(label, fs) + 30;
      if (lx + w > room && lx > 0) { lx = 0; ly += 20; }
      legendPos.push([lx, ly]);
      lx += w;
    });
    if (lx + textWidth(allShown, fs) + 10 > room && lx > 0) { lx = 0; ly += 20; }
    legendPos.push([lx, ly]);
  }
  // How to read the arcs, as short items that wrap instead of one sentence cut with "…".
  const readingItems = ['arc width = weight', 'above: to a later token', 'below: to an earlier token', 'loop over a token: to itself'];
  const readingPos: [number, number][] = [];
  {
    let lx = 0, ly = legendPos[legendPos.length - 1][1] + 22;
    const room = Math.max(260, options.width) - 2 * pad;
    for (const item of readingItems) {
      const w = textWidth(item, fs - 1) + 18;
      if (lx + w > room && lx > 0) { lx = 0; ly += 16; }
      readingPos.push([lx, ly]);
      lx += w;
    }
  }
  const legendH = readingPos[readingPos.length - 1][1] + 24;
  const titleH = 22 + notes.length * 16;
  const labelH = slanted ? Math.min(widest, 120) + 14 : fs + 12;
  const baseY = titleH + legendH + Math.max(maxUp, 20) + 16;
  const height = baseY + labelH + maxDown + 20;
  const svg = createSvg(container, theme, width, height, `Attention arcs of "${input.name}"`, 'arcs');
  svg.append('text').attr('class', 'title').attr('x', pad).attr('y', 16).attr('font-weight', 600)
    .text(clip(`${input.name}: who attends to whom`, width - 2 * pad, theme.fontSize * 1.1));
  notes.forEach((t, k) => note(svg, theme, pad, 34 + k * 16, t));

  // Legend: one swatch per head; in "all heads" mode clicking toggles a head, otherwise picks it.
  const lg = svg.append('g').attr('class', 'legend').attr('transform', `translate(${pad},${titleH + 6})`);
  input.heads.forEach((head, h) => {
    const on = options.head === 'all' ? !hidden.has(h) : h === heads[0];
    const label = legendItems[h];
    const w = textWidth(label, fs) + 30;
    const [lx, ly] = legendPos[h];
    const item = lg.append('g').attr('class', 'head-toggle hot').attr('data-head', h).attr('role', 'switch')
      .attr('aria-checked', String(on)).attr('transform', `translate(${lx},${ly})`).attr('cursor', 'pointer');
    item.append('rect').attr('width', w - 6).attr('height', 16).attr('rx', 3).attr('fill', 'transparent')
      .attr('stroke', on ? theme.heads[h % theme.heads.length] : theme.grid);
    item.append('rect').attr('x', 5).attr('y', 4).attr('width', 12).attr('height', 8).attr('rx', 2)
      .attr('fill', on ? theme.heads[h % theme.heads.length] : 'none').attr('stroke', theme.heads[h % theme.heads.length]);
    item.append('text').attr('x', 22).attr('y', 12).attr('fill', on ? theme.fg : theme.muted).text(label);
  });
  if (H > 1) {
    const [lx, ly] = legendPos[H];
    const item = lg.append('g').attr('class', 'head-toggle hot').attr('data-head', 'all').attr('transform', `translate(${lx},${ly})`).attr('cursor', 'pointer');
    item.append('text').attr('x', 4).attr('y', 12).attr('fill', theme.focus).attr('text-decoration', 'underline').text(allShown);
  }

  const reading = lg.append('g').attr('class', 'reading').attr('font-size', fs - 1).attr('fill', theme.muted);
  readingItems.forEach((item, k) => reading.append('text').attr('x', readingPos[k][0]).attr('y', readingPos[k][1] + 12).text(item));

  const xOf = (i: number) => pad + edge + step * (i - first) + step / 2;
  const arcsG = svg.append('g').attr('class', 'arcs').attr('fill', 'none');
  const sorted = [...links].sort((a, b) => a.w - b.w);
  // Plain DOM calls into a fragment in the loops below: at 1,024 tokens they make thousands of
  // elements, and d3's selection per attribute cost more than the attributes (same elements, same order).
  const doc = arcsG.node()!.ownerDocument;
  const make = (tag: string, attributes: readonly (readonly [string, string | number])[]) => {
    const e = doc.createElementNS(SVG_NS, tag);
    for (const [name, v] of attributes) e.setAttribute(name, String(v));
    return e;
  };
  const arcPaths = doc.createDocumentFragment();
  for (const l of sorted) {
    const x1 = xOf(l.i), x2 = xOf(l.j);
    let d: string;
    if (l.i === l.j) {
      const r = ringR(l, step);
      d = `M ${x1 - r * 0.6} ${baseY - 10} a ${r} ${r} 0 1 1 ${r * 1.2} 0`;
    } else {
      const up = l.j > l.i;
      const y = up ? baseY - 10 : baseY + labelH;
      const hgt = reach(l) * (up ? -1 : 1);
      d = `M ${x1} ${y} C ${x1} ${y + hgt * 1.33}, ${x2} ${y + hgt * 1.33}, ${x2} ${y}`;
    }
    arcPaths.appendChild(make('path', [
      ['class', 'arc hot'], ['d', d],
      ['data-head', l.h], ['data-query', l.i], ['data-key', l.j], ['data-weight', l.w.toFixed(4)],
      ['stroke', theme.heads[l.h % theme.heads.length]],
      ['stroke-width', (0.6 + thick * l.w).toFixed(2)],
      ['stroke-opacity', (topK ? 0.12 + 0.6 * l.w : 0.18 + 0.8 * l.w).toFixed(3)],
      ['stroke-linecap', 'round'],
    ]));
  }
  arcsG.node()!.appendChild(arcPaths);
  // Arrow heads: a small dot at the key end says where the arc goes.
  const dots = svg.append('g').attr('class', 'key-ends');
  const dotEls = doc.createDocumentFragment();
  for (const l of sorted) {
    if (l.i === l.j || l.w < 0.1) continue;
    dotEls.appendChild(make('circle', [
      ['class', 'key-end'], ['data-query', l.i], ['data-head', l.h],
      ['cx', xOf(l.j)], ['cy', l.j > l.i ? baseY - 10 : baseY + labelH], ['r', 1.5 + 2 * l.w],
      ['fill', theme.heads[l.h % theme.heads.length]], ['pointer-events', 'none'],
    ]));
  }
  dots.node()!.appendChild(dotEls);

  const tokG = svg.append('g').attr('class', 'tokens');
  const selected = options.token >= 0 && options.token < n ? options.token : -1;
  const tokenEls = doc.createDocumentFragment();
  shownTokens.forEach((t, k) => {
    const i = first + k;
    const x = xOf(i);
    const g = make('g', [['class', 'token hot'], ['data-token', i], ['cursor', 'pointer']]);
    tokenEls.appendChild(g);
    const label = clip(t, slanted ? 120 : step - 4, fs);
    g.appendChild(make('rect', [['class', 'token-hit'], ['x', x - step / 2], ['y', baseY - 6], ['width', step], ['height', labelH - 2], ['fill', 'transparent']]));
    const weight = i === selected ? 700 : 400, fill = i === selected ? theme.accent : theme.fg;
    let text: Element | undefined;
    if (!labelled.has(i)) {
      // No room for its name: the hover names it.
    } else if (slanted) {
      text = make('text', [['x', x], ['y', baseY + 6], ['text-anchor', 'end'], ['transform', `rotate(-90 ${x} ${baseY + 6})`], ['dy', '0.35em'], ['font-weight', weight], ['fill', fill]]);
    } else {
      text = make('text', [['x', x], ['y', baseY + fs], ['text-anchor', 'middle'], ['font-weight', weight], ['fill', fill]]);
    }
    if (text) {
      text.textContent = label;
      g.appendChild(text);
    }
    g.appendChild(make('circle', [['cx', x], ['cy', baseY - 10], ['r', 2], ['fill', theme.muted]]));
  });
  tokG.node()!.appendChild(tokenEls);

  const svgNode = svg.node()!;
  const arcEls = () => Array.from(svgNode.querySelectorAll<SVGPathElement>('path.arc'));
  const focusOn = (pred: (el: Element) => boolean) => {
    for (const el of arcEls()) el.setAttribute('visibility', pred(el) ? 'visible' : 'hidden');
    for (const el of Array.from(svgNode.querySelectorAll('circle.key-end'))) el.setAttribute('visibility', pred(el) ? 'visible' : 'hidden');
  };
  const unfocus = () => focusOn(() => true);
  // A repeated word is named with its position ("the" (token 4)), as the token menu numbers it.
  const repeated = repeatedWords(input.tokens);
  const describe = (el: Element): Tip | undefined => {
    if (el.classList.contains('head-toggle')) {
      const hv = el.getAttribute('data-head');
      if (hv === 'all') {
        return { lines: ['show every head, each in its own colour (click or press Enter)'], click: () => options.onPick?.({ head: 'all', hiddenHeads: [] }) };
      }
      const h = Number(hv);
      return {
        lines: [options.head === 'all' ? `head "${input.heads[h].name}": click or press Enter to ${hidden.has(h) ? 'show' : 'hide'} it` : `head "${input.heads[h].name}": click or press Enter to show only it`],
        click: () => {
          if (options.head !== 'all') { options.onPick?.({ head: h }); return; }
          const next = new Set(hidden);
          if (next.has(h)) next.delete(h); else next.add(h);
          options.onPick?.({ hiddenHeads: [...next] });
        },
      };
    }
    if (el.classList.contains('token')) {
      const t = Number(el.getAttribute('data-token'));
      const strongest = heads.map((h) => {
        const weights = row(input.heads[h].weights, t);
        let best = 0;
        weights.forEach((w, j) => { if (w > weights[best]) best = j; });
        return `head "${input.heads[h].name}": attends most to ${quotedToken(input.tokens, best, repeated)} (${fmt(weights[best])})`;
      });
      return {
        lines: [`${input.tokens[t]} (token ${t + 1} of ${n})`, ...strongest, 'click or press Enter: show it in the spec'],
        enter: () => focusOn((a) => Number(a.getAttribute('data-query')) === t),
        leave: unfocus,
        reveal: { kind: 'token', input: inputIndex, token: t },
        click: () => options.onPick?.({ token: t }),
      };
    }
    const h = Number(el.getAttribute('data-head')), i = Number(el.getAttribute('data-query')), j = Number(el.getAttribute('data-key'));
    const head = input.heads[h];
    if (!head) return undefined;
    return {
      lines: [
        `${plainToken(input.tokens, i, repeated)} → ${plainToken(input.tokens, j, repeated)}: weight ${fmtWeight(at(head.weights, i, j), 4)}, score ${scoreText(head, i, j)}, scaled ${scoreText(head, i, j)} ÷ ${divisorText(data, head)} = ${scoreText(head, i, j, true)}`,
        `head "${head.name}"`,
      ],
      enter: () => focusOn((a) => a === el),
      leave: unfocus,
    };
  };
  const cleanups = [wireTips(svgNode, options, '.hot', describe)];
  if (options.interactive) {
    const toks = Array.from(svgNode.querySelectorAll('g.token'), (el, i) => ({ el, row: 0, col: i }));
    cleanups.push(rovingGrid(tokG.node()!, toks, Math.max(0, selected - first)));
    const toggles = Array.from(svgNode.querySelectorAll('g.head-toggle'), (el, i) => ({ el, row: 0, col: i }));
    cleanups.push(rovingGrid(lg.node()!, toggles));
  }
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
