// The rollout view (Abnar & Zuidema 2020): R = Â_L ··· Â_1 with Â = 0.5 · mean over heads + 0.5 · I,
// rows renormalised, as a matrix; and for one chosen token (a row of R) a bar chart of how much of
// its information came from each input token. Clicking a row of the matrix or a bar picks a token.
import { pointer } from 'd3';
import type { ModelViewData } from '../../../src/core/model-attention/data.js';
import { maxOf } from '../../../src/core/model-attention/data.js';
import { rolloutRefusal } from '../../../src/core/tensors/rollout.js';
import { createSvg, emptyView, note, type ViewHandle } from '../../kit/view.js';
import { exactWeight } from './head.js';
import { wireTips } from '../../kit/tooltip.js';
import { fmt } from '../../kit/format.js';
import { clampTo, crosshair, finite, heatmapHref, noteLines, tipOptions, tokenLabel, tokenName, wrappedNote, type ModelViewOptions } from './common.js';

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

export function renderModelRollout(container: HTMLElement, data: ModelViewData, options: ModelViewOptions): ViewHandle {
  const { header, rollout } = data;
  const { theme } = options;
  const n = header.tokens;
  if (!rollout || rollout.length !== n * n) {
    const why = rolloutRefusal(header.layers, n) ?? 'rollout: computing…';
    return emptyView(container, theme, options.width, 'rollout', why);
  }
  const tokens = header.tokenTexts;
  const token = clampTo(options.token, n);
  const side = Math.max(200, Math.min(560, options.width - 120));
  const cell = side / n;
  const left = 60, top = 56;
  const chartTop = top + side + 50, chartH = 180;
  const width = left + side + 40, height = chartTop + chartH + 80;
  const svg = createSvg(container, theme, width, height, `Rollout over ${header.layers} layers`, 'rollout');
  svg.append('text').attr('x', 8).attr('y', 18).attr('font-weight', 'bold').text(`rollout over ${header.layers} layer(s)`);
  const max = maxOf(rollout);
  const notes = [`row i: where position i's information came from; R = Â_L···Â_1, Â = 0.5·mean over heads + 0.5·I, rows renormalised (Abnar & Zuidema 2020); colour 0 to ${fmt(max, 4)}`];
  note(svg, theme, 8, 36, notes[0]);
  const m = svg.append('g').attr('class', 'matrix').attr('transform', `translate(${left},${top})`);
  m.append('image').attr('class', 'heatmap').attr('width', side).attr('height', side).attr('preserveAspectRatio', 'none').attr('image-rendering', 'pixelated')
    .attr('href', heatmapHref(rollout, 0, n, n, n, max, theme, options.deflate));
  m.append('rect').attr('class', 'chosen').attr('y', token * cell).attr('width', side).attr('height', Math.max(1, cell)).attr('fill', 'none').attr('stroke', crosshair(theme));
  // The chosen token's row of R as bars.
  const row = rollout.subarray(token * n, (token + 1) * n);
  const rowMax = maxOf(row);
  const chart = svg.append('g').attr('class', 'chart').attr('transform', `translate(${left},${chartTop})`);
  chart.append('text').attr('y', -10).text(`where ${tokenName(tokens, token)}'s information came from`);
  const barW = side / n;
  for (let j = 0; j < n; j++) {
    const h = rowMax > 0 ? finite(row[j] / rowMax) * chartH : 0;
    chart.append('rect').attr('class', 'bar').attr('data-j', j).attr('data-value', finite(row[j])).attr('x', j * barW).attr('y', chartH - h)
      .attr('width', Math.max(0.5, barW - (barW > 3 ? 1 : 0))).attr('height', h).attr('fill', j === token ? theme.accent : theme.focus);
  }
  chart.append('line').attr('x2', side).attr('y1', chartH).attr('y2', chartH).attr('stroke', theme.grid);
  const top5 = topEntries(row, 5);
  const topNote = `most from ${top5.map(([j, v]) => `${tokenLabel(tokens, j, 90)} (${fmt(v)})`).join(', ')}`;
  notes.push(topNote);
  // Wrapped to the chart's width (a narrow panel cut one long line at its edge).
  wrappedNote(chart, theme, 0, chartH + 20, topNote, noteLines(topNote, side + 30, 3, theme.fontSize));
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
