// Training: gradient descent finding W_Q, W_K (and W_V) for the spec's "train" section, played
// back step by step. Left, the lesson's curve (each target's weight, e.g. watch → apple from 0.0096
// to 0.999, or an output target's distance) above the loss curve, on one step axis (hover any
// step); right, the head's attention on the target's input with the targets outlined, and the
// learnt matrices, all at the current step. In the panel it opens at step 0: the learner presses
// Play or Step. Play, pause, step, reset and speed are buttons in the picture (Enter or Space on
// them too). `attn render --view training` draws the last step.
import { ROLE_SYMBOL, type Role } from '../../../src/core/vocabulary.js';
import type { TrainingFrame, TrainingJson } from '../../../src/core/train/frames.js';
import { extentOf, maxOf } from '../../../src/core/linalg/extent.js';
import { clip, fmt, monoWidth, textWidth } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { createSvg, drawHeading, emptyView, fitText, layoutHeading, note, type G, type ViewFn, type ViewOptions } from '../../kit/view.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { textOn } from '../../kit/colour.js';

const SPEEDS = [1, 4, 16];
/** Past this many tokens the attention grid is left out (the loss and matrices still play). */
const MAX_GRID_TOKENS = 32;

/**
 * A learnt weight as its cell shows it: two decimals with its sign always written (−0.00 for
 * −0.00266: smaller than a hundredth, and negative), three significant digits past 100. The exact
 * value is the cell's hover. Short enough that every cell is as wide as its widest text.
 */
export function cellText(v: number): string {
  if (!Number.isFinite(v)) return fmt(v);
  const a = Math.abs(v);
  const body = a >= 100 ? (a >= 1e5 ? a.toExponential(1) : String(Math.round(a))) : a.toFixed(2);
  return `${v < 0 || Object.is(v, -0) ? '−' : ''}${body}`;
}

/** A target's name: "watch → apple" (a repeated token gets its position: "watch (2)"). */
function tokenName(tokens: readonly string[], i: number): string {
  return tokens.indexOf(tokens[i]) !== tokens.lastIndexOf(tokens[i]) ? `${tokens[i]} (${i + 1})` : tokens[i];
}

