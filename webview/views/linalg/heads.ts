// Heads: are the heads diverse? For W_Q, W_K and W_V, a heads × heads matrix of how much of the row
// head's subspace (the column space of its W) lies inside the column head's: Σ cos² of the
// principal angles ÷ the row head's dimension. 1 on the diagonal and for a head inside another, 0
// for orthogonal ones. The overlap attn analyze reports (the mean over the smaller subspace) called
// "raw" (all of R³) and "tech lens" (a plane in it) "the same" at 1; read both ways, the plane lies
// inside R³ (1) while R³ is two thirds inside the plane (0.67), and the sentence says so.
import { isHandle, linalgOrSay, messageView, wrappedText } from './linalg-view.js';
import { textOn } from '../../kit/colour.js';
import { fmt, textWidth, wrapLines } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { containment, rankOf, verdictText, type Containment } from '../../../src/core/linalg/subspaces.js';
import type { LinalgJson } from '../../../src/core/result/linalg-json.js';
import { HEAD_ROLES as roles, ROLE_SYMBOL, type HeadRole } from '../../../src/core/vocabulary.js';
import { createSvg, drawHeading, fitText, layoutHeading, type ViewFn } from '../../kit/view.js';

/** Each head's subspace dimension for a role (the rank of its W, from the Spectrum numbers); undefined past the heads analysed. */
export function headRanks(l: LinalgJson, role: HeadRole, heads: number): (number | undefined)[] {
  return Array.from({ length: heads }, (_, h) => {
    const m = l.spectra[h]?.find((s) => s.name === role);
    return m ? rankOf(m.singularValues, m.rows, m.cols) : undefined;
  });
}

