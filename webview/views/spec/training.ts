// Training: gradient descent finding W_Q, W_K (and W_V) for the spec's "train" section, played
// back step by step. Left, the loss curve (hover any step); right, the head's attention on the
// target's input with the targets outlined, and the learnt matrices, all at the current step.
// Play, pause, step, reset and speed are buttons in the picture (Enter or Space on them too).
// `attn render --view training` draws the last step.
import { ROLE_SYMBOL, type Role } from '../../../src/core/vocabulary.js';
import type { TrainingFrame, TrainingJson } from '../../../src/core/train/frames.js';
import { extentOf, maxOf } from '../../../src/core/linalg/extent.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { createSvg, emptyView, note, type G, type ViewFn, type ViewOptions } from '../../kit/view.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { textOn } from '../../kit/colour.js';

const SPEEDS = [1, 4, 16];
/** Past this many tokens the attention grid is left out (the loss and matrices still play). */
const MAX_GRID_TOKENS = 32;

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
  if (t.stoppedAt !== undefined) notes.push(`the numbers overflowed at step ${t.stoppedAt}: the rate ${t.rate} is too large; shown up to the last finite step`);
  if (n > MAX_GRID_TOKENS) notes.push(`${n} tokens: the attention grid is left out; the loss and the matrices play`);
  const width = Math.max(options.width, 320);
  const curveW = Math.min(440, width - 2 * pad);
  const curveH = 170;
  const side = width - 2 * pad >= curveW + 300 ? 'beside' : 'below';
  const cell = Math.max(14, Math.min(34, Math.floor(220 / Math.max(1, Math.min(n, MAX_GRID_TOKENS)))));
  const labelW = Math.min(90, Math.max(30, maxOf(input.tokens, (w) => textWidth(w, fs - 1)) + 8));
  const gridH = n > MAX_GRID_TOKENS ? 0 : labelW * 0.72 + 16 + n * cell;
  const d = t.frames[0].wq.length;
  const mCell = Math.max(10, Math.min(26, Math.floor(200 / Math.max(1, d))));
  const matH = t.learn.length ? 22 + d * mCell : 0;
  const titleH = 24 + notes.length * 16;
  const controlsH = options.interactive ? 34 : 0;
  const curveTop = titleH + controlsH + 10;
  const rightX = side === 'beside' ? pad + curveW + 40 : pad;
  const rightTop = side === 'beside' ? curveTop : curveTop + curveH + 50;
  const height = Math.max(curveTop + curveH + 50, rightTop + gridH + 20 + matH + 20);
  const svg = createSvg(container, theme, width, height, `Training head "${t.headName}" by gradient descent`, 'training');
  svg.append('text').attr('class', 'title').attr('x', pad).attr('y', 16).attr('font-weight', 600)
    .text(clip(`Training head "${t.headName}": ${t.learn.map((r) => ROLE_SYMBOL[r as Role]).join(', ')} by gradient descent, rate ${t.rate}`, width - 2 * pad, fs * 1.1));
  notes.forEach((s, k) => note(svg, theme, pad, 34 + k * 16, s));

  // Two tables: the frame's tips are rebuilt at every step, the buttons' only when they change.
  let tips = new TipTable();
  let controlTips = new TipTable();
  let gridCleanup = () => {};
  let frameIndex = t.frames.length - 1;
  let playing = false;
  let speed = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  // The loss curve: log scale when the loss falls by more than 100×, so the late steps stay visible.
  const steps = t.loss.length - 1;
  const [lo, hi] = extentOf(t.loss, [0, 1]);
  const useLog = lo > 0 && hi / lo > 100;
  const yOf = (l: number) => {
    const a = useLog ? Math.log10(lo) : lo, b = useLog ? Math.log10(hi) : hi;
    const v = useLog ? Math.log10(Math.max(l, lo)) : l;
    const frac = b > a ? (v - a) / (b - a) : 0.5;
    return curveTop + 10 + (1 - frac) * (curveH - 30);
  };
  const xOf = (s: number) => pad + 44 + (steps > 0 ? s / steps : 0) * (curveW - 54);
  const curve = svg.append('g').attr('class', 'loss-curve');
  curve.append('rect').attr('x', pad + 44).attr('y', curveTop).attr('width', curveW - 54).attr('height', curveH - 10).attr('fill', 'none').attr('stroke', theme.grid);
  curve.append('text').attr('x', pad).attr('y', curveTop - 2).attr('fill', theme.muted).text(`loss${useLog ? ' (log scale)' : ''}`);
  curve.append('text').attr('x', pad + 40).attr('y', yOf(hi) + 4).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(fmt(hi, 3));
  curve.append('text').attr('x', pad + 40).attr('y', yOf(lo) + 4).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(fmt(lo, 3));
  curve.append('text').attr('x', xOf(0)).attr('y', curveTop + curveH + 8).attr('fill', theme.muted).attr('font-size', fs - 1).text('step 0');
  curve.append('text').attr('x', xOf(steps)).attr('y', curveTop + curveH + 8).attr('text-anchor', 'end').attr('fill', theme.muted).attr('font-size', fs - 1).text(`step ${steps}`);
  // At most one point per pixel column, so a long run stays a light path.
  const stride = Math.max(1, Math.ceil(t.loss.length / (curveW - 54)));
  let path = '';
  for (let s = 0; s < t.loss.length; s += stride) path += `${path ? 'L' : 'M'} ${xOf(s).toFixed(1)} ${yOf(t.loss[s]).toFixed(1)} `;
  path += `L ${xOf(steps).toFixed(1)} ${yOf(t.loss[steps]).toFixed(1)}`;
  curve.append('path').attr('d', path).attr('fill', 'none').attr('stroke', theme.heads[t.head % theme.heads.length]).attr('stroke-width', 2);

  const dynamic = svg.append('g').attr('class', 'frame');
  const focusables: { el: Element; row: number; col: number }[] = [];

  const drawFrame = () => {
    dynamic.selectAll('*').remove();
    tips = new TipTable();
    focusables.length = 0;
    const f: TrainingFrame = t.frames[frameIndex];
    const g = dynamic as unknown as G;
    // Hover targets along the curve, one per frame, and the current step's marker.
    const bands = g.append('g').attr('class', 'steps');
    t.frames.forEach((fr, k) => {
      const x0 = k === 0 ? xOf(0) : (xOf(t.frames[k - 1].step) + xOf(fr.step)) / 2;
      const x1 = k === t.frames.length - 1 ? xOf(steps) : (xOf(fr.step) + xOf(t.frames[k + 1].step)) / 2;
      bands.append('rect').attr('class', 'step-band hot').attr('data-step', fr.step).attr('x', x0).attr('y', curveTop).attr('width', Math.max(1, x1 - x0))
        .attr('height', curveH - 10).attr('fill', 'transparent')
        .attr('data-tip', tips.add({ lines: [`step ${fr.step}: loss ${fmt(t.loss[fr.step], 6)}`, 'click: show the weights and attention at this step'], click: () => { frameIndex = k; stop(); drawFrame(); } }));
    });
    g.append('circle').attr('class', 'current-step').attr('cx', xOf(f.step)).attr('cy', yOf(t.loss[f.step])).attr('r', 5)
      .attr('fill', theme.accent).attr('stroke', theme.bg);
    g.append('text').attr('class', 'step-label').attr('x', pad + 44).attr('y', curveTop + curveH + 26).attr('font-weight', 600)
      .text(`step ${f.step} of ${steps}: loss ${fmt(t.loss[f.step], 6)}`);

    let y = rightTop;
    if (n <= MAX_GRID_TOKENS) {
      const grid = g.append('g').attr('class', 'attention').attr('transform', `translate(${rightX},${y})`);
      grid.append('text').attr('y', 0).attr('fill', theme.muted).text(clip(`attention of head "${t.headName}" on "${input.name}" (rows = queries)`, width - rightX - pad, fs));
      const gx = labelW, gy = labelW * 0.72 + 16;
      input.tokens.forEach((w, i) => {
        grid.append('text').attr('x', gx - 4).attr('y', gy + i * cell + cell / 2 + 4).attr('text-anchor', 'end').attr('font-size', fs - 1).text(clip(w, labelW - 6, fs - 1));
        const cx = gx + i * cell + cell / 2, cy = gy - 4;
        grid.append('text').attr('x', cx).attr('y', cy).attr('transform', `rotate(-40 ${cx} ${cy})`).attr('font-size', fs - 1).text(clip(w, labelW - 6, fs - 1));
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
    // The learnt matrices at this step, side by side.
    let mx = rightX;
    for (const role of t.learn) {
      const m = f[role as 'wq' | 'wk' | 'wv'];
      const cols = m[0]?.length ?? 0;
      const big = maxOf(m.flat(), Math.abs, 1e-12);
      const mg = g.append('g').attr('class', `learnt ${role}`).attr('transform', `translate(${mx},${y})`);
      mg.append('text').attr('y', 0).attr('font-weight', 600).text(`${ROLE_SYMBOL[role as Role]} (${m.length}×${cols})`);
      m.forEach((row, i) => row.forEach((v, j) => {
        const fill = theme.div(v / big);
        mg.append('rect').attr('class', 'w-cell hot').attr('x', j * mCell).attr('y', 8 + i * mCell).attr('width', mCell - 1).attr('height', mCell - 1).attr('fill', fill)
          .attr('data-tip', tips.add({ lines: [`${ROLE_SYMBOL[role as Role]}[${i}][${j}] = ${fmt(v, 4)} at step ${f.step}`, `started at ${fmt(t.frames[0][role as 'wq'][i][j], 4)}`] }));
        if (mCell >= 24) {
          mg.append('text').attr('x', j * mCell + (mCell - 1) / 2).attr('y', 8 + i * mCell + mCell / 2 + 4).attr('text-anchor', 'middle')
            .attr('font-size', fs - 2).attr('fill', textOn(fill)).attr('pointer-events', 'none').text(fmt(v, 1));
        }
      }));
      mx += Math.max(cols * mCell, textWidth(`${ROLE_SYMBOL[role as Role]} (${m.length}×${cols})`, fs)) + 24;
    }
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
