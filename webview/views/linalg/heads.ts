// Heads: are the heads diverse? For W_Q, W_K and W_V, a heads × heads matrix of subspace overlap:
// the mean cos² of the principal angles between two heads' column spaces (1 on the diagonal, 1 for
// heads that read the same directions, 0 for orthogonal ones).
import { isHandle, linalgOrSay } from './linalg-view.js';
import { textOn } from '../../kit/colour.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { HEAD_ROLES as roles, ROLE_SYMBOL } from '../../../src/core/vocabulary.js';
import { createSvg, emptyView, note, type ViewFn } from '../../kit/view.js';

export const renderHeads: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const found = linalgOrSay(container, data, options, 'heads', 'head overlaps');
  if (isHandle(found)) return found;
  const l = found;
  const heads = data.inputs[0]?.heads ?? [];
  if (!l.overlap || heads.length < 2) return emptyView(container, theme, options.width, 'heads', 'One head: there is no other head to compare it with. Add heads to see whether they read different directions.');
  const fs = theme.fontSize, pad = 12;
  const H = heads.length;
  const names = heads.map((h) => h.name);
  const labelW = Math.min(120, maxOf(names, (n) => textWidth(n, fs - 1)) + 10);
  const width = Math.max(options.width, 320);
  // Side by side when the three fit, else one under the other.
  const perRow = width >= 3 * (labelW + H * 22 + 30) + 2 * pad ? 3 : 1;
  const cell = Math.max(8, Math.min(44, Math.floor(((width - 2 * pad) / perRow - labelW - 30) / H)));
  const blockW = labelW + H * cell + 30, blockH = 40 + labelW * 0.7 + H * cell;
  const notes = ['mean cos² of the principal angles between the heads\' column spaces: 1 = the same directions, 0 = orthogonal'];
  const titleH = 24 + notes.length * 16;
  const height = titleH + Math.ceil(3 / perRow) * (blockH + 16) + 10;
  const svg = createSvg(container, theme, width, height, 'Subspace overlap of the heads', 'heads');
  svg.append('text').attr('class', 'title').attr('x', pad).attr('y', 16).attr('font-weight', 600)
    .text(clip(`Are the ${H} heads diverse? Overlap of the directions their W_Q, W_K, W_V read`, width - 2 * pad, fs * 1.1));
  notes.forEach((s, k) => note(svg, theme, pad, 34 + k * 16, s));
  const tips = new TipTable();
  const focusables: { el: Element; row: number; col: number }[] = [];
  roles.forEach((role, r) => {
    const m = l.overlap![role];
    const x0 = pad + (r % perRow) * blockW, y0 = titleH + Math.floor(r / perRow) * (blockH + 16);
    const g = svg.append('g').attr('class', `overlap ${role}`).attr('transform', `translate(${x0},${y0})`);
    // The most alike pair of distinct heads, said in words.
    let best: [number, number, number] | undefined;
    for (let a = 0; a < H; a++) for (let b = a + 1; b < H; b++) if (Number.isFinite(m[a]?.[b]) && (!best || m[a][b] > best[2])) best = [a, b, m[a][b]];
    g.append('text').attr('y', 14).attr('font-weight', 600).text(ROLE_SYMBOL[role]);
    // One grid a row: the sentence may use the panel's width (it was cut at the grid's).
    if (best) g.append('text').attr('y', 30).attr('fill', theme.muted).attr('font-size', fs - 1)
      .text(clip(`most alike: "${names[best[0]]}" and "${names[best[1]]}", ${fmt(best[2], 2)}`, perRow === 1 ? width - 2 * pad : blockW - 10, fs - 1));
    const gx = labelW, gy = 40 + labelW * 0.7;
    names.forEach((n, i) => {
      g.append('text').attr('x', gx - 4).attr('y', gy + i * cell + cell / 2 + 4).attr('text-anchor', 'end').attr('font-size', fs - 1).text(clip(n, labelW - 6, fs - 1));
      const cx = gx + i * cell + cell / 2;
      g.append('text').attr('x', cx).attr('y', gy - 4).attr('font-size', fs - 1).attr('transform', `rotate(-45 ${cx} ${gy - 4})`).text(clip(n, labelW, fs - 1));
    });
    for (let a = 0; a < H; a++) {
      for (let b = 0; b < H; b++) {
        const v = m[a]?.[b];
        const ok = typeof v === 'number' && Number.isFinite(v);
        const rect = g.append('rect').attr('class', 'cell hot').attr('data-a', a).attr('data-b', b).attr('data-role', role)
          .attr('x', gx + b * cell).attr('y', gy + a * cell).attr('width', cell).attr('height', cell)
          .attr('fill', ok ? theme.seq(v) : theme.masked).attr('stroke', theme.bg)
          .attr('data-tip', tips.add({ lines: [`${ROLE_SYMBOL[role]}: "${names[a]}" and "${names[b]}"`, ok ? `overlap ${fmt(v, 4)} (mean cos² of the principal angles)` : 'not computed'] }));
        if (cell >= 30 && ok) g.append('text').attr('x', gx + b * cell + cell / 2).attr('y', gy + a * cell + cell / 2 + 4).attr('text-anchor', 'middle')
          .attr('font-size', fs - 2).attr('pointer-events', 'none').attr('fill', textOn(theme.seq(v))).text(fmt(v, 2));
        // The three grids one under the other for the arrows: W_Q's rows, then W_K's, then W_V's.
        focusables.push({ el: rect.node()!, row: r * H + a, col: b });
      }
    }
  });
  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