export const renderHeads: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const heads = data.inputs[0]?.heads ?? [];
  // One head is said first, whatever the size: a 512-wide single head has nothing to compare either.
  if (heads.length < 2) return messageView(container, options, 'heads', 'One head: there is no other head to compare it with. Add heads to see whether they read different directions.');
  const found = linalgOrSay(container, data, options, 'heads', 'head overlaps');
  if (isHandle(found)) return found;
  const l = found;
  if (!l.overlap) return messageView(container, options, 'heads', 'One head: there is no other head to compare it with. Add heads to see whether they read different directions.');
  const fs = theme.fontSize, pad = 12;
  const H = heads.length;
  const names = heads.map((h) => h.name);
  const labelW = Math.min(120, maxOf(names, (n) => textWidth(n, fs - 1)) + 10);
  const width = Math.max(options.width, 320);
  // Side by side when the three fit, else one under the other.
  const perRow = width >= 3 * (labelW + H * 22 + 30) + 2 * pad ? 3 : 1;
  const cell = Math.max(8, Math.min(44, Math.floor(((width - 2 * pad) / perRow - labelW - 30) / H)));
  const blockW = labelW + H * cell + 30;
  const sentenceW = perRow === 1 ? width - 2 * pad : blockW - 10;

  // Per role: every pair read both ways (when the dimensions are known), and the sentence for the most alike pair.
  const per = roles.map((role) => {
    const m = l.overlap![role];
    const ranks = headRanks(l, role, H);
    const pair = (a: number, b: number): Containment | undefined => {
      const v = m[a]?.[b];
      return typeof v === 'number' && Number.isFinite(v) && ranks[a] !== undefined && ranks[b] !== undefined ? containment(v, ranks[a]!, ranks[b]!) : undefined;
    };
    // The cell: the share of the row head's subspace inside the column head's; the overlap itself when a dimension is unknown.
    const cellValue = (a: number, b: number) => (a === b ? 1 : pair(a, b)?.aInB ?? m[a]?.[b]);
    let best: [number, number] | undefined;
    const score = (a: number, b: number) => Math.max(pair(a, b)?.aInB ?? m[a][b], pair(a, b)?.bInA ?? m[a][b]) * 10 + (m[a][b] ?? 0);
    for (let a = 0; a < H; a++) for (let b = a + 1; b < H; b++) if (Number.isFinite(m[a]?.[b]) && (!best || score(a, b) > score(best[0], best[1]))) best = [a, b];
    let sentence = '';
    if (best) {
      const [a, b] = best, c = pair(a, b);
      sentence = c ? `most alike: ${verdictText(c, names[a], names[b], ranks[a]!, ranks[b]!)}` : `most alike: "${names[a]}" and "${names[b]}", overlap ${fmt(m[a][b], 2)} (mean cos² over the smaller subspace)`;
    }
    return { role, m, ranks, pair, cellValue, sentence, lines: sentence ? wrapLines(sentence, sentenceW, fs - 1, 4).length : 0 };
  });
  const sentenceH = maxOf(per, (p) => p.lines) * Math.round((fs - 1) * 1.35);
  const blockH = 26 + sentenceH + 10 + labelW * 0.7 + H * cell;
  const titleText = `Are the ${H} heads diverse? How much of each head's W_Q, W_K, W_V subspace lies inside another's`;
  const title = layoutHeading(titleText, width - 2 * pad, fs, true, 4);
  const noteText = 'cell = the share of the row head\'s subspace inside the column head\'s (Σ cos² of the principal angles ÷ the row head\'s dimension): 1 = inside it, 0 = orthogonal. Both ways 1: the same subspace.';
  const noteLines = wrapLines(noteText, width - 2 * pad, fs, 5).length;
  const titleH = 24 + title.extra + noteLines * Math.round(fs * 1.35) + 8;
  const height = titleH + Math.ceil(3 / perRow) * (blockH + 16) + 10;
  const svg = createSvg(container, theme, width, height, 'Subspace overlap of the heads', 'heads');
  drawHeading(svg, 'title', pad, 16, title, titleText);
  wrappedText(svg, theme, pad, 36 + title.extra, noteText, width - 2 * pad, 'note', 5);
  const tips = new TipTable();
  const focusables: { el: Element; row: number; col: number }[] = [];
  per.forEach(({ role, m, ranks, pair, cellValue, sentence }, r) => {
    const x0 = pad + (r % perRow) * blockW, y0 = titleH + Math.floor(r / perRow) * (blockH + 16);
    const g = svg.append('g').attr('class', `overlap ${role}`).attr('transform', `translate(${x0},${y0})`);
    g.append('text').attr('y', 14).attr('font-weight', 600).text(ROLE_SYMBOL[role]);
    if (sentence) wrappedText(g, theme, 0, 30, sentence, sentenceW, 'verdict', 4, fs - 1);
    const gx = labelW, gy = 26 + sentenceH + 10 + labelW * 0.7;
    const dim = (h: number) => (ranks[h] !== undefined ? ` (${ranks[h]}-D)` : '');
    names.forEach((n, i) => {
      fitText(g.append('text').attr('x', gx - 4).attr('y', gy + i * cell + cell / 2 + 4).attr('text-anchor', 'end').attr('font-size', fs - 1), n, labelW - 6, fs - 1);
      const cx = gx + i * cell + cell / 2;
      // At 45° a label runs right by its length ÷ √2: the last block's stop at the picture's edge (700 px).
      fitText(g.append('text').attr('x', cx).attr('y', gy - 4).attr('font-size', fs - 1).attr('transform', `rotate(-45 ${cx} ${gy - 4})`), n, Math.min(labelW, (width - pad - x0 - cx) * Math.SQRT2 - 4), fs - 1);
    });
    for (let a = 0; a < H; a++) {
      for (let b = 0; b < H; b++) {
        const v = cellValue(a, b);
        const ok = typeof v === 'number' && Number.isFinite(v);
        const c = a === b ? undefined : pair(a, b);
        const lines = [`${ROLE_SYMBOL[role]}: "${names[a]}"${dim(a)} in "${names[b]}"${dim(b)}`];
        if (!ok) lines.push('not computed');
        else if (a === b) lines.push('a subspace lies wholly inside itself: 1');
        else if (c) {
          lines.push(`${fmt(c.aInB, 3)} of "${names[a]}"'s subspace lies inside "${names[b]}"'s; ${fmt(c.bInA, 3)} of "${names[b]}"'s inside "${names[a]}"'s`);
          lines.push(`${verdictText(c, names[a], names[b], ranks[a]!, ranks[b]!)}`);
          lines.push(`attn analyze's overlap (mean cos² over the smaller subspace): ${fmt(m[a][b], 4)}`);
        } else lines.push(`overlap ${fmt(v, 4)} (mean cos² of the principal angles over the smaller subspace; its dimension is not known here)`);
        const rect = g.append('rect').attr('class', 'cell hot').attr('data-a', a).attr('data-b', b).attr('data-role', role)
          .attr('x', gx + b * cell).attr('y', gy + a * cell).attr('width', cell).attr('height', cell)
          .attr('fill', ok ? theme.seq(v) : theme.masked).attr('stroke', theme.bg)
          .attr('data-tip', tips.add({ lines }));
        if (cell >= 30 && ok) g.append('text').attr('class', 'cell-value').attr('x', gx + b * cell + cell / 2).attr('y', gy + a * cell + cell / 2 + 4).attr('text-anchor', 'middle')
          .attr('font-size', fs - 2).attr('pointer-events', 'none').attr('fill', textOn(theme.seq(v))).text(fmt(v, 2));
        // The three grids one under the other for the arrows: W_Q's rows, then W_K's, then W_V's.
        focusables.push({ el: rect.node()!, row: r * H + a, col: b });
      }
    }
  });
  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes: [noteText], destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
