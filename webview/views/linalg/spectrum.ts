// Spectrum: what each of a head's matrices does, in numbers and in the plane. For W_Q, W_K, W_V,
// the head's rows of W_O and the circuits W_Q·W_Kᵀ (QK: which pairs score high) and W_V·W_O^h
// (OV: what a head writes): the singular values (how much each direction is stretched), the
// condition number and effective rank, the eigenvalues of the square ones on the complex plane
// (with the OV copying score), and the 2-D picture of the unit circle and its image.
import { hotGrid } from '../../kit/keyboard.js';
import { isHandle, linalgOrSay, wrappedText } from './linalg-view.js';
import type { SpectrumMatrixJson } from '../../../src/core/result/linalg-json.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { thinnedLabels } from '../../kit/thin-labels.js';
import { drawPlanePicture } from './plane-picture.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { createSvg, drawHeading, drawNotes, emptyView, layoutHeading, layoutNotes, singleHead, type G, type ViewFn } from '../../kit/view.js';

/** Bars drawn per matrix; the hover of the last bar says how many more there are. */
const MAX_BARS = 32;
/** The widest a bar is drawn, and the narrowest the bars' column of a wide panel (its label and facts need the room). */
const BAR_MAX = 24, BARS_MIN_W = 160;

export const renderSpectrum: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const found = linalgOrSay(container, data, options, 'spectrum', 'spectra');
  if (isHandle(found)) return found;
  const l = found;
  const h = singleHead(data, options);
  const spectra = l.spectra[h];
  const headName = data.inputs[0]?.heads[h]?.name ?? `head ${h + 1}`;
  if (!spectra) return emptyView(container, theme, options.width, 'spectrum', `Head "${headName}" is past the ${l.spectra.length} heads the panel analyses: run attn analyze.`);
  const fs = theme.fontSize, pad = 12;
  const notes: string[] = [];
  if (options.head === 'all' && (data.inputs[0]?.heads.length ?? 0) > 1) notes.push(`showing head "${headName}"; pick another head in the toolbar`);
  const width = Math.max(options.width, 320);
  const pic = 140;
  // Narrow: the bars on top, the eigenvalues and the plane picture side by side under them.
  const stacked = width < 640;
  // Wide, the bars' column is as wide as its bars, their numbers and its texts need, and the two
  // pictures follow it: a column of all the width left two bars and 600 px of nothing at 1,200 px.
  const barsW = stacked ? width - 2 * pad : Math.min(width - 2 * pad - 2 * (pic + 24), columnWidth(spectra, fs));
  const barsH = stacked ? 60 : 0;
  const rowH = stacked ? 40 + barsH + 14 + pic + 34 : Math.max(pic + 46, 124);
  // The title and the notes wrap in a narrow panel (the title ended in "…" at 430 px): the rows move down.
  const titleText = `What the matrices of head "${headName}" stretch, keep and turn`;
  const title = layoutHeading(titleText, width - 2 * pad, fs, true, 3);
  const noteBlock = layoutNotes(notes, width - 2 * pad, fs);
  const titleH = 24 + title.extra + noteBlock.height;
  const height = titleH + spectra.length * rowH + 8;
  const svg = createSvg(container, theme, width, height, `Spectrum of head "${headName}"`, 'spectrum');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  drawNotes(svg, theme, pad, 34 + title.extra, noteBlock, notes);
  const tips = new TipTable();

  spectra.forEach((m, k) => {
    const y0 = titleH + k * rowH;
    const g = svg.append('g').attr('class', `matrix-spectrum ${m.name}`).attr('transform', `translate(${pad},${y0})`) as unknown as G;
    g.append('text').attr('class', 'label').attr('y', 14).attr('font-weight', 600).text(`${m.label} (${m.rows} × ${m.cols})`);
    g.append('text').attr('class', 'facts hot').attr('y', 30).attr('fill', theme.muted).attr('font-size', fs - 1)
      .text(clip(factsText(m), barsW, fs - 1))
      .attr('data-tip', tips.add({ lines: factLines(m) }));
    drawBars(g, m, 0, 40, barsW, stacked ? barsH : rowH - 56, tips);
    const px = stacked ? 0 : barsW + 24;
    const py = stacked ? 40 + barsH + 14 : 4;
    drawEigen(g, m, px, py, pic, tips);
    // The eigenvalues' caption under its box, as the plane picture's: inside, it sat on the unit circle.
    if (m.eigenvalues) wrappedText(g, theme, px, py + pic + 13, eigenCaption(m), pic, 'eigen-caption', 2, fs - 2);
    if (m.restricted) {
      const qx = px + pic + 24;
      const qy = py;
      const names = (i: number) => data.features[i] ?? `d${i}`;
      const title = `${m.label} on ${names(m.restricted.rows[0])}, ${names(m.restricted.rows[1])}`;
      drawPlanePicture(g, theme, qx, qy, pic, m.restricted.picture, tips, title, m.rows === m.cols);
      // The caption wraps under its picture, no wider than it (it ran past the picture's edge at 1,200 px).
      wrappedText(g, theme, qx, qy + pic + 13, title, pic, 'caption', 2, fs - 2);
    }
  });

  function drawEigen(g: G, m: SpectrumMatrixJson, x: number, y: number, size: number, t: TipTable): void {
    const box = g.append('g').attr('class', 'eigenvalues').attr('transform', `translate(${x},${y})`);
    box.append('rect').attr('width', size).attr('height', size).attr('fill', 'none').attr('stroke', theme.grid);
    if (!m.eigenvalues) {
      wrappedText(box, theme, 6, size / 2 - fs / 2, 'not square: no eigenvalues', size - 12, 'not-square', 3, fs - 1);
      return;
    }
    const reach = Math.max(1, maxOf(m.eigenvalues, (e) => Math.hypot(e[0], e[1])));
    const unit = (size * 0.42) / reach, c = size / 2;
    box.append('circle').attr('cx', c).attr('cy', c).attr('r', unit).attr('fill', 'none').attr('stroke', theme.muted).attr('stroke-dasharray', '3 3');
    box.append('line').attr('x1', 0).attr('x2', size).attr('y1', c).attr('y2', c).attr('stroke', theme.grid);
    box.append('line').attr('x1', c).attr('x2', c).attr('y1', 0).attr('y2', size).attr('stroke', theme.grid);
    m.eigenvalues.forEach(([re, im], i) => {
      if (!Number.isFinite(re) || !Number.isFinite(im)) return;
      box.append('circle').attr('class', 'eigenvalue hot').attr('cx', c + re * unit).attr('cy', c - im * unit).attr('r', 3.5).attr('fill', theme.accent)
        .attr('data-tip', t.add({ lines: [`λ${i + 1} = ${fmt(re)}${im === 0 ? '' : ` ${im < 0 ? '−' : '+'} ${fmt(Math.abs(im))}i`}, |λ| = ${fmt(Math.hypot(re, im))}`,
          im === 0 ? (re >= 0 ? 'a direction kept and stretched' : 'a direction kept and flipped') : 'a complex pair: a turn, no direction is kept'] }));
    });
  }

  function drawBars(g: G, m: SpectrumMatrixJson, x: number, y: number, w: number, h: number, t: TipTable): void {
    const sv = m.singularValues;
    const shown = sv.slice(0, MAX_BARS);
    // The largest as it is: a floor (it was 1e-300) made σ of 1e-310 read '1.00e-3% of the largest'.
    const top = sv[0] ?? 0;
    // Each bar carries its number above it (the story's "3 and 0.5" were only in the hovers): as
    // many as have room, the first always, every k-th of a crowded row (each bar keeps its hover).
    const lfs = fs - 2;
    const values = shown.map((s) => fmt(s));
    const pitch = barPitch(values, w, lfs);
    const bw = Math.max(2, Math.min(BAR_MAX, pitch - 2));
    const labelled = new Set(thinnedLabels(shown.length, pitch, maxOf(values, (v) => textWidth(v, lfs)) + 4, [0]));
    const room = h - lfs - 3;
    const bars = g.append('g').attr('class', 'singular-values').attr('transform', `translate(${x},${y})`);
    shown.forEach((s, i) => {
      const bh = top > 0 && Number.isFinite(s) ? Math.max(1, (s / top) * room) : 1;
      bars.append('rect').attr('class', 'sigma hot').attr('x', i * pitch).attr('y', h - bh).attr('width', bw).attr('height', bh).attr('fill', theme.seq(0.35 + 0.6 * (s / top || 0)))
        .attr('data-tip', t.add({ lines: [`σ${i + 1} = ${values[i]}`, i === shown.length - 1 && sv.length > shown.length ? `${sv.length - shown.length} more, down to ${fmt(sv[sv.length - 1])}` : top > 0 ? `${fmt((s / top) * 100, 1)}% of the largest` : 'every singular value is 0'] }));
      if (labelled.has(i)) {
        bars.append('text').attr('class', 'sigma-value').attr('x', i * pitch + bw / 2).attr('y', h - bh - 3).attr('text-anchor', 'middle')
          .attr('font-size', lfs).attr('fill', theme.fg).text(values[i]);
      }
    });
    bars.append('line').attr('x1', 0).attr('x2', Math.min(w, shown.length * pitch)).attr('y1', h).attr('y2', h).attr('stroke', theme.grid);
  }

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  // Every number's hover is in reach of the keyboard too: Tab into the view, then the arrows.
  if (options.interactive) cleanups.push(hotGrid(svgNode, '.hot', 'g.matrix-spectrum'));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};

