// Covariance: how the features vary together across an input's tokens, for X, the chosen head's
// Q, K, V and output, and the output: the correlation matrix (small spaces), the pairs of features
// so correlated that one is redundant, and the covariance's eigenvalues as the share of the
// variance each principal direction explains (the quadrant view's PC1 and PC2 are the first two).
import { hotGrid } from '../../kit/keyboard.js';
import { isHandle, linalgOrSay, wrappedText } from './linalg-view.js';
import type { FeatureSpaceJson } from '../../../src/core/result/linalg-json.js';
import { clip, fmt, textWidth, wrapLines } from '../../kit/format.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { TipTable } from '../../kit/tips.js';
import { thinnedLabels } from '../../kit/thin-labels.js';
import { wireTips } from '../../kit/tooltip.js';
import { clampIndex, createSvg, drawHeading, drawNotes, emptyView, layoutHeading, layoutNotes, singleHead, type G, type ViewFn } from '../../kit/view.js';

/** Components whose share is drawn as a bar. */
const MAX_COMPONENTS = 16;
/** The longest a feature's name is drawn beside the heat map, in pixels (the hover has it whole). */
const AXIS_MAX = 72;
/** The narrowest the variance bars are drawn beside the heat map; with less room they go under it. */
const MIN_BARS_W = 200;
const EXPLAINED = 'variance explained by each principal direction';

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
  const noteBlock = layoutNotes(notes, width - 2 * pad, fs);
  const titleH = 24 + title.extra + noteBlock.height;
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
  // Where a space's parts go, under its heading: the heat map (or, past the panel's limit, a
  // sentence saying so), the variance bars beside it when they have room, else under it (beside a
  // heat map in a 430 px panel they had 26 px and a cut label), then the redundant pairs.
  const lineH1 = Math.round((fs - 1) * 1.35);
  const tooMany = (s: FeatureSpaceJson) => `${s.d} features: too many to draw each pair; the redundant pairs and the variance explained follow`;
  const place = (s: FeatureSpaceJson) => {
    const size = heat(s), ax = axes(s);
    const sentenceH = s.correlation ? 0 : wrapLines(tooMany(s), width - 2 * pad, fs - 1, 4).length * lineH1;
    const besideX = size ? ax.w + size + Math.max(40, ax.h * 0.6) : 0;
    const beside = size > 0 && width - 2 * pad - besideX >= MIN_BARS_W;
    const mainBottom = size ? 30 + ax.h + size + 30 : 30 + sentenceH;
    const barsX = beside ? besideX : 0;
    const barsW = Math.min(360, width - 2 * pad - barsX);
    const barsY = beside ? 30 : size ? mainBottom : mainBottom + 6;
    const barsH = 100 + (wrapLines(EXPLAINED, barsW, fs - 1, 3).length - 1) * lineH1;
    const listY = 10 + Math.max(mainBottom, barsY + barsH + 20);
    return { size, ax, barsX, barsY, barsW, listY };
  };
  const blockH = (s: FeatureSpaceJson) => place(s).listY + spaceHeading(s).extra + Math.min(4, s.redundant.length) * (fs + 4);
  const height = titleH + spaces.reduce((t, s) => t + blockH(s) + 14, 0) + 8;
  const svg = createSvg(container, theme, width, height, `Covariance of the features in "${input.name}"`, 'covariance');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  drawNotes(svg, theme, pad, 34 + title.extra, noteBlock, notes);
  const tips = new TipTable();
  let y = titleH;
  for (const s of spaces) {
    const sh = spaceHeading(s);
    const outer = svg.append('g').attr('class', 'feature-space').attr('transform', `translate(${pad},${y})`) as unknown as G;
    drawHeading(outer, 'heading', 0, 14, sh, `${s.label}: ${s.n} tokens × ${s.d} features`);
    // Everything under the heading moves down by its extra lines.
    const g = (sh.extra ? outer.append('g').attr('transform', `translate(0,${sh.extra})`) : outer) as unknown as G;
    const names = nameOf(s);
    const { size, ax, barsX, barsY, barsW, listY } = place(s);
    if (s.correlation) {
      drawAxes(g, s, ax, 30, size);
      drawCorrelation(g, s, ax.w, 30 + ax.h, size, names);
    } else wrappedText(g, theme, 0, 34, tooMany(s), width - 2 * pad, 'too-many', 4, fs - 1);
    // Slanted column names reach right of the heat map by half their length: the bars start past them.
    drawExplained(g, s, barsX, barsY, barsW, 100);
    if (s.redundant.length === 0) {
      g.append('text').attr('y', listY).attr('fill', theme.muted).attr('font-size', fs - 1).text('no redundant pair (|correlation| ≥ 0.9)');
    }
    s.redundant.slice(0, 4).forEach((p, k) => {
      const said = `${names(p.a)} and ${names(p.b)}: correlation ${fmt(p.correlation, 3)}, ${Math.abs(p.correlation) >= 0.999 ? 'one is a copy of the other' : 'nearly redundant'}`;
      const shown = clip(said, width - 2 * pad, fs - 1);
      // A line cut short has its whole sentence first in its hover.
      g.append('text').attr('class', 'redundant hot').attr('y', listY + k * (fs + 4)).attr('font-size', fs - 1).text(shown)
        .attr('data-tip', tips.add({ lines: [...(shown === said ? [] : [said]), `${names(p.a)} and ${names(p.b)} move together across the tokens (correlation ${fmt(p.correlation, 4)})`, 'one of them adds little the other does not carry'] }));
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
    const outer = g.append('g').attr('class', 'explained').attr('transform', `translate(${x},${y0})`);
    // The label wraps in a narrow block (it was cut to "variance ex…"); the bars move down under it.
    const below = wrappedText(outer, theme, 0, 10, EXPLAINED, w, 'explained-label', 3, fs - 1) - lineH1;
    const box = below ? outer.append('g').attr('transform', `translate(0,${below})`) : outer;
    const bw = Math.max(4, Math.min(28, w / Math.max(1, shown.length) - 3));
    // Each bar's share written with its unit ("78 22 1 0" read as counts): those that have the room, the first always.
    // A real font sets "<1%" up to about 15% wider than textWidth's estimate, so the room asked is that much more.
    const labels = shown.map(shareLabel);
    const labelled = new Set(thinnedLabels(shown.length, bw + 3, maxOf(labels, (t) => textWidth(t, fs - 3)) * 1.15 + 4, [0]));
    shown.forEach((share, k) => {
      const ok = Number.isFinite(share);
      const bh = ok ? Math.max(1, share * (hgt - 24)) : 1;
      box.append('rect').attr('class', 'component hot').attr('x', k * (bw + 3)).attr('y', hgt - bh).attr('width', bw).attr('height', bh).attr('fill', theme.accent)
        .attr('data-tip', tips.add({ lines: [`PC${k + 1}: ${ok ? fmt(share * 100, 1) : '?'}% of the variance (eigenvalue ${fmt(s.eigenvalues[k])})`, k < 2 ? 'the quadrant view plots PC1 and PC2 when the spec names no axes' : 'a direction of the covariance, by the variance along it'] }));
      if (ok && labelled.has(k)) box.append('text').attr('class', 'share').attr('x', k * (bw + 3) + bw / 2).attr('y', hgt - bh - 3).attr('text-anchor', 'middle').attr('font-size', fs - 3).text(labels[k]);
    });
    if (shown.length === 0) box.append('text').attr('y', hgt / 2).attr('fill', theme.muted).text('nothing varies');
  }

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  // Every number's hover is in reach of the keyboard too: Tab into the view, then the arrows.
  if (options.interactive) cleanups.push(hotGrid(svgNode, '.hot', 'g.feature-space'));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};

/**
 * A share of the variance as a bar's label, in percent: a share that rounds to 0 % or 100 % without
 * being it says "<1%" or ">99%" (a rounded 0 must not read as none at all).
 */
export function shareLabel(share: number): string {
  if (!Number.isFinite(share)) return '?';
  const p = Math.round(share * 100);
  if (p === 0 && share > 0) return '<1%';
  if (p === 100 && share < 1) return '>99%';
  return `${p}%`;
}
