// Covariance: how the features vary together across an input's tokens, for X, the chosen head's
// Q, K, V and output, and the output: the correlation matrix (small spaces), the pairs of features
// so correlated that one is redundant, and the covariance's eigenvalues as the share of the
// variance each principal direction explains (the quadrant view's PC1 and PC2 are the first two).
import { hotGrid } from '../../kit/keyboard.js';
import { isHandle, linalgOrSay } from './linalg-view.js';
import type { FeatureSpaceJson } from '../../../src/core/result/linalg-json.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { clampIndex, createSvg, drawHeading, emptyView, layoutHeading, note, singleHead, type G, type ViewFn } from '../../kit/view.js';

/** Components whose share is drawn as a bar. */
const MAX_COMPONENTS = 16;
/** The longest a feature's name is drawn beside the heat map, in pixels (the hover has it whole). */
const AXIS_MAX = 72;

export const renderCovariance: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const found = linalgOrSay(container, data, options, 'covariance', 'covariances');
  if (isHandle(found)) return found;
  const l = found;
  const inputIndex = clampIndex(options.input, l.covariance.length);
  const entry = l.covariance[inputIndex];
  const input = data.inputs[inputIndex];
  if (!entry || !input) return emptyView(container, theme, options.width, 'covariance', 'No tokens to measure.');
  const h = singleHead(data, options);
  const head = input.heads[h];
  // X, the chosen head's four spaces, and the output when there is one of its own.
  const spaces = entry.spaces.filter((s, i) => i === 0 || (head && s.label.endsWith(`of head "${head.name}"`) && entry.spaces.indexOf(s) === i) || s.label.startsWith('output ('));
  const fs = theme.fontSize, pad = 12;
  const notes: string[] = [];
  if (input.tokens.length < 2) notes.push('one token: a covariance needs at least two (it divides by n − 1)');
  if (options.head === 'all' && input.heads.length > 1) notes.push(`showing head "${head?.name}"; pick another head in the toolbar`);
  const width = Math.max(options.width, 320);
  // Headings wrap in a narrow panel (they were cut with "…" at 676 px): the title pushes the blocks
  // down, a space's heading its own block.
  const titleText = `How the features vary together across the ${input.tokens.length} tokens of "${input.name}"`;
  const title = layoutHeading(titleText, width - 2 * pad, fs, true, 4);
  const spaceHeading = (s: FeatureSpaceJson) => layoutHeading(`${s.label}: ${s.n} tokens × ${s.d} features`, width - 2 * pad, fs);
  const titleH = 24 + title.extra + notes.length * 16;
  const heat = (s: FeatureSpaceJson) => (s.correlation ? Math.min(260, Math.max(80, s.d * 14)) : 0);
  // The heat map's rows and columns carry the features' names (the spec's, or q0, q1, … for the
  // head's spaces), cut to AXIS_MAX pixels with the full name in the hover; too small cells get none.
  const axisFs = fs - 2;
  const nameOf = (s: FeatureSpaceJson) => (i: number) => (s.label.startsWith('X') ? data.features[i] ?? `d${i}` : `${s.label[0].toLowerCase()}${i}`);
  const axes = (s: FeatureSpaceJson) => {
    const size = heat(s);
    if (!size || size / s.d < axisFs - 1) return { w: 0, h: 0, names: [] as string[] };
    const names = Array.from({ length: s.d }, (_, i) => nameOf(s)(i));
    const longest = Math.min(AXIS_MAX, maxOf(names, (t) => textWidth(t, axisFs)));
    // Column names slant at 60°: at 45° two names 20 px apart ran into each other.
    return { w: longest + 8, h: longest * 0.87 + 10, names };
  };
  const blockH = (s: FeatureSpaceJson) => 40 + spaceHeading(s).extra + Math.max(heat(s) + axes(s).h + 30, 120) + Math.min(4, s.redundant.length) * (fs + 4);
  const height = titleH + spaces.reduce((t, s) => t + blockH(s) + 14, 0) + 8;
  const svg = createSvg(container, theme, width, height, `Covariance of the features in "${input.name}"`, 'covariance');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  notes.forEach((s, k) => note(svg, theme, pad, 34 + title.extra + k * 16, s));
  const tips = new TipTable();
  let y = titleH;
  for (const s of spaces) {
    const sh = spaceHeading(s);
    const outer = svg.append('g').attr('class', 'feature-space').attr('transform', `translate(${pad},${y})`) as unknown as G;
    drawHeading(outer, 'heading', 0, 14, sh, `${s.label}: ${s.n} tokens × ${s.d} features`);
    // Everything under the heading moves down by its extra lines.
    const g = (sh.extra ? outer.append('g').attr('transform', `translate(0,${sh.extra})`) : outer) as unknown as G;
    const names = nameOf(s);
    const ax = axes(s);
    const size = heat(s);
    if (s.correlation) {
      drawAxes(g, s, ax, 30, size);
      drawCorrelation(g, s, ax.w, 30 + ax.h, size, names);
    } else g.append('text').attr('y', 34).attr('fill', theme.muted).attr('font-size', fs - 1).text(`${s.d} features: too many to draw each pair; the redundant pairs and the variance explained follow`);
    // Slanted column names reach right of the heat map by half their length: the bars start past them.
    const barsX = size ? ax.w + size + Math.max(40, ax.h * 0.6) : 0;
    drawExplained(g, s, barsX, 30, Math.min(360, width - 2 * pad - barsX), 100);
    const listY = 40 + Math.max(size + ax.h + 30, 120);
    if (s.redundant.length === 0) {
      g.append('text').attr('y', listY).attr('fill', theme.muted).attr('font-size', fs - 1).text('no redundant pair (|correlation| ≥ 0.9)');
    }
    s.redundant.slice(0, 4).forEach((p, k) => {
      g.append('text').attr('class', 'redundant hot').attr('y', listY + k * (fs + 4)).attr('font-size', fs - 1)
        .text(clip(`${names(p.a)} and ${names(p.b)}: correlation ${fmt(p.correlation, 3)}, ${Math.abs(p.correlation) >= 0.999 ? 'one is a copy of the other' : 'nearly redundant'}`, width - 2 * pad, fs - 1))
        .attr('data-tip', tips.add({ lines: [`${names(p.a)} and ${names(p.b)} move together across the tokens (correlation ${fmt(p.correlation, 4)})`, 'one of them adds little the other does not carry'] }));
    });
    y += blockH(s) + 14;
  }

  function drawAxes(g: G, s: FeatureSpaceJson, ax: { w: number; h: number; names: string[] }, y0: number, size: number): void {
    if (ax.names.length === 0) return;
    const c = size / s.d;
    const box = g.append('g').attr('class', 'axes').attr('font-size', axisFs).attr('fill', theme.muted);
    ax.names.forEach((name, i) => {
      const tip = (where: string) => tips.add({ lines: [name, `feature ${i + 1} of ${s.d}: the heat map's ${where} ${i + 1}`] });
      box.append('text').attr('class', 'axis-label row hot').attr('x', ax.w - 4).attr('y', y0 + ax.h + (i + 0.5) * c + axisFs * 0.35)
        .attr('text-anchor', 'end').attr('data-tip', tip('row')).text(clip(name, AXIS_MAX, axisFs));
      const cx = ax.w + (i + 0.5) * c, cy = y0 + ax.h - 4;
      box.append('text').attr('class', 'axis-label col hot').attr('x', cx).attr('y', cy).attr('transform', `rotate(-60 ${cx} ${cy})`)
        .attr('data-tip', tip('column')).text(clip(name, AXIS_MAX, axisFs));
    });
  }

  function drawCorrelation(g: G, s: FeatureSpaceJson, x: number, y0: number, size: number, names: (i: number) => string): void {
    const d = s.d, c = size / d;
    const box = g.append('g').attr('class', 'correlation').attr('transform', `translate(${x},${y0})`);
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) {
        const v = s.correlation![a * d + b];
        const ok = Number.isFinite(v);
        box.append('rect').attr('class', 'cell hot').attr('x', b * c).attr('y', a * c).attr('width', c).attr('height', c)
          .attr('fill', ok ? theme.div(v) : theme.masked)
          .attr('data-tip', tips.add({ lines: [`${names(a)} and ${names(b)}: correlation ${ok ? fmt(v, 3) : 'none'}`,
            s.constant[a] || s.constant[b] ? 'a feature that does not vary across the tokens correlates with nothing' : 'covariance ÷ (σ_a σ_b), features as variables, tokens as observations (÷ n − 1)'] }));
      }
    }
    box.append('rect').attr('width', size).attr('height', size).attr('fill', 'none').attr('stroke', theme.grid);
    box.append('text').attr('y', size + 14).attr('fill', theme.muted).attr('font-size', fs - 2).text(size >= 140 ? 'correlation: −1 … 0 … 1' : '−1 … 0 … 1');
  }

  function drawExplained(g: G, s: FeatureSpaceJson, x: number, y0: number, w: number, hgt: number): void {
    const shown = s.explained.slice(0, MAX_COMPONENTS);
    const box = g.append('g').attr('class', 'explained').attr('transform', `translate(${x},${y0})`);
    const label = 'variance explained by each principal direction';
    box.append('text').attr('y', 10).attr('fill', theme.muted).attr('font-size', fs - 1).text(clip(label, w, fs - 1));
    const bw = Math.max(4, Math.min(28, w / Math.max(1, shown.length) - 3));
    shown.forEach((share, k) => {
      const ok = Number.isFinite(share);
      const bh = ok ? Math.max(1, share * (hgt - 24)) : 1;
      box.append('rect').attr('class', 'component hot').attr('x', k * (bw + 3)).attr('y', hgt - bh).attr('width', bw).attr('height', bh).attr('fill', theme.accent)
        .attr('data-tip', tips.add({ lines: [`PC${k + 1}: ${ok ? fmt(share * 100, 1) : '?'}% of the variance (eigenvalue ${fmt(s.eigenvalues[k])})`, k < 2 ? 'the quadrant view plots PC1 and PC2 when the spec names no axes' : 'a direction of the covariance, by the variance along it'] }));
      if (bw >= 16 && ok) box.append('text').attr('x', k * (bw + 3) + bw / 2).attr('y', hgt - bh - 3).attr('text-anchor', 'middle').attr('font-size', fs - 3).text(`${Math.round(share * 100)}`);
    });
    if (shown.length === 0) box.append('text').attr('y', hgt / 2).attr('fill', theme.muted).text('nothing varies');
  }

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  // Every number's hover is in reach of the keyboard too: Tab into the view, then the arrows.
  if (options.interactive) cleanups.push(hotGrid(svgNode, '.hot', 'g.feature-space'));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
