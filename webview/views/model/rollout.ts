// The rollout view (Abnar & Zuidema 2020): R = Â_L ··· Â_1 with Â = 0.5 · mean over heads + 0.5 · I,
// rows renormalised, as a matrix; and for one chosen token (a row of R) a bar chart of how much of
// its information came from each input token. Both axes and the bars carry the tokens (numbered
// where a word repeats or labels are thinned). Clicking a row of the matrix or a bar picks a token.
import { pointer } from 'd3';
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { maxOf } from '../../../src/core/model-attention/data.js';
import { MAX_ROLLOUT_TOKENS, rolloutRefusal } from '../../../src/core/tensors/rollout.js';
import { createSvg, emptyView, type ViewHandle } from '../../kit/view.js';
import { exactWeight, labelIndices, labelStride } from './head.js';
import { wireTips } from '../../kit/tooltip.js';
import { fmt, textWidth } from '../../kit/format.js';
import { repeatedWords } from '../../kit/token-names.js';
import { clampTo, crosshair, finite, heatmapHref, NOTE_LINE, noteLines, shown, tipOptions, tokenLabel, tokenName, wrappedNote, type ModelViewOptions } from './common.js';

/** The `count` largest entries of a row, by a loop: [index, value], largest first. */
export function topEntries(row: ArrayLike<number>, count: number): [number, number][] {
  const best: [number, number][] = [];
  for (let j = 0; j < row.length; j++) {
    const v = row[j];
    if (!Number.isFinite(v)) continue;
    if (best.length < count) best.push([j, v]);
    else if (v > best[best.length - 1][1]) best[best.length - 1] = [j, v];
    else continue;
    best.sort((a, b) => b[1] - a[1]);
  }
  return best;
}

/** A token's label on an axis or a bar: its position when its word repeats or labels skip tokens ("12 " cat""). */
function axisLabel(tokens: readonly string[], i: number, repeated: ReadonlySet<string>, numbered: boolean, px: number, size: number): string {
  const t = tokens[i];
  if (t === undefined) return `#${shown(i)}`;
  const number = numbered || repeated.has(t) ? `${shown(i)} ` : '';
  return `${number}${tokenLabel(tokens, i, px - textWidth(number, size), size)}`;
}

/** A token in a sentence: quoted, with its position when its word repeats (`" cat" (token 2)`). */
export function rolloutToken(tokens: readonly string[], i: number, repeated: ReadonlySet<string>): string {
  const t = tokens[i];
  if (t === undefined) return `#${shown(i)}`;
  return repeated.has(t) ? `${tokenLabel(tokens, i, 90)} (token ${shown(i)})` : tokenLabel(tokens, i, 90);
}

/**
 * Why the view has no rollout to draw, in one sentence: still computing, or refused (too many tokens
 * or over its work budget), then with the limit and what gives one: a shorter text for a run, a file
 * of fewer tokens for a file. Never a blank picture.
 */
export function rolloutAbsence(data: ModelViewData): string {
  const { layers, tokens: n } = data.header;
  const why = rolloutRefusal(layers, n);
  if (!why) return 'rollout: computing…';
  const count = (k: number) => k.toLocaleString('en-US');
  if (n > MAX_ROLLOUT_TOKENS) {
    const where = data.run ? 'this run' : 'this file';
    const remedy = data.run ? `run a text of at most ${count(MAX_ROLLOUT_TOKENS)} tokens to see it` : `a file of at most ${count(MAX_ROLLOUT_TOKENS)} tokens has one`;
    return `Rollout: not computed past ${count(MAX_ROLLOUT_TOKENS)} tokens (its n × n products over every layer), and ${where} has ${count(n)}; ${remedy}. Every head is still in the grid.`;
  }
  return `Rollout: ${why}.`;
}