export const renderTraining: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const t: TrainingJson | undefined = data.training;
  if (!t) {
    return emptyView(container, theme, options.width, 'training',
      'No "train" section in this spec: add one ({ "head", "learn", "targets", "steps", "rate" }) to watch gradient descent find the weights.');
  }
  if (t.tooBig || t.frames.length === 0) return emptyView(container, theme, options.width, 'training', t.tooBig ?? 'Nothing to play: the run has no steps.');
  const fs = theme.fontSize;
  const pad = 12;
  const input = data.inputs[t.input];
  const n = input.tokens.length;
  const notes: string[] = [];
  if (t.stoppedAt === 0) notes.push('the loss is not finite before the first step: the spec\'s numbers overflow as they are (its scale, embeddings, weights or a target), whatever the rate');
  else if (t.stoppedAt !== undefined) notes.push(`the numbers overflowed at step ${t.stoppedAt}: the rate ${t.rate} may be too large; shown up to the last finite step`);
  if (n > MAX_GRID_TOKENS) notes.push(`${n} tokens: the attention grid is left out; the loss and the matrices play`);
  const width = Math.max(options.width, 320);
  const curveW = Math.min(440, width - 2 * pad);
  // The lesson's curve (the targets) above the loss, on one step axis.
  const progress = Array.isArray(t.progress) && t.progress.length === t.targets.length ? t.progress : [];
  const targetH = progress.length ? 130 : 0;
  const lossH = progress.length ? 120 : 170;
  const side = width - 2 * pad >= curveW + 300 ? 'beside' : 'below';
  const cell = Math.max(14, Math.min(34, Math.floor(220 / Math.max(1, Math.min(n, MAX_GRID_TOKENS)))));
  const labelW = Math.min(90, Math.max(30, maxOf(input.tokens, (w) => textWidth(w, fs - 1)) + 8));
  const rightW0 = side === 'beside' ? width - (pad + curveW + 40) - pad : width - 2 * pad;
  const gridTitleText = `attention of head "${t.headName}" on "${input.name}" (rows = queries)`;
  const gridTitle = layoutHeading(gridTitleText, rightW0, fs, false, 3);
  const gridH = n > MAX_GRID_TOKENS ? 0 : labelW * 0.72 + 16 + n * cell + gridTitle.extra;

  // The learnt matrices: every cell as wide as the widest number any frame shows (so nothing moves
  // while playing), and one matrix per row when two do not fit side by side.
  const rightW = rightW0;
  const mFs = fs - 2;
  const learnt = t.learn.map((role) => role as 'wq' | 'wk' | 'wv');
  const d = t.frames[0].wq.length;
  const colsOf = (role: 'wq' | 'wk' | 'wv') => t.frames[0][role][0]?.length ?? 0;
  let widest = 0;
  for (const f of t.frames) for (const role of learnt) for (const r of f[role]) for (const v of r) widest = Math.max(widest, monoWidth(cellText(v), mFs));
  const textCell = Math.max(24, Math.ceil(widest + 8));
  const maxCols = maxOf(learnt, colsOf, 1);
  const withText = maxCols * textCell <= rightW;
  const mCellW = withText ? textCell : Math.max(6, Math.min(26, Math.floor(Math.min(200, rightW) / maxCols)));
  const mCellH = withText ? Math.max(20, Math.min(26, Math.floor(200 / Math.max(1, d)))) : Math.max(6, Math.min(26, Math.floor(200 / Math.max(1, d))));
  const matrixW = (role: 'wq' | 'wk' | 'wv') => Math.max(colsOf(role) * mCellW, textWidth(`${ROLE_SYMBOL[role as Role]} (${d}×${colsOf(role)})`, fs) * 1.1);
  const matrixRows: ('wq' | 'wk' | 'wv')[][] = [];
  for (const role of learnt) {
    const last = matrixRows[matrixRows.length - 1];
    const used = last ? last.reduce((s, r) => s + matrixW(r) + 24, 0) : Infinity;
    if (last && used + matrixW(role) <= rightW) last.push(role);
    else matrixRows.push([role]);
  }
  const matRowH = 22 + d * mCellH + 14;
  const matH = matrixRows.length * matRowH;

  const titleText = `Training head "${t.headName}": ${t.learn.map((r) => ROLE_SYMBOL[r as Role]).join(', ')} by gradient descent, rate ${t.rate}`;
  const title = layoutHeading(titleText, width - 2 * pad, fs, true, 3);
  const titleH = 24 + title.extra + notes.length * 16;
  const controlsH = options.interactive ? 34 : 0;
  const chartsTop = titleH + controlsH + 10;
  const targetTop = chartsTop + 8;
  const lossTop = targetTop + (targetH ? targetH + 34 : 0) + 8;
  const chartsBottom = lossTop + lossH + 44;
  const rightX = side === 'beside' ? pad + curveW + 40 : pad;
  const rightTop = side === 'beside' ? chartsTop : chartsBottom + 10;
  const height = Math.max(chartsBottom, rightTop + gridH + 20 + matH + 10);
  const svg = createSvg(container, theme, width, height, `Training head "${t.headName}" by gradient descent`, 'training');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  notes.forEach((s, k) => note(svg, theme, pad, 34 + title.extra + k * 16, s));

  // Two tables: the frame's tips are rebuilt at every step, the buttons' only when they change.
  let tips = new TipTable();
  let controlTips = new TipTable();
  let gridCleanup = () => {};
  // The panel opens at step 0, before any learning; `attn render` draws where the run ends.
  let frameIndex = options.interactive ? 0 : t.frames.length - 1;
  let playing = false;
  let speed = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const steps = t.loss.length - 1;
  // The y labels' gutter is as wide as the widest of them (7.02e-34 reached the picture's edge).
  const ends = [...extentOf(t.loss, [0, 1]), ...progress.flatMap((p) => extentOf(p, [0, 1]))];
  const gutter = Math.max(36, maxOf(ends, (v) => textWidth(fmt(v, 3), fs - 1)) + 8);
  const plotX = pad + gutter, plotW = curveW - gutter - 10;
  const xOf = (s: number) => plotX + (steps > 0 ? s / steps : 0) * plotW;
  /** A y scale over `values` in [top, top + h]: log when they span more than 100× (the late steps stay visible). */
  const scale = (values: readonly number[], top: number, h: number, fixed?: [number, number]) => {
    const [lo, hi] = fixed ?? extentOf(values, [0, 1]);
    const log = !fixed && lo > 0 && hi / lo > 100;
    const a = log ? Math.log10(lo) : lo, b = log ? Math.log10(hi) : hi;
    const y = (v: number) => {
      const u = log ? Math.log10(Math.max(v, lo)) : v;
      const frac = b > a ? (u - a) / (b - a) : 0.5;
      return top + 10 + (1 - Math.min(1, Math.max(0, frac))) * (h - 30);
    };
    return { y, lo, hi, log };
  };
  const chart = (cls: string, label: string, top: number, h: number, series: { values: readonly number[]; colour: string }[], fixed?: [number, number]) => {
    const s = scale(series.flatMap((x) => x.values), top, h, fixed);
    const g = svg.append('g').attr('class', cls);
    g.append('rect').attr('x', plotX).attr('y', top).attr('width', plotW).attr('height', h - 10).attr('fill', 'none').attr('stroke', theme.grid);
    g.append('text').attr('class', 'chart-label').attr('x', pad).attr('y', top - 3).attr('fill', theme.muted)
      .text(clip(`${label}${s.log ? ' (log scale)' : ''}`, curveW, fs)).append('title').text(`${label}${s.log ? ' (log scale)' : ''}`);
    g.append('text').attr('x', plotX - 4).attr('y', s.y(s.hi) + 4).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(fmt(s.hi, 3));
    g.append('text').attr('x', plotX - 4).attr('y', s.y(s.lo) + 4).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(fmt(s.lo, 3));
    // At most one point per pixel column, so a long run stays a light path.
    for (const { values, colour } of series) {
      const stride = Math.max(1, Math.ceil(values.length / plotW));
      let path = '';
      for (let k = 0; k < values.length; k += stride) path += `${path ? 'L' : 'M'} ${xOf(k).toFixed(1)} ${s.y(values[k]).toFixed(1)} `;
      path += `L ${xOf(values.length - 1).toFixed(1)} ${s.y(values[values.length - 1]).toFixed(1)}`;
      g.append('path').attr('d', path).attr('fill', 'none').attr('stroke', colour).attr('stroke-width', 2);
    }
    return s;
  };
  const targetLabel = (g: TrainingJson['targets'][number]) => {
    const tokens = data.inputs[g.input]?.tokens ?? [];
    return g.key !== undefined ? `weight ${tokenName(tokens, g.query)} → ${tokenName(tokens, g.key)}` : `‖output of ${tokenName(tokens, g.query)} − [${(g.output ?? []).map((v) => fmt(v)).join(', ')}]‖`;
  };
  const colourOf = (k: number) => theme.heads[(t.head + k) % theme.heads.length];
  const allAttention = t.targets.every((g) => g.key !== undefined);
  const targetScale = progress.length
    ? chart('target-curve', t.targets.length === 1 ? `${targetLabel(t.targets[0])}, ${t.targets[0].key !== undefined ? 'raised toward 1' : 'brought toward 0'}`
      : `the ${t.targets.length} targets: ${allAttention ? 'weights raised toward 1' : 'weights ↑, distances ↓'}`,
      targetTop, targetH, progress.map((values, k) => ({ values, colour: colourOf(k) })), allAttention ? [0, 1] : undefined)
    : undefined;
  const lossScale = chart('loss-curve', 'loss', lossTop, lossH, [{ values: t.loss, colour: theme.muted }]);
  svg.append('text').attr('x', xOf(0)).attr('y', lossTop + lossH + 8).attr('fill', theme.muted).attr('font-size', fs - 1).text('step 0');
  svg.append('text').attr('x', xOf(steps)).attr('y', lossTop + lossH + 8).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(`step ${steps}`);

  const dynamic = svg.append('g').attr('class', 'frame');
  const focusables: { el: Element; row: number; col: number }[] = [];

  const drawFrame = () => {
    dynamic.selectAll('*').remove();
    tips = new TipTable();
    focusables.length = 0;
    const f: TrainingFrame = t.frames[frameIndex];
    const g = dynamic as unknown as G;
    // Hover targets along the curves, one per frame, and the current step's markers.
    const bands = g.append('g').attr('class', 'steps');
    const bandTop = targetScale ? targetTop : lossTop;
    const bandH = lossTop + lossH - 10 - bandTop;
    t.frames.forEach((fr, k) => {
      const x0 = k === 0 ? xOf(0) : (xOf(t.frames[k - 1].step) + xOf(fr.step)) / 2;
      const x1 = k === t.frames.length - 1 ? xOf(steps) : (xOf(fr.step) + xOf(t.frames[k + 1].step)) / 2;
      const lines = [`step ${fr.step}: loss ${fmt(t.loss[fr.step], 6)}`, ...progress.map((p, q) => `${targetLabel(t.targets[q])} ${fmt(p[fr.step], 4)}`), 'click: show the weights and attention at this step'];
      bands.append('rect').attr('class', 'step-band hot').attr('data-step', fr.step).attr('x', x0).attr('y', bandTop).attr('width', Math.max(1, x1 - x0))
        .attr('height', bandH).attr('fill', 'transparent')
        .attr('data-tip', tips.add({ lines, click: () => { frameIndex = k; stop(); drawControls(); drawFrame(); } }));
    });
    g.append('circle').attr('class', 'current-step').attr('cx', xOf(f.step)).attr('cy', lossScale.y(t.loss[f.step])).attr('r', 5)
      .attr('fill', theme.accent).attr('stroke', theme.bg);
    if (targetScale) {
      progress.forEach((p, q) => g.append('circle').attr('class', 'current-target').attr('cx', xOf(f.step)).attr('cy', targetScale.y(p[f.step])).attr('r', 5)
        .attr('fill', colourOf(q)).attr('stroke', theme.bg));
      const now = progress.length === 1 ? `${targetLabel(t.targets[0])} = ${fmt(progress[0][f.step], 4)} (step 0: ${fmt(progress[0][0], 4)})` : progress.map((p, q) => `${q + 1}: ${fmt(p[f.step], 3)}`).join(' · ');
      g.append('text').attr('class', 'target-value').attr('x', plotX).attr('y', targetTop + targetH + 8).attr('font-size', fs - 1).attr('fill', colourOf(0))
        .text(clip(now, curveW - 44, fs - 1)).append('title').text(now);
    }
    g.append('text').attr('class', 'step-label').attr('x', plotX).attr('y', lossTop + lossH + 26).attr('font-weight', 600)
      .text(`step ${f.step} of ${steps}: loss ${fmt(t.loss[f.step], 6)}`);

    let y = rightTop;
    if (n <= MAX_GRID_TOKENS) {
      const grid = g.append('g').attr('class', 'attention').attr('transform', `translate(${rightX},${y})`);
      const gt = grid.append('text').attr('class', 'grid-title').attr('y', 0).attr('fill', theme.muted);
      gridTitle.lines.forEach((line, k) => gt.append('tspan').attr('x', 0).attr('dy', k === 0 ? 0 : gridTitle.lineH).text(line));
      if (gridTitle.lines.join(' ') !== gridTitleText) gt.append('title').text(gridTitleText);
      const gx = labelW, gy = labelW * 0.72 + 16 + gridTitle.extra;
      input.tokens.forEach((w, i) => {
        fitText(grid.append('text').attr('x', gx - 4).attr('y', gy + i * cell + cell / 2 + 4).attr('text-anchor', 'end').attr('font-size', fs - 1), w, labelW - 6, fs - 1);
        const cx = gx + i * cell + cell / 2, cy = gy - 4;
        fitText(grid.append('text').attr('x', cx).attr('y', cy).attr('transform', `rotate(-40 ${cx} ${cy})`).attr('font-size', fs - 1), w, labelW - 6, fs - 1);
      });
      const isTarget = (i: number, j: number) => t.targets.some((x) => x.input === t.input && x.query === i && x.key === j);
      f.weights.forEach((row, i) => row.forEach((w, j) => {
        const r = grid.append('rect').attr('class', 'cell hot').attr('data-query', i).attr('data-key', j)
          .attr('x', gx + j * cell).attr('y', gy + i * cell).attr('width', cell - 1).attr('height', cell - 1).attr('fill', theme.seq(w))
          .attr('stroke', isTarget(i, j) ? theme.fg : 'none').attr('stroke-width', isTarget(i, j) ? 2.5 : 0)
          .attr('data-tip', tips.add({ lines: [`${input.tokens[i]} → ${input.tokens[j]}: weight ${fmt(w, 4)} at step ${f.step}${isTarget(i, j) ? ' (a target: training raises it)' : ''}`] }));
        focusables.push({ el: r.node()!, row: i, col: j });
      }));
      y += gridH + 20;
    }
    // The learnt matrices at this step, side by side when they fit.
    matrixRows.forEach((rowRoles, rr) => {
      let mx = rightX;
      const my = y + rr * matRowH;
      for (const role of rowRoles) {
        const m = f[role];
        const cols = m[0]?.length ?? 0;
        const big = maxOf(m.flat(), Math.abs, 1e-12);
        const mg = g.append('g').attr('class', `learnt ${role}`).attr('transform', `translate(${mx},${my})`);
        mg.append('text').attr('y', 0).attr('font-weight', 600).text(`${ROLE_SYMBOL[role as Role]} (${m.length}×${cols})`);
        m.forEach((row, i) => row.forEach((v, j) => {
          const fill = theme.div(v / big);
          mg.append('rect').attr('class', 'w-cell hot').attr('data-row', i).attr('data-col', j).attr('x', j * mCellW).attr('y', 8 + i * mCellH).attr('width', mCellW - 1).attr('height', mCellH - 1).attr('fill', fill)
            .attr('data-tip', tips.add({ lines: [`${ROLE_SYMBOL[role as Role]}[${i}][${j}] = ${fmt(v, 6)} at step ${f.step}`, `started at ${fmt(t.frames[0][role][i][j], 6)}`] }));
          if (withText) {
            mg.append('text').attr('class', 'w-text').attr('x', j * mCellW + (mCellW - 1) / 2).attr('y', 8 + i * mCellH + mCellH / 2 + 4).attr('text-anchor', 'middle')
              .attr('font-size', mFs).attr('font-family', theme.mono).attr('fill', textOn(fill)).attr('pointer-events', 'none').text(cellText(v));
          }
        }));
        mx += matrixW(role) + 24;
      }
    });
    if (options.interactive) {
      gridCleanup();
      gridCleanup = rovingGrid(svg.node()!, focusables);
    }
  };

  const stop = () => {
    playing = false;
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const play = () => {
    if (frameIndex >= t.frames.length - 1) frameIndex = 0;
    playing = true;
    timer = setInterval(() => {
      frameIndex = Math.min(t.frames.length - 1, frameIndex + SPEEDS[speed]);
      if (frameIndex >= t.frames.length - 1) { stop(); drawControls(); }
      drawFrame();
    }, 120);
  };

  const controls = svg.append('g').attr('class', 'controls').attr('transform', `translate(${pad},${titleH + 2})`);
  const drawControls = () => {
    if (!options.interactive) return;
    controls.selectAll('*').remove();
    controlTips = new TipTable();
    let x = 0;
    const button = (label: string, what: string, act: () => void) => {
      const w = textWidth(label, fs) + 18;
      const b = controls.append('g').attr('class', 'control hot').attr('role', 'button').attr('tabindex', 0).attr('aria-label', what)
        .attr('transform', `translate(${x},0)`).attr('cursor', 'pointer')
        .attr('data-tip', controlTips.add({ lines: [what], click: () => { act(); drawControls(); drawFrame(); } }));
      b.append('rect').attr('width', w).attr('height', 24).attr('rx', 4).attr('fill', theme.bg).attr('stroke', theme.fg);
      b.append('text').attr('x', w / 2).attr('y', 16).attr('text-anchor', 'middle').text(label);
      x += w + 8;
    };
    button(playing ? 'Pause' : 'Play', playing ? 'pause the training' : 'play the training from this step', () => (playing ? stop() : play()));
    button('Step', 'one step forward', () => { stop(); frameIndex = Math.min(t.frames.length - 1, frameIndex + 1); });
    button('Reset', 'back to the starting weights', () => { stop(); frameIndex = 0; });
    button(`Speed ${SPEEDS[speed]}×`, 'play faster or slower', () => { speed = (speed + 1) % SPEEDS.length; if (playing) { stop(); play(); } });
  };

  drawFrame();
  drawControls();
  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options as ViewOptions, '.hot', (el) => (el.closest('.controls') ? controlTips.get(el) : tips.get(el)))];
  return { svg: svgNode, notes, destroy: () => { stop(); gridCleanup(); cleanups.forEach((f) => f()); svg.remove(); } };
};