/** What the eigenvalues' box shows, said under it. */
function eigenCaption(m: SpectrumMatrixJson): string {
  return m.zeroEigenvalues > 0 ? `eigenvalues (+ ${m.zeroEigenvalues} × 0); circle |λ| = 1` : 'eigenvalues; circle |λ| = 1';
}

/** The facts line of a matrix, as drawn under its name. */
function factsText(m: SpectrumMatrixJson): string {
  return [
    `κ = ${m.conditionNumber === null ? '∞ (singular)' : fmt(m.conditionNumber, 2)}`,
    `effective rank ${fmt(m.effectiveRank, 2)}`,
    ...(m.copyingScore !== undefined ? [`copying score ${fmt(m.copyingScore, 3)}`] : []),
  ].join(' · ');
}

/** The distance between bars `w` wide at most: wide enough for each bar's number, if the row has room, else as many as fit. */
function barPitch(values: readonly string[], w: number, lfs: number): number {
  const need = Math.max(BAR_MAX + 2, maxOf(values, (v) => textWidth(v, lfs)) + 6);
  return Math.max(4, Math.min(need, w / Math.max(1, values.length)));
}

/** The bars' column of a wide panel: its widest row of bars with their numbers, its name, or its facts. */
function columnWidth(spectra: readonly SpectrumMatrixJson[], fs: number): number {
  let w = BARS_MIN_W;
  for (const m of spectra) {
    const values = m.singularValues.slice(0, MAX_BARS).map((s) => fmt(s));
    w = Math.max(w, values.length * barPitch(values, Infinity, fs - 2), textWidth(factsText(m), fs - 1), textWidth(`${m.label} (${m.rows} × ${m.cols})`, fs * 1.1));
  }
  return Math.ceil(w) + 8;
}

function factLines(m: SpectrumMatrixJson): string[] {
  const lines = [
    `${m.label}: ${m.rows} × ${m.cols}, ${m.singularValues.length} singular values, largest ${fmt(m.singularValues[0] ?? 0)}`,
    m.conditionNumber === null ? 'condition number ∞: some direction is flattened to nothing (the matrix is singular)' : `condition number σ_max / σ_min = ${fmt(m.conditionNumber, 3)}: how unevenly it stretches`,
    `effective rank ${fmt(m.effectiveRank, 3)} (e to the entropy of σ / Σσ), stable rank ${fmt(m.stableRank, 3)} (Σσ² / σ_max²)`,
  ];
  if (m.copyingScore !== undefined) lines.push(`copying score trace / Σ|λ| = ${fmt(m.copyingScore, 3)}: 1 copies what it reads, 0 turns it, −1 negates it`);
  return lines;
}
