// The quadrant plot: two named axes (directions over the features, from views.quadrant), each
// input token as a hollow point where its embedding sits and a filled point where attention
// moved it, with an arrow between. Every input in one plot, on one scale. Without axes in the
// spec: the first two principal components of all the vectors, and the plot says so.
import { row } from '../../../src/core/result/attention-data.js';
import { scaleLinear, type Selection } from 'd3';
import type { AttentionData, InputData, Matrix } from '../../../src/core/result/attention-data.js';
import { clip, fmt, fmtNear, largestAbs, textWidth, thousands } from '../../kit/format.js';
import { LabelPlacer } from '../../kit/label-placer.js';
import { pca2 } from '../../../src/core/linalg/pca.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { clampIndex, createSvg, drawHeading, drawNotes, emptyView, layoutHeading, layoutNotes, nextId, type ViewFn, type ViewOptions } from '../../kit/view.js';
import { extentOf } from '../../../src/core/linalg/extent.js';
import { overBudget, QUADRANT_PCA } from '../../../src/core/budget.js';

interface Outputs {
  /** Per input, per token, the vector after attention (or undefined when not plottable). */
  rows?: (input: InputData) => Matrix;
  /** What the filled points are. */
  label: string;
  /** Said on the plot when outputs cannot be drawn in the embedding space. */
  why?: string;
}

/** Which vectors "after attention" live in the embedding space (width d_model) and can be plotted. */
export function plottableOutputs(data: AttentionData, options: Pick<ViewOptions, 'head'>): Outputs {
  const input0 = data.inputs[0];
  const d = data.dModel;
  if (!input0) return { label: '' };
  if (typeof options.head === 'number') {
    // The chosen head, or nothing: showing another head's output under this head's name was a wrong picture.
    const h = clampIndex(options.head, input0.heads.length);
    const head = input0.heads[h];
    if (head?.dv === d) return { rows: (inp) => inp.heads[h].output, label: `after head "${head.name}"` };
    return { label: '', why: `head "${head?.name ?? h}" gives ${head?.dv ?? 0} numbers per token (d_v), not d_model = ${d}: its output cannot be placed on these axes, only the inputs are shown` };
  }
  const width = input0.output.cols;
  if (width === d) return { rows: (inp) => inp.output, label: input0.heads.length > 1 ? 'after attention (heads joined, then W_O)' : 'after attention' };
  const h = input0.heads.findIndex((head) => head.dv === d);
  if (h >= 0) {
    // "All heads" cannot be one picture here: say which head is plotted, and how to see the others.
    const fit = input0.heads.filter((head) => head.dv === d).length;
    const others = input0.heads.length - 1;
    const rest = fit > 1 ? `; ${fit - 1} other head${fit > 2 ? 's' : ''} could be: pick ${fit > 2 ? 'one' : 'it'} in the Head menu`
      : others > 0 ? `; the other head${others > 1 ? 's give' : ' gives'} fewer numbers and cannot be placed on these axes` : '';
    return {
      rows: (inp) => inp.heads[h].output, label: `after head "${input0.heads[h].name}"`,
      why: `all heads: the joined output is ${width} wide, not d_model = ${d}, so only head "${input0.heads[h].name}" is plotted${rest}`,
    };
  }
  return { label: '', why: `outputs are ${width} wide, not d_model = ${d}: they cannot be placed on these axes, only the inputs are shown` };
}

/** A share as a whole percentage; "?" when it cannot be known (never "NaN%"). */
const percent = (share: number) => (Number.isFinite(share) ? `${Math.round(share * 100)}%` : '?');

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * (b[i] ?? 0);
  return s;
};

/**
 * The vectors the principal components are computed from: every token's embedding and output, in
 * order, or, past QUADRANT_PCA (src/core/budget.ts), every k-th of them with the sentence that says
 * so; a sentence alone when even two vectors are over it.
 */
