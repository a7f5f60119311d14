// Initialisation lab: why Var(W) = 1/d_in (LeCun), 2/(d_in + d_out) (Xavier) or 2/d_in (Kaiming,
// for ReLU) keeps signals steady. Random inputs through a stack of random d × d layers: the
// activations' variance per layer on a log scale, for each rule, linear and with ReLU; the spread
// of one random W's singular values; and the attention-specific fact: Var(q · k) grows with d_k, so
// without ÷ √d_k the softmax saturates. Seeded in the core: the same picture every time.
import { hotGrid } from '../../kit/keyboard.js';
import type { InitLabJson } from '../../../src/core/result/linalg-json.js';
import { INIT_LAB } from '../../../src/core/result/linalg-data.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { fmt, textWidth, wrapLines } from '../../kit/format.js';
import { wrappedText } from './linalg-view.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { createSvg, drawHeading, emptyView, fitText, layoutHeading, type G, type ViewFn } from '../../kit/view.js';

export const renderInitLab: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const lab: InitLabJson | undefined = data.linalg?.init;
  if (!lab) return emptyView(container, theme, options.width, 'init', 'Working out the initialisation lab…');
  const fs = theme.fontSize, pad = 12;
  const width = Math.max(options.width, 320);
  const notes = [
    `${lab.layers} random ${lab.width} × ${lab.width} layers, 64 random inputs, seed ${INIT_LAB.seed}: the same numbers every time`,
    'on square layers Xavier\'s 2/(d + d) is LeCun\'s 1/d: their curves lie on each other',
  ];
  const two = width >= 760;
  const chartW = two ? (width - 3 * pad) / 2 : width - 2 * pad;
  const chartH = 200;
  const rows = two ? 2 : 4;
  // Headings wrap in a narrow panel (the title was cut with "…", the charts' ran off the picture):
  // the title pushes everything down, and every chart leaves room for the tallest chart heading.
  const titleText = 'How the variance of W keeps a deep stack steady, and why scores are divided by √d_k';
  const title = layoutHeading(titleText, width - 2 * pad, fs, true, 4);
  const headingTexts = ['Variance per layer, linear layers', 'Variance per layer, with ReLU',
    `Singular values of one random ${lab.width} × ${lab.width} W`, `Largest softmax weight of ${lab.tokens} keys against d_k`];
  const headings = headingTexts.map((t) => layoutHeading(t, chartW, fs));
  const headExtra = maxOf(headings, (hd) => hd.extra);
  // The notes wrap too (they ended in "…" at 430–670 px with no way to read the rest).
  const noteLineH = Math.round(fs * 1.35);
  const noteLines = notes.map((s) => wrapLines(s, width - 2 * pad, fs, 4).length);
  const titleH = 24 + title.extra + noteLines.reduce((a, b) => a + b, 0) * noteLineH + 4;
  const blockH = chartH + 80 + headExtra;
  const height = titleH + rows * blockH + 10;
  const svg = createSvg(container, theme, width, height, 'Initialisation lab', 'init');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  let noteY = 34 + title.extra;
  notes.forEach((s) => { noteY += wrappedText(svg, theme, pad, noteY, s, width - 2 * pad, 'note', 4); });
  const tips = new TipTable();
  const place = (k: number) => (two ? { x: pad + (k % 2) * (chartW + pad), y: titleH + Math.floor(k / 2) * blockH } : { x: pad, y: titleH + k * blockH });
  /** A chart's group: its heading, then a group below the heading's lines for the chart itself. */
  const block = (k: number, cls: string): G => {
    const { x, y } = place(k);
    const outer = svg.append('g').attr('class', cls).attr('transform', `translate(${x},${y})`) as unknown as G;
    drawHeading(outer, 'heading', 0, 14, headings[k], headingTexts[k]);
    return outer.append('g').attr('transform', `translate(0,${headExtra})`) as unknown as G;
  };
  const ruleColour = (label: string) => theme.heads[['LeCun', 'Xavier', 'Kaiming', 'Var'].findIndex((p) => label.startsWith(p)) % theme.heads.length] ?? theme.fg;

  (['linear', 'relu'] as const).forEach((activation, k) => {
    const g = block(k, `stack ${activation}`);
    const curves = lab.curves.filter((c) => c.activation === activation);
    logChart(g, 0, 24, chartW, chartH, lab.layers, curves.map((c) => ({ label: c.label, values: c.variance, colour: ruleColour(c.label), why: c.stopped ? `stopped at layer ${c.stopped.layer}: ${c.stopped.why}` : undefined, expected: c.expected })));
  });

  // One random W's singular values, sorted, with the random-matrix edges.
  {
    const g = block(2, 'weight-spectrum');
    const top = Math.max(1e-12, maxOf(lab.spectra, (s) => Math.max(s.edges[1], s.singularValues[0] ?? 0)));
    lab.spectra.forEach((s, r) => {
      const rowY = 28 + r * ((chartH - 10) / 2);
      const h = (chartH - 10) / 2 - 22;
      g.append('text').attr('y', rowY + 10).attr('font-size', fs - 1).attr('fill', ruleColour(s.label)).text(s.label);
      const bw = chartW / Math.max(1, s.singularValues.length);
      s.singularValues.forEach((v, i) => {
        const bh = Math.max(1, (v / top) * h);
        g.append('rect').attr('class', 'sigma hot').attr('x', i * bw).attr('y', rowY + 14 + h - bh).attr('width', Math.max(1, bw - 0.5)).attr('height', bh).attr('fill', ruleColour(s.label))
          .attr('data-tip', tips.add({ lines: [`${s.label}: σ${i + 1} = ${fmt(v)}`, `random-matrix theory puts them between ${fmt(s.edges[0], 2)} and ${fmt(s.edges[1], 2)}: a square W has directions it nearly flattens`] }));
      });
    });
  }

  // Var(q · k) and the largest softmax weight against d_k, scaled and not.
  {
    const g = block(3, 'score-scaling');
    const n = lab.scores.length;
    const px = (i: number) => 30 + (i / Math.max(1, n - 1)) * (chartW - 50);
    const py = (w: number) => 24 + (1 - w) * (chartH - 20);
    g.append('line').attr('x1', 30).attr('x2', chartW - 20).attr('y1', py(1 / lab.tokens)).attr('y2', py(1 / lab.tokens)).attr('stroke', theme.grid).attr('stroke-dasharray', '3 3');
    g.append('text').attr('x', chartW - 20).attr('y', py(1 / lab.tokens) - 3).attr('text-anchor', 'end').attr('font-size', fs - 2).attr('fill', theme.muted).text(`uniform 1/${lab.tokens}`);
    for (const [key, colour, label] of [['maxWeight', theme.heads[2 % theme.heads.length], 'q · k'], ['maxWeightScaled', theme.heads[0], 'q · k ÷ √d_k']] as const) {
      const pts = lab.scores.map((r, i) => `${px(i).toFixed(1)},${py(r[key]).toFixed(1)}`).join(' ');
      g.append('polyline').attr('points', pts).attr('fill', 'none').attr('stroke', colour).attr('stroke-width', 2);
      lab.scores.forEach((r, i) => {
        g.append('circle').attr('class', 'point hot').attr('cx', px(i)).attr('cy', py(r[key])).attr('r', 4).attr('fill', colour)
          .attr('data-tip', tips.add({ lines: [`d_k = ${r.dk}, ${label}: the largest weight is ${fmt(r[key], 3)} on average`,
            `Var(q · k) = ${fmt(r.dotVariance, 3)} (d_k in theory); after ÷ √d_k: ${fmt(r.scaledVariance, 3)} (1 in theory)`] }));
      });
      const last = lab.scores[n - 1];
      if (last) g.append('text').attr('x', px(n - 1) - 6).attr('y', py(last[key]) - 8).attr('text-anchor', 'end').attr('font-size', fs - 2).attr('fill', colour).text(label);
    }
    lab.scores.forEach((r, i) => g.append('text').attr('x', px(i)).attr('y', chartH + 18).attr('text-anchor', 'middle').attr('font-size', fs - 2).text(`d_k ${r.dk}`));
  }

  function logChart(g: G, x: number, y: number, w: number, h: number, layers: number,
    series: { label: string; values: readonly number[]; colour: string; why?: string; expected: readonly number[] }[]): void {
    const box = g.append('g').attr('transform', `translate(${x},${y})`);
    let lo = 0, hi = 0;
    for (const s of series) for (const v of s.values) if (v > 0 && Number.isFinite(v)) { lo = Math.min(lo, Math.log10(v)); hi = Math.max(hi, Math.log10(v)); }
    lo = Math.floor(Math.max(lo, -300)); hi = Math.ceil(Math.min(hi, 300));
    if (hi === lo) hi = lo + 1;
    // The log axis: every k-th decade from 1 (the steady line) up and down, k chosen so that two
    // labels stand at least 2.4 lines apart (1e1 sat on 1, 1e-1 under it); the margin fits the widest.
    const tickFs = fs - 2;
    const perDecade = (h - 10) / (hi - lo);
    const every = Math.max(1, Math.ceil((tickFs * 2.4) / perDecade));
    const decades: number[] = [];
    for (let e = 0; e <= hi; e += every) decades.push(e);
    for (let e = -every; e >= lo; e -= every) decades.push(e);
    const tickText = (e: number) => (e === 0 ? '1' : `1e${e}`);
    const left = Math.max(36, maxOf(decades, (e) => textWidth(tickText(e), tickFs)) + 10);
    const px = (l: number) => left + (l / Math.max(1, layers)) * (w - left - 10);
    const py = (v: number) => h - ((Math.log10(v) - lo) / (hi - lo)) * (h - 10);
    box.append('line').attr('x1', left).attr('x2', w - 10).attr('y1', py(1)).attr('y2', py(1)).attr('stroke', theme.grid);
    for (const e of decades) {
      box.append('line').attr('x1', left - 3).attr('x2', left).attr('y1', py(10 ** e)).attr('y2', py(10 ** e)).attr('stroke', theme.muted);
      box.append('text').attr('class', 'y-tick').attr('x', left - 5).attr('y', py(10 ** e) + tickFs * 0.35).attr('text-anchor', 'end')
        .attr('font-size', tickFs).text(tickText(e));
    }
    series.forEach((s, k) => {
      const pts = s.values.map((v, l) => (v > 0 && Number.isFinite(v) ? `${px(l).toFixed(1)},${py(v).toFixed(1)}` : '')).filter(Boolean).join(' ');
      box.append('polyline').attr('class', 'curve hot').attr('points', pts).attr('fill', 'none').attr('stroke', s.colour).attr('stroke-width', 2)
        .attr('data-tip', tips.add({ lines: [`${s.label}: variance ${fmt(s.values[s.values.length - 1], 3)} after ${s.values.length - 1} layers (theory ${fmt(s.expected[s.expected.length - 1], 3)})`, s.why ?? 'each layer multiplies the variance by d · Var(W) (÷ 2 with ReLU)'] }));
      // The key under the chart, one entry per rule: drawn over the curves it hid them.
      fitText(box.append('text').attr('x', left + (k % 2) * ((w - left - 10) / 2)).attr('y', h + 32 + Math.floor(k / 2) * (fs + 2)).attr('font-size', fs - 2).attr('fill', s.colour), s.label, (w - left - 10) / 2 - 4, fs - 2);
    });
    box.append('text').attr('x', left).attr('y', h + 16).attr('font-size', fs - 2).attr('fill', theme.muted).text(`layer 0 … ${layers}`);
  }

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  // Every number's hover is in reach of the keyboard too: Tab into the view, then the arrows.
  if (options.interactive) cleanups.push(hotGrid(svgNode, '.hot', 'g.stack, g.weight-spectrum, g.score-scaling'));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
