// Geometry: a score is a projection. For the chosen query, the plane spanned by its q and one key's
// k (the key it attends to most), drawn exactly: both arrows, the angle θ between them, and the
// shadow of q on k, whose length times |k| is the score. Beside it, every key: |k|, cos θ, q · k,
// so a reader sees that a dot product rewards length as well as direction.
import { at, row, scaledAt } from '../../../src/core/result/attention-data.js';
import { pairGeometry } from '../../../src/core/linalg/geometry.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { clip, fmt, textWidth } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { clampIndex, createSvg, emptyView, note, singleHead, type ViewFn } from '../../kit/view.js';

export const renderGeometry: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const inputIndex = clampIndex(options.input, data.inputs.length);
  const input = data.inputs[inputIndex];
  if (!input || input.tokens.length === 0 || input.heads.length === 0) return emptyView(container, theme, options.width, 'geometry', 'No tokens to draw.');
  const h = singleHead(data, options);
  const head = input.heads[h];
  const n = input.tokens.length;
  const i = clampIndex(options.token, n);
  const tq = input.tokens[i];
  const fs = theme.fontSize;
  const pad = 12;
  const notes: string[] = [];
  if (options.head === 'all' && input.heads.length > 1) notes.push(`showing head "${head.name}"; pick another head in the toolbar`);
  // The key drawn: the one the query attends to most (ties: the first).
  let j = -1;
  row(head.weights, i).forEach((w, k) => { if (scaledAt(head, i, k) !== null && (j < 0 || w > at(head.weights, i, j))) j = k; });
  if (j < 0) return emptyView(container, theme, options.width, 'geometry', `Every key is masked for "${tq}": there is no score to draw.`);
  const tk = input.tokens[j];
  const g = pairGeometry(row(head.q, i), row(head.k, j));
  const plane = Math.max(220, Math.min(380, options.width - 2 * pad));
  const side = options.width - 2 * pad >= plane + 320 ? 'beside' : 'below';
  const titleH = 24 + notes.length * 16;
  const rowH = fs + 10;
  const tableX = side === 'beside' ? pad + plane + 30 : pad;
  const tableTop = side === 'beside' ? titleH + 20 : titleH + plane + 70;
  const width = Math.max(options.width, 320);
  const height = Math.max(titleH + plane + 70, tableTop + (n + 2) * rowH + 20);
  const svg = createSvg(container, theme, width, height, `Geometry of q_${tq} · k_${tk}`, 'geometry');
  svg.append('text').attr('class', 'title').attr('x', pad).attr('y', 16).attr('font-weight', 600)
    .text(clip(`q · k = |q| |k| cos θ: "${tq}" and "${tk}" in head "${head.name}"`, width - 2 * pad, fs * 1.1));
  notes.forEach((s, k) => note(svg, theme, pad, 34 + k * 16, s));
  const tips = new TipTable();

  // The plane: k along x, q above it; one scale for both arrows so lengths compare.
  const cx = pad + plane / 2, cy = titleH + 20 + plane * 0.62;
  const reach = Math.max(1e-12, g.qNorm, g.kNorm);
  const unit = (plane * 0.42) / reach;
  const P = (v: [number, number]): [number, number] => [cx + v[0] * unit, cy - v[1] * unit];
  const pg = svg.append('g').attr('class', 'plane');
  pg.append('line').attr('x1', pad).attr('x2', pad + plane).attr('y1', cy).attr('y2', cy).attr('stroke', theme.grid);
  pg.append('line').attr('x1', cx).attr('x2', cx).attr('y1', titleH + 20).attr('y2', titleH + 20 + plane).attr('stroke', theme.grid);
  // q's label above its tip, k's below: when q lies along k (the seed's q_watch = k_apple) both stay readable.
  const arrow = (to: [number, number], colour: string, label: string, cls: string, tip: string[], below: boolean) => {
    const [x, y] = P(to);
    pg.append('line').attr('class', `${cls} hot`).attr('x1', cx).attr('y1', cy).attr('x2', x).attr('y2', y).attr('stroke', colour).attr('stroke-width', 3)
      .attr('data-tip', tips.add({ lines: tip }));
    pg.append('circle').attr('cx', x).attr('cy', y).attr('r', 4).attr('fill', colour);
    pg.append('text').attr('x', x + 6).attr('y', below ? y + 16 : y - 6).attr('fill', colour).attr('font-weight', 600).text(label);
  };
  // The shadow of q on k: dashed from q's tip down to k's line, and along k to its foot.
  const [sx, sy] = P([g.shadow, 0]);
  const [qx, qy] = P(g.q2);
  pg.append('line').attr('x1', qx).attr('y1', qy).attr('x2', sx).attr('y2', sy).attr('stroke', theme.muted).attr('stroke-dasharray', '4 3');
  pg.append('line').attr('class', 'shadow hot').attr('x1', cx).attr('y1', cy + 6).attr('x2', sx).attr('y2', sy + 6).attr('stroke', theme.accent).attr('stroke-width', 2)
    .attr('data-tip', tips.add({ lines: [`the shadow of q_${tq} on k_${tk}: q · k / |k| = ${fmt(g.dot)} / ${fmt(g.kNorm, 2)} = ${fmt(g.shadow, 3)}`, `× |k| = ${fmt(g.shadow, 3)} · ${fmt(g.kNorm, 2)} = ${fmt(g.dot)}, the score`] }));
  arrow(g.k2, theme.heads[1 % theme.heads.length], `k_${tk}`, 'k-arrow', [`k_${tk} = [${Array.from(row(head.k, j), (v) => fmt(v)).join(', ')}], |k| = ${fmt(g.kNorm, 2)}`], true);
  arrow(g.q2, theme.heads[0], `q_${tq}`, 'q-arrow', [`q_${tq} = [${Array.from(row(head.q, i), (v) => fmt(v)).join(', ')}], |q| = ${fmt(g.qNorm, 2)}`], false);
  // θ as an arc at the origin.
  const r = Math.min(40, plane * 0.12);
  const a = (g.degrees * Math.PI) / 180;
  if (g.degrees > 0.5) {
    pg.append('path').attr('d', `M ${cx + r} ${cy} A ${r} ${r} 0 0 0 ${cx + r * Math.cos(a)} ${cy - r * Math.sin(a)}`).attr('fill', 'none').attr('stroke', theme.muted);
  }
  // The label below the k axis, left of the origin: q, its dashed drop and its label are always
  // above the axis, k and its label right of the origin, and a negative shadow runs at cy + 6, so
  // nothing crosses it there (beside the arc, the drop from a q at a small angle ran through it).
  pg.append('text').attr('class', 'theta').attr('x', cx - 6).attr('y', cy + 10 + fs).attr('text-anchor', 'end')
    .attr('fill', theme.muted).attr('font-size', fs - 1).text(`θ = ${fmt(g.degrees, 1)}°`);
  const formula = `q_${tq} · k_${tk} = |q||k| cos θ = ${fmt(g.qNorm, 2)} · ${fmt(g.kNorm, 2)} · ${g.cos.toFixed(3)} = ${fmt(g.dot)}`;
  svg.append('text').attr('class', 'formula hot').attr('x', pad).attr('y', titleH + 20 + plane + 24).attr('font-family', theme.mono)
    .attr('data-tip', tips.add({ lines: [formula, `term by term: ${Array.from(row(head.q, i), (v, t) => `${fmt(v)}·${fmt(at(head.k, j, t))}`).join(' + ')} = ${fmt(g.dot)}`] }))
    .text(clip(formula, width - 2 * pad, fs));

  // Every key: length, angle, score. The longest keys win even at the same angle.
  const tg = svg.append('g').attr('class', 'keys').attr('transform', `translate(${tableX},${tableTop})`);
  const labelW = Math.min(140, Math.max(50, maxOf(input.tokens.map((t, k) => `${k + 1}. ${t}`), (t) => textWidth(t, fs)) + 12));
  const cols = ['|k|', 'cos θ', 'θ', 'q · k', 'weight'];
  cols.forEach((c, k) => tg.append('text').attr('x', labelW + k * 64).attr('y', 0).attr('fill', theme.muted).attr('font-weight', 600).text(c));
  const focusables: { el: Element; row: number; col: number }[] = [];
  input.tokens.forEach((t, k) => {
    const y = (k + 1) * rowH + 4;
    const masked = scaledAt(head, i, k) === null;
    const gk = pairGeometry(row(head.q, i), row(head.k, k));
    // The key's name is focusable too: a keyboard user reaches the row by its name, not only its numbers.
    const keyEl = tg.append('text').attr('class', 'key hot').attr('data-token', k).attr('x', 0).attr('y', y)
      .attr('font-weight', k === j ? 700 : 400).attr('fill', masked ? theme.muted : theme.fg).text(clip(`${k + 1}. ${t}`, labelW - 6, fs))
      .attr('data-tip', tips.add({
        lines: [`${t} (token ${k + 1}): k_${t} = [${Array.from(row(head.k, k), (v) => fmt(v)).join(', ')}], |k| = ${fmt(gk.kNorm, 2)}`,
          masked ? `the mask hides it from "${tq}"` : `weight from "${tq}": ${fmt(at(head.weights, i, k), 3)}${k === j ? ', the largest: the key drawn' : ''}`,
          'click or press Enter: show it in the spec'],
        reveal: { kind: 'token', input: inputIndex, token: k },
      }));
    focusables.push({ el: keyEl.node()!, row: k + 1, col: 0 });
    const values = masked ? ['', '', '', 'masked', '0'] : [fmt(gk.kNorm, 2), gk.cos.toFixed(3), `${fmt(gk.degrees, 1)}°`, fmt(gk.dot), fmt(at(head.weights, i, k), 3)];
    values.forEach((v, c) => {
      const el = tg.append('text').attr('class', 'num hot').attr('x', labelW + c * 64).attr('y', y).attr('font-family', theme.mono).text(v)
        .attr('data-tip', tips.add({ lines: masked ? [`the mask hides "${t}" from "${tq}"`] : [`q_${tq} · k_${t} = |q||k| cos θ = ${fmt(gk.qNorm, 2)} · ${fmt(gk.kNorm, 2)} · ${gk.cos.toFixed(3)} = ${fmt(gk.dot)}`] }));
      focusables.push({ el: el.node()!, row: k + 1, col: c + 1 });
    });
  });
  // The plane's arrows, the shadow and the formula are the first row; each key is a row under it.
  Array.from(svg.node()!.querySelectorAll('g.plane .hot, text.formula')).forEach((el, c) => focusables.push({ el, row: 0, col: c }));
  focusables.sort((a, b) => a.row - b.row || a.col - b.col);
  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
