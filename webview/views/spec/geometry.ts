// Geometry: a score is a projection. For the chosen query, the plane spanned by its q and one key's
// k, drawn exactly: both arrows, the angle θ between them, and the shadow of q on k, whose length
// times |k| is the score. Beside it, every key: |k|, cos θ, θ, q · k, weight, so a reader sees that
// a dot product rewards length as well as direction. The key drawn is the strongest at first; the
// learner picks another by clicking its row, with the ‹ › buttons, or with Enter on its row (the
// seed's watch · watch = 64 beside watch · apple = 136). The arrows' click shows a token in the spec.
// Past MAX_KEY_ROWS keys (a lens's 2,048) the table lists the strongest and the key drawn, said in
// one line; ‹ › still step through every key.
import { at, row, scaledAt } from '../../../src/core/result/attention-data.js';
import { degreesText, pairGeometry } from '../../../src/core/linalg/geometry.js';
import { maxOf } from '../../../src/core/linalg/extent.js';
import { clip, entries, fmt, fmtDecimals, fmtNear, fmtWeight, monoWidth, textWidth } from '../../kit/format.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips } from '../../kit/tooltip.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { clampIndex, createSvg, drawHeading, emptyView, fitText, layoutHeading, note, singleHead, type ViewFn } from '../../kit/view.js';
import { listedKeys, listedNote, MAX_KEY_ROWS } from './long-input.js';

/** The key the query attends to most (ties: the first); -1 when every key is masked. */
export function strongestKey(weights: ArrayLike<number>, visible: (k: number) => boolean): number {
  let j = -1;
  for (let k = 0; k < weights.length; k++) if (visible(k) && (j < 0 || weights[k] > weights[j])) j = k;
  return j;
}

/**
 * The formula on as few lines as fit `px` (monospace): whole, or cut after "cos θ" with the
 * numbers on a second line, or the score on a third line of its own; a line still too wide is
 * clipped (the hover has it whole).
 */
export function formulaLines(lhs: string, rhs: string, px: number, fs: number): string[] {
  const whole = `${lhs} = ${rhs}`;
  if (monoWidth(whole, fs) <= px) return [whole];
  const fits = (s: string) => monoWidth(s, fs) <= px;
  const fit = (s: string) => (fits(s) ? s : `${Array.from(s).slice(0, Math.max(1, Math.floor(px / (0.6 * fs)) - 1)).join('')}…`);
  const last = rhs.lastIndexOf(' = ');
  if (fits(`  = ${rhs}`) || last < 0) return [fit(lhs), fit(`  = ${rhs}`)];
  return [fit(lhs), fit(`  = ${rhs.slice(0, last)}`), fit(`  = ${rhs.slice(last + 3)}`)];
}

/**
 * q · k as text, "≈0" when it is rounding noise next to |q||k| (at least the sum of its terms'
 * sizes): a real head's orthogonal pair gave −8.88e-16.
 */