export function renderModelRollout(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header, rollout } = data;
  const { theme } = options;
  const n = header.tokens;
  if (!rollout || rollout.length !== n * n) return emptyView(container, theme, options.width, 'rollout', rolloutAbsence(data));
  const tokens = header.tokenTexts;
  const repeated = repeatedWords(tokens);
  const token = clampTo(options.token, n);
  // Row labels (the token whose information it is) take LEFT px; key labels stand upright above the
  // matrix and under the bars, at most KEY_LABEL_MAX px tall; as in the head view, thinned to as many as fit.
  const LEFT = 110, KEY_LABEL_MAX = 84, RIGHT = 20;
  const side = Math.max(200, Math.min(560, options.width - LEFT - RIGHT));
  const cell = side / n;
  const stride = labelStride(cell);
  const size = stride > 1 ? 11 : Math.min(12, cell);
  const labels = labelIndices(0, n - 1, stride);
  const keyText = new Map(labels.map((j) => [j, axisLabel(tokens, j, repeated, stride > 1, KEY_LABEL_MAX, size)]));
  // As tall as the longest key label (short tokens left a band of empty space under the bars).
  const KEY_LABEL = Math.min(KEY_LABEL_MAX, Math.ceil(Math.max(0, ...[...keyText.values()].map((t) => textWidth(t, size)))) + 6);
  const width = LEFT + side + RIGHT;
  const max = maxOf(rollout);
  const notes = [`row i: where position i's information came from; R = Â_L···Â_1, Â = 0.5·mean over heads + 0.5·I, rows renormalised (Abnar & Zuidema 2020); colour 0 to ${fmt(max, 4)}${stride > 1 ? `; labels every ${stride} tokens` : ''}`];
  const topLines = noteLines(notes[0], width - 16, 3, theme.fontSize);
  const top = 36 + (topLines.length - 1) * NOTE_LINE + 24 + KEY_LABEL;
  const chartTitle = `where ${tokenName(tokens, token)}'s information came from`;
  const chartTitleLines = noteLines(chartTitle, side + RIGHT - 8, 2, theme.fontSize);
  const chartTop = top + side + 36 + chartTitleLines.length * NOTE_LINE, chartH = 180;
  const row = rollout.subarray(token * n, (token + 1) * n);
  const top5 = topEntries(row, 5);
  const topNote = `most from ${top5.map(([j, v]) => `${rolloutToken(tokens, j, repeated)} (${fmt(v)})`).join(', ')}`;
  notes.push(topNote);
  const topNoteLines = noteLines(topNote, side + RIGHT - 8, 3, theme.fontSize);
  const height = chartTop + chartH + 8 + KEY_LABEL + 20 + topNoteLines.length * NOTE_LINE + 10;
  const svg = createSvg(container, theme, width, height, `Rollout over ${header.layers} layers`, 'rollout');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`rollout over ${header.layers} layer(s)`);
  wrappedNote(svg, theme, 8, 36, notes[0], topLines);
  // The axes: rows are the token whose information it is, columns the token it came from.
  const axes = svg.append('g').attr('class', 'axis-titles').attr('fill', theme.muted);
  axes.append('text').attr('x', LEFT - 4).attr('y', top - 6).attr('text-anchor', 'end').text('token ↓ from →');
  const rowLabels = svg.append('g').attr('class', 'row-labels');
  const colLabels = svg.append('g').attr('class', 'col-labels');
  for (const i of labels) {
    rowLabels.append('text').attr('class', 'row-label').attr('data-i', i).attr('x', LEFT - 4).attr('y', top + (i + 0.5) * cell + size / 3)
      .attr('text-anchor', 'end').attr('font-size', size).attr('font-weight', i === token ? 'bold' : null)
      .text(axisLabel(tokens, i, repeated, stride > 1, LEFT - 10, size));
    colLabels.append('text').attr('class', 'col-label').attr('data-j', i).attr('font-size', size)
      .attr('transform', `translate(${LEFT + (i + 0.5) * cell + size / 3},${top - 4}) rotate(-90)`)
      .text(keyText.get(i)!);
  }
  const m = svg.append('g').attr('class', 'matrix').attr('transform', `translate(${LEFT},${top})`);
  m.append('image').attr('class', 'heatmap').attr('width', side).attr('height', side).attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated')
    .attr('href', heatmapHref(rollout, 0, n, n, n, max, theme, options.deflate));
  m.append('rect').attr('class', 'chosen').attr('y', token * cell).attr('width', side).attr('height', Math.max(1, cell)).attr('fill', 'none').attr('stroke', crosshair(theme));
  // The chosen token's row of R as bars, each labelled with its token under the axis.
  const rowMax = maxOf(row);
  const chart = svg.append('g').attr('class', 'chart').attr('transform', `translate(${LEFT},${chartTop})`);
  const titleText = chart.append('text').attr('class', 'chart-title');
  chartTitleLines.forEach((line, k) => titleText.append('tspan').attr('x', 0).attr('y', -10 - (chartTitleLines.length - 1 - k) * NOTE_LINE).text(k < chartTitleLines.length - 1 ? `${line} ` : line));
  if (chartTitleLines.join(' ') !== chartTitle) titleText.append('title').text(chartTitle);
  const barW = side / n;
  for (let j = 0; j < n; j++) {
    const h = rowMax > 0 ? finite(row[j] / rowMax) * chartH : 0;
    chart.append('rect').attr('class', 'bar').attr('data-j', j).attr('data-value', finite(row[j])).attr('x', j * barW).attr('y', chartH - h)
      .attr('width', Math.max(0.5, barW - (barW > 3 ? 1 : 0))).attr('height', h).attr('fill', j === token ? theme.accent : theme.focus);
  }
  chart.append('line').attr('x2', side).attr('y1', chartH).attr('y2', chartH).attr('stroke', theme.grid);
  const barLabels = chart.append('g').attr('class', 'bar-labels');
  for (const j of labels) {
    barLabels.append('text').attr('class', 'bar-label').attr('data-j', j).attr('font-size', size).attr('text-anchor', 'end')
      .attr('font-weight', j === token ? 'bold' : null)
      .attr('transform', `translate(${(j + 0.5) * barW + size / 3},${chartH + 6}) rotate(-90)`)
      .text(keyText.get(j)!);
  }
  // Wrapped to the chart's width (a narrow panel cut one long line at its edge).
  wrappedNote(chart, theme, 0, chartH + 8 + KEY_LABEL + 16, topNote, topNoteLines);
  const unwire = wireTips(svg.node()!, tipOptions(options), 'rect.bar', (el) => {
    const j = Number(el.getAttribute('data-j'));
    return { lines: [`${tokenName(tokens, token)} ← ${tokenName(tokens, j)}`, `rollout ${exactWeight(row[j])}`], click: () => options.onPick?.({ token: j }) };
  });
  if (options.interactive) {
    m.on('click', (e: MouseEvent) => {
      const [, y] = pointer(e, m.node()!);
      const i = Math.floor(y / cell);
      if (i >= 0 && i < n) options.onPick?.({ token: i });
    }).attr('cursor', 'pointer');
  }
  return { svg: svg.node()!, notes, destroy: () => { unwire(); svg.remove(); } };
}