export function pcaSample(data: AttentionData, outs: Outputs): { vectors: Float64Array[]; note?: string } | string {
  const total = data.inputs.reduce((sum, inp) => sum + inp.tokens.length + (outs.rows?.(inp).rows ?? 0), 0);
  const d = data.dModel;
  const step = Math.max(1, Math.ceil((total * d) / QUADRANT_PCA.max));
  const kept = Math.ceil(total / step);
  const asked = `${thousands(total)} vectors of d_model ${thousands(d)}`;
  if (step > 1 && (kept < 2 || 2 * d > QUADRANT_PCA.max)) {
    return overBudget(QUADRANT_PCA, total * d, asked, 'name the axes (views.quadrant) to plot vectors this wide')!;
  }
  const vectors: Float64Array[] = [];
  let k = 0;
  const take = (m: Matrix, t: number) => { if (k++ % step === 0) vectors.push(row(m, t)); };
  for (const inp of data.inputs) {
    for (let t = 0; t < inp.tokens.length; t++) take(inp.embeddings, t);
    const o = outs.rows?.(inp);
    if (o) for (let t = 0; t < o.rows; t++) take(o, t);
  }
  return step === 1 ? { vectors } : { vectors, note: overBudget(QUADRANT_PCA, total * d, asked, `they are computed from one vector in ${step} (${thousands(vectors.length)} of them)`) };
}