function dotText(g: { dot: number; qNorm: number; kNorm: number }, terms: number): string {
  return fmtNear(g.dot, g.qNorm * g.kNorm, terms);
}

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
  const visible = (k: number) => scaledAt(head, i, k) !== null;
  const strongest = strongestKey(row(head.weights, i), visible);
  if (strongest < 0) return emptyView(container, theme, options.width, 'geometry', `Every key is masked for "${tq}": there is no score to draw.`);
  const width = Math.max(options.width, 320);
  const plane = Math.max(220, Math.min(380, width - 2 * pad));
  const side = width - 2 * pad >= plane + 320 ? 'beside' : 'below';
  const rowH = fs + 10;
  const svg = createSvg(container, theme, width, 100, `Geometry of q_${tq} · k`, 'geometry');
  const svgNode = svg.node()!;
  let tips = new TipTable();
  let gridCleanup = () => {};
  let key = strongest;

  // The table's columns, each as wide as its widest number (a θ of 8.54e-7° ran into the next column).
  const labels = input.tokens.map((t, k) => `${k + 1}. ${t}`);
  const labelW = Math.min(140, Math.max(50, maxOf(labels, (t) => textWidth(t, fs)) + 12));
  const geo = input.tokens.map((_, k) => pairGeometry(row(head.q, i), row(head.k, k)));
  const cells = input.tokens.map((_, k) => (visible(k)
    ? [fmt(geo[k].kNorm, 2), fmtDecimals(geo[k].cos, 3), degreesText(geo[k].degrees), dotText(geo[k], head.dk), fmtWeight(at(head.weights, i, k), 3)]
    : ['', '', '', 'masked', '0']));
  const cols = ['|k|', 'cos θ', 'θ', 'q · k', 'weight'];
  const colW = cols.map((c, ci) => Math.max(textWidth(c, fs) * 1.1, maxOf(cells, (r) => monoWidth(r[ci], fs))) + 14);

  const fixedNotes = notes.length;
  const weightOf = (k: number) => at(head.weights, i, k);
  const paint = (focusRow?: { row: number; col: number }) => {
    for (const c of Array.from(svgNode.children)) if (!c.classList.contains('bg')) c.remove();
    tips = new TipTable();
    gridCleanup();
    const j = key;
    // The table's keys: all of them, or past MAX_KEY_ROWS the strongest and the one drawn (said).
    const listed = listedKeys(n, weightOf, visible, [j]);
    notes.length = fixedNotes;
    if (n > MAX_KEY_ROWS) {
      const kept = new Set(listed);
      let rest = 0, open = 0;
      for (let k = 0; k < n; k++) if (visible(k)) { open++; if (!kept.has(k)) rest += weightOf(k); }
      notes.push(`${listedNote(n, listed.length, open, rest, `"${tq}"`)}; ‹ key › steps through all of them`);
    }
    const tk = input.tokens[j];
    const g = geo[j];
    const titleText = `q · k = |q| |k| cos θ: "${tq}" and "${tk}" in head "${head.name}"`;
    const title = layoutHeading(titleText, width - 2 * pad, fs, true, 3);
    svg.attr('aria-label', `Geometry of q_${tq} · k_${tk}`);
    drawHeading(svg, 'title', pad, 16, title, titleText);
    notes.forEach((s, k) => note(svg, theme, pad, 34 + title.extra + k * 16, s));
    const controlsH = options.interactive ? 30 : 0;
    const titleH = 24 + title.extra + notes.length * 16 + controlsH;
    const lhs = `q_${tq} · k_${tk} = |q||k| cos θ`;
    const rhs = `${fmt(g.qNorm, 2)} · ${fmt(g.kNorm, 2)} · ${fmtDecimals(g.cos, 3)} = ${dotText(g, head.dk)}`;
    // A table beside the plane long enough to reach the formula's line keeps the formula to the
    // plane's side (long-64's ran under "17. warm" at 1,200 px); a short table leaves it the width.
    const formulaY = titleH + 20 + plane + 24;
    const besideTableReaches = side === 'beside' && titleH + 20 + listed.length * rowH + 8 >= formulaY - fs;
    const formula = formulaLines(lhs, rhs, besideTableReaches ? plane + 22 : width - 2 * pad, fs);
    const formulaH = formula.length * (fs + 6);
    const tableX = side === 'beside' ? pad + plane + 30 : pad;
    const tableTop = side === 'beside' ? titleH + 20 : titleH + plane + 50 + formulaH;
    const height = Math.max(titleH + plane + 50 + formulaH, tableTop + (listed.length + 2) * rowH + 20);
    svg.attr('height', Math.ceil(height)).attr('viewBox', `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`);
    const focusables: { el: Element; row: number; col: number }[] = [];

    // The key drawn, and (in the panel) the buttons that change it.
    const pick = (k: number, from?: { row: number; col: number }) => {
      if (k === key || !visible(k)) return;
      key = k;
      paint(from);
    };
    const visibleKeys = input.tokens.map((_, k) => k).filter(visible);
    const step = (by: number) => visibleKeys[(visibleKeys.indexOf(key) + by + visibleKeys.length) % visibleKeys.length];
    if (options.interactive) {
      const controls = svg.append('g').attr('class', 'key-controls').attr('transform', `translate(${pad},${24 + title.extra + notes.length * 16})`);
      let x = 0;
      const button = (label: string, what: string, to: () => number, col: number) => {
        const w = textWidth(label, fs) + 18;
        const b = controls.append('g').attr('class', 'control hot').attr('role', 'button').attr('aria-label', what)
          .attr('data-control', col === 0 ? 'previous-key' : 'next-key').attr('transform', `translate(${x},0)`).attr('cursor', 'pointer')
          .attr('data-tip', tips.add({ lines: [what, 'or click a key\'s row in the table'], click: () => pick(to(), { row: 0, col }) }));
        b.append('rect').attr('width', w).attr('height', 22).attr('rx', 4).attr('fill', theme.bg).attr('stroke', theme.fg);
        b.append('text').attr('x', w / 2).attr('y', 15).attr('text-anchor', 'middle').text(label);
        focusables.push({ el: b.node()!, row: 0, col });
        x += w + 6;
      };
      button('‹ key', 'draw the previous key', () => step(-1), 0);
      button('key ›', 'draw the next key', () => step(1), 1);
      fitText(controls.append('text').attr('class', 'key-drawn').attr('x', x + 4).attr('y', 15).attr('fill', theme.muted),
        `drawing k_${tk}${j === strongest ? ', the strongest key' : ''}`, width - 2 * pad - x - 4, fs);
    }

    // The plane: k along x, q above it; one scale for both arrows so lengths compare.
    const cx = pad + plane / 2, cy = titleH + 20 + plane * 0.62;
    const reach = Math.max(1e-12, g.qNorm, g.kNorm);
    const unit = (plane * 0.42) / reach;
    const P = (v: [number, number]): [number, number] => [cx + v[0] * unit, cy - v[1] * unit];
    const pg = svg.append('g').attr('class', 'plane');
    pg.append('line').attr('x1', pad).attr('x2', pad + plane).attr('y1', cy).attr('y2', cy).attr('stroke', theme.grid);
    pg.append('line').attr('x1', cx).attr('x2', cx).attr('y1', titleH + 20).attr('y2', titleH + 20 + plane).attr('stroke', theme.grid);
    // q's label above its tip, k's below: when q lies along k (the seed's q_watch = k_apple) both stay
    // readable; a label that would leave the picture is drawn left of its tip instead.
    // When q lies along k (θ = 0, the seed's q_watch and k_apple), one line would hide the other: q
    // is then drawn first and wide, k on top and narrow, so both colours show along the shared line.
    const along = Math.min(g.qNorm, g.kNorm) * unit * Math.sin((Math.min(90, g.degrees) * Math.PI) / 180) < 5;
    const arrow = (to: [number, number], colour: string, label: string, cls: string, tip: string[], below: boolean, token: number, wide = false) => {
      const [x, y] = P(to);
      pg.append('line').attr('class', `${cls} hot`).attr('x1', cx).attr('y1', cy).attr('x2', x).attr('y2', y).attr('stroke', colour).attr('stroke-width', wide ? 8 : 3)
        .attr('data-tip', tips.add({ lines: [...tip, `click or press Enter: show "${input.tokens[token]}" in the spec`], reveal: { kind: 'token', input: inputIndex, token } }));
      pg.append('circle').attr('cx', x).attr('cy', y).attr('r', wide ? 6 : 4).attr('fill', colour);
      const lw = textWidth(label, fs) * 1.1;
      const right = x + 6 + lw <= width - 4;
      pg.append('text').attr('x', right ? x + 6 : x - 6).attr('text-anchor', right ? 'start' : 'end').attr('y', below ? y + 16 : y - 6)
        .attr('fill', colour).attr('font-weight', 600).text(label);
    };
    // The shadow of q on k: dashed from q's tip down to k's line, and along k to its foot.
    const shadowText = fmtNear(g.shadow, g.qNorm, head.dk, 3);
    const [sx, sy] = P([g.shadow, 0]);
    const [qx, qy] = P(g.q2);
    pg.append('line').attr('x1', qx).attr('y1', qy).attr('x2', sx).attr('y2', sy).attr('stroke', theme.muted).attr('stroke-dasharray', '4 3');
    const drop = along ? 9 : 6;
    pg.append('line').attr('class', 'shadow hot').attr('x1', cx).attr('y1', cy + drop).attr('x2', sx).attr('y2', sy + drop).attr('stroke', theme.accent).attr('stroke-width', 2)
      .attr('data-tip', tips.add({ lines: [`the shadow of q_${tq} on k_${tk}: q · k / |k| = ${dotText(g, head.dk)} / ${fmt(g.kNorm, 2)} = ${shadowText}`, `× |k| = ${shadowText} · ${fmt(g.kNorm, 2)} = ${dotText(g, head.dk)}, the score`] }));
    const drawK = () => arrow(g.k2, theme.heads[1 % theme.heads.length], `k_${tk}`, 'k-arrow', [`k_${tk} = [${entries(row(head.k, j)).join(', ')}], |k| = ${fmt(g.kNorm, 2)}`], true, j);
    const drawQ = () => arrow(g.q2, theme.heads[0], `q_${tq}`, 'q-arrow', [`q_${tq} = [${entries(row(head.q, i)).join(', ')}], |q| = ${fmt(g.qNorm, 2)}`], false, i, along);
    if (along) { drawQ(); drawK(); } else { drawK(); drawQ(); }
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
      .attr('fill', theme.muted).attr('font-size', fs - 1).text(`θ = ${degreesText(g.degrees)}`);
    const f = svg.append('text').attr('class', 'formula hot').attr('x', pad).attr('y', formulaY).attr('font-family', theme.mono)
      .attr('data-tip', tips.add({ lines: [`${lhs} = ${rhs}`, `term by term: ${((qs, ks) => qs.map((v, t) => `${v}·${ks[t]}`))(entries(row(head.q, i)), entries(row(head.k, j))).join(' + ')} = ${dotText(g, head.dk)}`] }));
    if (formula.length === 1) f.text(formula[0]);
    else formula.forEach((line, k) => f.append('tspan').attr('x', pad).attr('dy', k === 0 ? 0 : fs + 6).text(line));

    // Every key: length, angle, score. The longest keys win even at the same angle.
    const tg = svg.append('g').attr('class', 'keys').attr('transform', `translate(${tableX},${tableTop})`);
    const colX = colW.map((_, c) => labelW + colW.slice(0, c).reduce((s, w) => s + w, 0));
    cols.forEach((c, k) => tg.append('text').attr('x', colX[k]).attr('y', 0).attr('fill', theme.muted).attr('font-weight', 600).text(c));
    listed.forEach((k, r) => {
      const t = input.tokens[k];
      const y = (r + 1) * rowH + 4;
      const masked = !visible(k);
      const gk = geo[k];
      const drawn = k === j;
      if (drawn) tg.append('rect').attr('class', 'drawn-row').attr('x', -4).attr('y', y - fs - 2).attr('width', colX[4] + colW[4]).attr('height', rowH - 2).attr('rx', 3)
        .attr('fill', 'none').attr('stroke', theme.accent);
      const pickLine = masked ? 'masked: there is no score to draw' : drawn ? 'the key drawn' : 'click or press Enter: draw this key';
      // The key's name is focusable too: a keyboard user reaches the row by its name, not only its numbers.
      const keyEl = tg.append('text').attr('class', 'key hot').attr('data-token', k).attr('x', 0).attr('y', y).attr('cursor', masked ? 'default' : 'pointer')
        .attr('font-weight', drawn ? 700 : 400).attr('fill', masked ? theme.muted : theme.fg).text(clip(labels[k], labelW - 6, fs))
        .attr('data-tip', tips.add({
          lines: [`${t} (token ${k + 1}): k_${t} = [${entries(row(head.k, k)).join(', ')}], |k| = ${fmt(gk.kNorm, 2)}`,
            masked ? `the mask hides it from "${tq}"` : `weight from "${tq}": ${fmt(at(head.weights, i, k), 3)}${k === strongest ? ', the largest' : ''}`,
            pickLine, 'to show a token in the spec: its arrow in the plane, click or press Enter on it'],
          click: () => pick(k, { row: r + 2, col: 0 }),
        }));
      if (drawn) keyEl.attr('aria-current', 'true');
      focusables.push({ el: keyEl.node()!, row: r + 2, col: 0 });
      cells[k].forEach((v, c) => {
        const el = tg.append('text').attr('class', 'num hot').attr('x', colX[c]).attr('y', y).attr('font-family', theme.mono).attr('cursor', masked ? 'default' : 'pointer').text(v)
          .attr('data-tip', tips.add({
            lines: masked ? [`the mask hides "${t}" from "${tq}"`] : [`q_${tq} · k_${t} = |q||k| cos θ = ${fmt(gk.qNorm, 2)} · ${fmt(gk.kNorm, 2)} · ${fmtDecimals(gk.cos, 3)} = ${dotText(gk, head.dk)}`, `θ = ${degreesText(gk.degrees)}; ${pickLine}`],
            click: () => pick(k, { row: r + 2, col: c + 1 }),
          }));
        focusables.push({ el: el.node()!, row: r + 2, col: c + 1 });
      });
    });
    // The plane's arrows, the shadow and the formula are a row; each key is a row under it.
    Array.from(svgNode.querySelectorAll('g.plane .hot, text.formula')).forEach((el, c) => focusables.push({ el, row: 1, col: c }));
    focusables.sort((a, b) => a.row - b.row || a.col - b.col);
    if (options.interactive) {
      const start = focusRow ? Math.max(0, focusables.findIndex((x) => x.row === focusRow.row && x.col === focusRow.col)) : 0;
      gridCleanup = rovingGrid(svgNode, focusables, start);
      if (focusRow) (focusables[start].el as unknown as HTMLElement).focus?.();
    }
  };

  paint();
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  return { svg: svgNode, notes, destroy: () => { gridCleanup(); cleanups.forEach((f) => f()); svg.remove(); } };
};