export const renderQuadrant: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const inputs = data.inputs.filter((inp) => inp.tokens.length > 0);
  if (inputs.length === 0) return emptyView(container, theme, options.width, 'quadrant', 'No tokens to draw.');
  const notes: string[] = [];
  const outs = plottableOutputs(data, options);
  if (outs.why) notes.push(outs.why);
  const q = data.views.quadrant;
  let project: (v: ArrayLike<number>) => [number, number];
  let xLabel: string, yLabel: string, xEnds: readonly [string, string] | undefined, yEnds: readonly [string, string] | undefined;
  if (q && q.x.direction.length === data.dModel && q.y.direction.length === data.dModel) {
    project = (v) => [dot(v, q.x.direction), dot(v, q.y.direction)];
    xLabel = q.x.label; yLabel = q.y.label; xEnds = q.x.ends; yEnds = q.y.ends;
  } else {
    const sample = pcaSample(data, outs);
    if (typeof sample === 'string') return emptyView(container, theme, options.width, 'quadrant', sample);
    if (sample.note) notes.push(sample.note);
    const p = pca2(sample.vectors);
    project = p.project;
    xLabel = `PC1 (${percent(p.explained[0])} of the variance)`;
    yLabel = `PC2 (${percent(p.explained[1])})`;
    notes.push(`no axes in the spec (views.quadrant): showing the first two principal components of ${sample.note ? 'a sample of' : 'all'} the vectors`);
  }

  // A point whose coordinates overflow (huge embeddings on a long direction) cannot be placed:
  // it is left out and the plot says so, rather than drawn at NaN.
  // Past 1e300 the scale's own arithmetic (a span, a nice domain) overflows: such points are left out too.
  const drawable = (v: number) => Number.isFinite(v) && Math.abs(v) <= 1e300;
  const finite = (c: [number, number] | undefined) => !c || (drawable(c[0]) && drawable(c[1]));
  const pts: { inp: number; tok: number; p: [number, number]; o?: [number, number] }[] = [];
  let unplaced = 0;
  data.inputs.forEach((inp, a) => inp.tokens.forEach((_, t) => {
    const pt = { inp: a, tok: t, p: project(row(inp.embeddings, t)), o: outs.rows ? project(row(outs.rows(inp), t)) : undefined };
    if (finite(pt.p) && finite(pt.o)) pts.push(pt);
    else unplaced++;
  }));
  if (unplaced > 0) notes.push(`${unplaced} token(s) left out: their coordinates are too large to draw`);
  // Where the four quadrants meet: at 0, unless every point is on one side of 0 on an axis (all the
  // mouse points had positive coordinates, so all sat in one quadrant); then at the points' mean.
  const coords = (k: 0 | 1) => pts.flatMap((p) => (p.o ? [p.p[k], p.o[k]] : [p.p[k]]));
  const splitAt = (k: 0 | 1) => {
    const v = coords(k);
    const oneSide = v.length > 1 && (v.every((x) => x >= 0) || v.every((x) => x <= 0));
    const mean = v.reduce((s, x) => s + x, 0) / Math.max(1, v.length);
    return oneSide && Number.isFinite(mean) ? mean : 0;
  };
  const split: [number, number] = [splitAt(0), splitAt(1)];
  if (q?.quadrants && (split[0] !== 0 || split[1] !== 0)) {
    notes.push(`quadrants split at the mean of the points (${fmt(split[0], 2)}, ${fmt(split[1], 2)}): every point is on one side of 0`);
  }

  const fs = theme.fontSize;
  const pad = 12;
  // The title and the notes wrap in a narrow panel: cut, the note saying which head is shown was lost.
  const titleText = `${data.title ?? 'Embeddings'}: where each word sits, and where attention moves it`;
  const heading = layoutHeading(titleText, Math.max(options.width, 284) - 2 * pad, fs);
  const noteBlock = layoutNotes(notes, Math.max(options.width, 284) - 2 * pad, fs);
  const titleH = 24 + heading.extra + noteBlock.height;
  const legendH = 22 * Math.ceil(inputs.length / 2) + 22;
  const plotW = Math.max(260, Math.min(options.width - 2 * pad, 900));
  const plotH = Math.max(220, Math.min(plotW * 0.75, 620));
  const left = pad + fs + 34, top = titleH + legendH + 8;
  const innerW = plotW - (left - pad) - 10, innerH = plotH - 40;
  const width = Math.max(options.width, plotW + 2 * pad);
  const height = top + innerH + 64;

  const xs = pts.flatMap((p) => (p.o ? [p.p[0], p.o[0]] : [p.p[0]])).concat([0]);
  const ys = pts.flatMap((p) => (p.o ? [p.p[1], p.o[1]] : [p.p[1]])).concat([0]);
  const ext = (v: number[]): [number, number] => {
    const [lo, hi] = extentOf(v);
    // A span too small for d3's ticks (points 1e-300 apart) is widened to the size of the values,
    // or to 1: the points then sit together, which is what they are at this scale.
    // Halves first: 1e308 − (−1e308) overflows, its half does not.
    const half = hi / 2 - lo / 2;
    const pad = half > 1e-100 * Math.max(1, Math.abs(lo), Math.abs(hi)) ? half * 0.16 : Math.max(1, Math.abs(lo) / 2, Math.abs(hi) / 2) * 0.2;
    const clampD = (v: number) => Math.max(-Number.MAX_VALUE / 2, Math.min(Number.MAX_VALUE / 2, v));
    return [clampD(lo - pad), clampD(hi + pad)];
  };
  const sx = scaleLinear().domain(ext(xs)).range([left, left + innerW]).nice();
  const sy = scaleLinear().domain(ext(ys)).range([top + innerH, top]).nice();

  const svg = createSvg(container, theme, width, height, `Quadrant plot: ${xLabel} against ${yLabel}`, 'quadrant');
  drawHeading(svg, 'title', pad, 16, heading, titleText);
  drawNotes(svg, theme, pad, 34 + heading.extra, noteBlock, notes);

  // Legend: one colour per input, hollow = input embedding, filled = after attention.
  const lg = svg.append('g').attr('class', 'legend').attr('transform', `translate(${pad},${titleH + 4})`);
  const colW = Math.max(180, (width - 2 * pad) / 2);
  data.inputs.forEach((inp, a) => {
    const c = theme.heads[a % theme.heads.length];
    const g = lg.append('g').attr('transform', `translate(${(a % 2) * colW},${Math.floor(a / 2) * 22})`);
    g.append('circle').attr('cx', 6).attr('cy', 8).attr('r', 5).attr('fill', c);
    const name = clip(inp.name, colW - 24, fs);
    const t = g.append('text').attr('x', 16).attr('y', 12).text(name);
    if (name !== inp.name) t.append('title').text(inp.name);
  });
  const ly = Math.ceil(data.inputs.length / 2) * 22;
  lg.append('circle').attr('cx', 6).attr('cy', ly + 8).attr('r', 4.5).attr('fill', theme.bg).attr('stroke', theme.fg).attr('stroke-width', 1.5);
  const key = outs.rows ? `input embedding → ● ${outs.label}` : 'input embedding';
  const keyShown = clip(key, width - 2 * pad - 16, fs);
  const keyText = lg.append('text').attr('x', 16).attr('y', ly + 12).attr('fill', theme.muted).text(keyShown);
  if (keyShown !== key) keyText.append('title').text(key);

  // Every label on the plot (ticks, quadrant names, points) takes its box from one placer, so none
  // covers another; a box is the text's estimated width with a margin by the height the browser
  // gives a line (1.4 em: boxes one font size tall let tick and point labels touch), inside the picture.
  const placer = new LabelPlacer({ x: 0, y: top - 8, w: width, h: height - top + 8 });
  const boxW = (text: string, size: number) => textWidth(text, size) * 1.1 + 2;
  const boxH = (size: number) => size * 1.4;
  const takeText = (text: string, x: number, y: number, size: number, anchor: 'start' | 'middle' | 'end') => {
    const w = boxW(text, size);
    placer.take({ x: anchor === 'start' ? x : anchor === 'middle' ? x - w / 2 : x - w, y: y - boxH(size) * 0.8, w, h: boxH(size) });
  };
  // Axes cross where both coordinates are 0 (inside the domain, thanks to the padding above).
  const ax = svg.append('g').attr('class', 'axes');
  const x0 = sx(0), y0 = sy(0);
  ax.append('rect').attr('x', left).attr('y', top).attr('width', innerW).attr('height', innerH).attr('fill', 'none').attr('stroke', theme.grid);
  ax.append('line').attr('x1', left).attr('x2', left + innerW).attr('y1', y0).attr('y2', y0).attr('stroke', theme.muted);
  ax.append('line').attr('x1', x0).attr('x2', x0).attr('y1', top).attr('y2', top + innerH).attr('stroke', theme.muted);
  for (const t of safeTicks(sx)) {
    ax.append('line').attr('x1', sx(t)).attr('x2', sx(t)).attr('y1', top + innerH).attr('y2', top + innerH + 4).attr('stroke', theme.muted);
    ax.append('text').attr('x', sx(t)).attr('y', top + innerH + 16).attr('text-anchor', 'middle').attr('fill', theme.muted).attr('font-size', fs - 1).text(fmt(t, 2));
    takeText(fmt(t, 2), sx(t), top + innerH + 16, fs - 1, 'middle');
  }
  // A y tick's label that would touch an x tick's at the corner ("-0.5" on "-0.5") is left out: its
  // tick mark stays, and the x axis names the same value.
  for (const t of safeTicks(sy)) {
    ax.append('line').attr('x1', left - 4).attr('x2', left).attr('y1', sy(t)).attr('y2', sy(t)).attr('stroke', theme.muted);
    const label = fmt(t, 2), w = boxW(label, fs - 1);
    if (placer.place([[left - 6 - w, sy(t) + 4]], w, boxH(fs - 1))) {
      ax.append('text').attr('x', left - 6).attr('y', sy(t) + 4).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(label);
    }
  }
  const axisText = (t: Selection<SVGTextElement, unknown, null, undefined>, forms: string[], px: number) => {
    // The first form that fits (bold text measures 1.1 times), else the last cut, the whole in its hover.
    const shown = forms.find((f) => textWidth(f, fs) * 1.1 <= px) ?? clip(forms[forms.length - 1], px / 1.1, fs);
    t.text(shown);
    if (shown !== forms[0]) t.append('title').text(forms[0]);
  };
  axisText(ax.append('text').attr('class', 'axis-title x-title').attr('x', left + innerW / 2).attr('y', top + innerH + 34).attr('text-anchor', 'middle').attr('font-weight', 600),
    axisTitles(xLabel, xEnds), innerW - 8);
  const yx = pad + fs - 2, yy = top + innerH / 2;
  // Fitted to the plot's height: longer, it ran up into the legend.
  axisText(ax.append('text').attr('class', 'axis-title y-title').attr('x', yx).attr('y', yy).attr('text-anchor', 'middle').attr('font-weight', 600)
    .attr('transform', `rotate(-90 ${yx} ${yy})`), axisTitles(yLabel, yEnds), innerH - 8);
  if (q?.quadrants && (split[0] !== 0 || split[1] !== 0)) {
    ax.append('line').attr('class', 'split').attr('x1', sx(split[0])).attr('x2', sx(split[0])).attr('y1', top).attr('y2', top + innerH)
      .attr('stroke', theme.muted).attr('stroke-dasharray', '4 3');
    ax.append('line').attr('class', 'split').attr('x1', left).attr('x2', left + innerW).attr('y1', sy(split[1])).attr('y2', sy(split[1]))
      .attr('stroke', theme.muted).attr('stroke-dasharray', '4 3');
  }
  if (q?.quadrants) {
    // top-right, top-left, bottom-left, bottom-right
    const spots: [number, number, string][] = [
      [left + innerW - 6, top + 16, 'end'], [left + 6, top + 16, 'start'],
      [left + 6, top + innerH - 8, 'start'], [left + innerW - 6, top + innerH - 8, 'end'],
    ];
    q.quadrants.forEach((name, k) => {
      ax.append('text').attr('class', 'quadrant-name').attr('x', spots[k][0]).attr('y', spots[k][1])
        .attr('text-anchor', spots[k][2]).attr('fill', theme.muted).attr('font-style', 'italic').text(name);
      takeText(name, spots[k][0], spots[k][1], fs, spots[k][2] as 'start' | 'end');
    });
  }

  const tips = new TipTable();
  const marker = nextId('arrow');
  const defs = svg.append('defs');
  data.inputs.forEach((_, a) => {
    defs.append('marker').attr('id', `${marker}-${a}`).attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
      .attr('markerUnits', 'userSpaceOnUse').attr('markerWidth', 9).attr('markerHeight', 9).attr('orient', 'auto-start-reverse')
      .append('path').attr('d', 'M 0 0 L 10 5 L 0 10 z').attr('fill', theme.heads[a % theme.heads.length]);
  });
  const arrows = svg.append('g').attr('class', 'arrows');
  const points = svg.append('g').attr('class', 'points');
  const labels = svg.append('g').attr('class', 'labels').attr('pointer-events', 'none');
  const placed = new Set<string>();
  // Labels that would cover each other move to another side of their point, or are left to the hover.
  const around = (x: number, y: number, w: number, h: number): [number, number][] => [
    [x + 8, y - 6], [x + 8, y + h + 4], [x - 8 - w, y - 6], [x - 8 - w, y + h + 4], [x - w / 2, y - 10], [x - w / 2, y + h + 10],
    // A ring further out, for a point crowded by arrows and other labels.
    [x + 8, y + h / 2], [x - 8 - w, y + h / 2], [x + 14, y - 14], [x - 14 - w, y - 14], [x + 14, y + h + 12], [x - 14 - w, y + h + 12],
  ];
  const sel = { input: clampIndex(options.input, data.inputs.length), token: options.token };
  // Only the entries shown are written (every one of 8,192 per point was, then 16 kept: 23 s of 35).
  const vecLines = (v: ArrayLike<number>, names: readonly string[]) => {
    // Each entry judged against the vector's largest: rounding noise reads ≈0.
    const scale = largestAbs(v);
    const parts = Array.from({ length: Math.min(v.length, 16) }, (_, k) => `${names[k] ?? `d${k}`} ${fmtNear(v[k], scale)}`);
    return v.length > 16 ? [`${parts.join(', ')}, … (${v.length} in all)`] : [parts.join(', ')];
  };
  const focusables: { el: Element; row: number; col: number }[] = [];
  // Points and arrows first, each taking its room in the placer; the labels after, so that none sits
  // on an arrow or a point drawn later (at 430 px "cat" lay under the arrow from cat to cat′).
  const labelJobs: (() => void)[] = [];
  const takeDot = (x: number, y: number, r: number) => placer.take({ x: x - r, y: y - r, w: 2 * r, h: 2 * r });
  const takeLine = (x1: number, y1: number, x2: number, y2: number) => {
    const steps = Math.max(1, Math.ceil(Math.hypot(x2 - x1, y2 - y1) / 3));
    for (let s = 0; s <= steps; s++) takeDot(x1 + ((x2 - x1) * s) / steps, y1 + ((y2 - y1) * s) / steps, 2);
  };
  for (const pt of pts) {
    const inp = data.inputs[pt.inp];
    const c = theme.heads[pt.inp % theme.heads.length];
    const word = inp.tokens[pt.tok];
    const isSel = pt.inp === sel.input && pt.tok === sel.token;
    const [px, py] = [sx(pt.p[0]), sy(pt.p[1])];
    if (pt.o) {
      const [qx, qy] = [sx(pt.o[0]), sy(pt.o[1])];
      const len = Math.hypot(qx - px, qy - py);
      if (len > 8) {
        const k = (len - 6) / len;
        arrows.append('line').attr('x1', px).attr('y1', py).attr('x2', px + (qx - px) * k).attr('y2', py + (qy - py) * k)
          .attr('stroke', c).attr('stroke-width', isSel ? 2.5 : 1.3).attr('stroke-opacity', 0.8)
          .attr('marker-end', `url(#${marker}-${pt.inp})`);
        takeLine(px, py, qx, qy);
      }
      takeDot(qx, qy, isSel ? 7.5 : 6);
      const outRow = row(outs.rows!(inp), pt.tok);
      const names = outRow.length === data.dModel ? data.features : [];
      const dot2 = points.append('circle').attr('class', 'point output hot').attr('data-input', pt.inp).attr('data-token', pt.tok)
        .attr('cx', qx).attr('cy', qy).attr('r', isSel ? 6.5 : 5).attr('fill', c).attr('stroke', isSel ? theme.accent : theme.bg).attr('stroke-width', isSel ? 2 : 1)
        .attr('cursor', 'pointer')
        .attr('data-tip', tips.add({
          lines: [`${word} ${outs.label} (in "${inp.name}")`, `(${fmt(pt.o[0])}, ${fmt(pt.o[1])}) on ${xLabel} / ${yLabel}`, ...vecLines(outRow, names)],
          reveal: { kind: 'token', input: pt.inp, token: pt.tok },
          click: () => options.onPick?.({ input: pt.inp, token: pt.tok }),
        }));
      focusables.push({ el: dot2.node()!, row: pt.inp, col: pt.tok * 2 + 1 });
      const text = clip(`${word}′`, 90, fs);
      labelJobs.push(() => {
        const spot = placer.place(around(qx, qy, boxW(text, fs), fs), boxW(text, fs), boxH(fs));
        if (spot) labels.append('text').attr('class', 'point-label').attr('x', spot[0]).attr('y', spot[1]).attr('fill', c).attr('font-weight', isSel ? 700 : 600).text(text);
      });
    }
    takeDot(px, py, 5.5);
    const key = `${fmt(pt.p[0])},${fmt(pt.p[1])},${word}`;
    const hollow = points.append('circle').attr('class', 'point input hot').attr('data-input', pt.inp).attr('data-token', pt.tok)
      .attr('cx', px).attr('cy', py).attr('r', 4.5).attr('fill', theme.bg).attr('stroke', c).attr('stroke-width', 1.8).attr('cursor', 'pointer')
      .attr('data-tip', tips.add({
        lines: [`${word}: input embedding (in "${inp.name}")`, `(${fmt(pt.p[0])}, ${fmt(pt.p[1])}) on ${xLabel} / ${yLabel}`, ...vecLines(row(inp.embeddings, pt.tok), data.features)],
        reveal: { kind: 'token', input: pt.inp, token: pt.tok },
        click: () => options.onPick?.({ input: pt.inp, token: pt.tok }),
      }));
    focusables.push({ el: hollow.node()!, row: pt.inp, col: pt.tok * 2 });
    if (!placed.has(key)) {
      placed.add(key);
      const text = clip(word, 90, fs - 1);
      const w = boxW(text, fs - 1);
      labelJobs.push(() => {
        const spot = placer.place([[px + 7, py + 14], ...around(px, py, w, fs - 1)], w, boxH(fs - 1));
        if (spot) labels.append('text').attr('class', 'point-label').attr('x', spot[0]).attr('y', spot[1]).attr('fill', theme.muted).attr('font-size', fs - 1).text(text);
      });
    }
  }
  for (const job of labelJobs) job();

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};

/**
 * An axis's title, longest first, each shorter one for a narrower plot: "time / watching: ← object ·
 * time →", then "← object · time →", then "time / watching →". A label that only repeats one of the
 * ends (label "animal", ends "not animal" and "animal") is left out: "not animal ← animal → animal"
 * said animal twice and read as if both ends were animal.
 */
export function axisTitles(label: string, ends: readonly [string, string] | undefined): string[] {
  if (!ends) return [`${label} →`];
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  const span = `← ${ends[0]} · ${ends[1]} →`;
  if (!label.trim() || ends.some((e) => same(e, label))) return [span];
  return [`${label}: ${span}`, span, `${label} →`];
}

/** Six ticks, or the domain's ends when d3 cannot make ticks for it (a domain near the limits of a double). */
function safeTicks(scale: { ticks(count: number): number[]; domain(): number[] }): number[] {
  try {
    return scale.ticks(6).filter(Number.isFinite);
  } catch {
    return scale.domain().filter(Number.isFinite);
  }
}
