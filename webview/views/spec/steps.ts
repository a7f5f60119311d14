// Step by step, for one query token of one head: q, every key k, q·k term by term, ÷ the scale,
// e^(s − max), the softmax weight, weight × v, and the sum that becomes the token's new vector.
// Every number is hoverable (and focusable) and says where it comes from.
import { at, row, scaledRow, weightColumn, column } from '../../../src/core/result/attention-data.js';
import type { AttentionData, HeadData, InputData, WeightData } from '../../../src/core/result/attention-data.js';
import { scoreText } from './matrix-text.js';
import { dotTerms, entries, factor, fmt, fmtNear, fmtWeight, largestAbs, monoWidth, textWidth, thousands, vec, clip } from '../../kit/format.js';
import { STEP_TERMS } from '../../../src/core/budget.js';
import { rovingGrid } from '../../kit/keyboard.js';
import { divisorText } from './matrix.js';
import { TipTable } from '../../kit/tips.js';
import { wireTips, type Tip } from '../../kit/tooltip.js';
import { clampIndex, createSvg, drawHeading, emptyView, layoutHeading, note, singleHead, type G, type ViewFn } from '../../kit/view.js';
import { maxOf } from '../../../src/core/linalg/extent.js';

/** Vectors longer than this are shown as their first and last entries around "…". */
const SHOW_ENTRIES = 6;
/** With more keys than this, the table lists the keys with the largest weights (in reading order). */
export const MAX_KEY_ROWS = 48;

function matrixOf(data: AttentionData, role: 'wq' | 'wk' | 'wv', head: number): WeightData | undefined {
  return data.matrices.find((m) => m.role === role && m.head === head);
}

/** Terms of a long sum a tooltip writes: the first ones, in order, and the largest of the rest. */
const FIRST_TERMS = 6, LARGEST_TERMS = 6;

/**
 * A dot product term by term for a tooltip: as dotTerms writes it up to STEP_TERMS (budget.ts);
 * past it, without writing every term, the first FIRST_TERMS, then the LARGEST_TERMS largest of
 * the rest in size (each with its place), and how many are left out.
 */
export function sumTerms(a: ArrayLike<number>, b: ArrayLike<number>, total: number): string {
  const d = a.length;
  if (d <= STEP_TERMS.max) return dotTerms(a, b, total);
  // The largest products after the first ones: a small sorted list, one comparison per term.
  const best: { t: number; size: number }[] = [];
  for (let t = FIRST_TERMS; t < d; t++) {
    const size = Math.abs(a[t] * b[t]);
    if (!(size > 0) || (best.length === LARGEST_TERMS && size <= best[best.length - 1].size)) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].size < size) at--;
    best.splice(at, 0, { t, size });
    if (best.length > LARGEST_TERMS) best.pop();
  }
  const sa = largestAbs(a), sb = largestAbs(b);
  const term = (t: number) => `${factor(a[t], 3, sa)}·${factor(b[t], 3, sb)}`;
  let size = 0;
  for (let t = 0; t < d; t++) size += Math.abs(a[t] * b[t]);
  const first = Array.from({ length: FIRST_TERMS }, (_, t) => term(t));
  const largest = best.sort((x, y) => x.t - y.t).map(({ t }) => `[${t}] ${term(t)}`);
  const left = d - FIRST_TERMS - largest.length;
  return `${[...first, `… the largest of the rest: ${largest.length ? largest.join(' + ') : 'none (all 0)'} …`].join(' + ')} = ${fmtNear(total, Math.max(size, sa * sb), d)} (${thousands(left)} of ${thousands(d)} terms left out: a tooltip writes at most ${thousands(STEP_TERMS.max)})`;
}

/** Where entry t of a projected vector comes from: "e_watch · W_Q column 1 = 1·3 + 3·1 + 0·1 = 6". */
function projectionLine(data: AttentionData, input: InputData, role: 'wq' | 'wk' | 'wv', h: number, token: number, t: number, out: number): string {
  const letter = role === 'wq' ? 'Q' : role === 'wk' ? 'K' : 'V';
  const name = `${role[1]}_${input.tokens[token]}[${t}]`;
  const m = matrixOf(data, role, h);
  if (!m || m.identity) return `${name} = e_${input.tokens[token]}[${data.features[t] ?? t}] = ${fmt(out)} (W_${letter} is the identity)`;
  const e = row(input.embeddings, token);
  const col = weightColumn(m, t);
  return `${name} = e_${input.tokens[token]} · W_${letter} column ${t} = ${sumTerms(e, col, out)}`;
}

export const renderSteps: ViewFn = (container, data, options) => {
  const theme = options.theme;
  const inputIndex = clampIndex(options.input, data.inputs.length);
  const input = data.inputs[inputIndex];
  if (!input || input.tokens.length === 0 || input.heads.length === 0) return emptyView(container, theme, options.width, 'steps', 'No tokens to draw.');
  const h = singleHead(data, options);
  const head: HeadData = input.heads[h];
  const n = input.tokens.length;
  const i = clampIndex(options.token, n);
  const tq = input.tokens[i];
  const fs = theme.fontSize;
  const mono = theme.mono;
  const tips = new TipTable();
  const notes: string[] = [];
  if (options.head === 'all' && input.heads.length > 1) notes.push(`showing head "${head.name}"; pick another head in the toolbar`);

  // Softmax pieces of the row, read back from the core's weights rather than recomputed: the core
  // subtracts the row's maximum first, so the top key has e^0 = 1 and weight 1/Σ; hence
  // Σ = 1 / (top weight) and e^(s_j − max) = weight_j × Σ. A fully masked row has all weights 0.
  const scaledI = scaledRow(head, i);
  // Scores that are rounding noise of their terms (a real head's −8.88e-16) read ≈0 in every column.
  const scoreOf = (j: number) => scoreText(head, i, j);
  const scaledOf = (j: number) => (scaledI[j] === null ? fmt(null) : scoreText(head, i, j, true));
  const unmasked = scaledI.filter((s): s is number => s !== null);
  const max = maxOf(unmasked, (s) => s);
  const topWeight = row(head.weights, i).reduce((a, w) => Math.max(a, w), 0);
  const sumEx = topWeight > 0 ? 1 / topWeight : 0;
  const ex = Array.from(row(head.weights, i), (w) => w * sumEx);
  const divText = divisorText(data, head);
  let rows = input.tokens.map((_, j) => j);
  let rest = { count: 0, weight: 0 };
  let restMasked = 0;
  if (n > MAX_KEY_ROWS) {
    // Only keys the query may look at compete for "the largest weights": a masked key's weight is 0
    // by the mask, not by comparison, and listing it among the largest said something false.
    const open = rows.filter((j) => scaledI[j] !== null);
    const keep = new Set([...open].sort((a, b) => at(head.weights, i, b) - at(head.weights, i, a) || a - b).slice(0, MAX_KEY_ROWS - 1));
    keep.add(i);
    rows = rows.filter((j) => keep.has(j));
    restMasked = n - open.length;
    rest = { count: n - rows.length, weight: row(head.weights, i).reduce((acc, w, j) => acc + (keep.has(j) ? 0 : w), 0) };
    const listed = rows.length === open.length ? `all ${rows.length} keys "${tq}" may look at` : `the ${rows.length} with the largest weights of the ${open.length} keys "${tq}" may look at`;
    notes.push(`${n} keys: the table lists ${listed}${restMasked ? `; ${restMasked} masked keys (weight 0) are left out` : ''}; the sum uses all ${n}`);
  }

  // Columns: key | k_j | q·k | ÷ s = scaled | e^(s−max) | weight | v_j | weight × v_j. Keys are
  // numbered, so a repeated word's rows can be told apart. A narrow panel drops the k and v columns
  // first (each key's hover still shows them) rather than running off the right edge.
  const cw = (s: string) => Math.max(textWidth(s, fs), monoWidth(s, fs)) + 14;
  const mw = (s: string) => monoWidth(s, fs);
  const vecW = (values: ArrayLike<number>) => {
    const v = Array.from(values);
    const shown = v.length > SHOW_ENTRIES ? [...v.slice(0, 3), ...v.slice(-2)] : v;
    return shown.reduce((s, x) => s + mw(fmt(x, 3)) + mw(', '), 0) + (v.length > SHOW_ENTRIES ? mw('…, ') : 0) + mw('[]') + 12;
  };
  const weighted = Array.from({ length: head.v.rows }, (_, j) => row(head.v, j).map((x) => at(head.weights, i, j) * x));
  const keyLabel = (j: number) => `${j + 1}. ${input.tokens[j]}`;
  const allCols = [
    { key: 'key', title: 'key', w: Math.min(160, Math.max(60, maxOf(rows, (j) => cw(keyLabel(j))))) },
    { key: 'k', title: 'k (key vector)', w: Math.max(cw('k (key vector)'), maxOf(rows, (j) => vecW(row(head.k, j)))) },
    { key: 'score', title: 'q · k', w: Math.max(cw('q · k'), maxOf(rows, (j) => cw(scoreOf(j)))) },
    { key: 'scaled', title: `÷ ${divText}`, w: Math.max(cw(`÷ ${divText}`), maxOf(rows, (j) => cw(scaledOf(j)))) },
    { key: 'exp', title: 'e^(s − max)', w: Math.max(cw('e^(s − max)'), maxOf(rows, (j) => cw(fmt(ex[j], 4)))) },
    { key: 'weight', title: 'softmax', w: Math.max(cw('softmax'), maxOf(rows, (j) => cw(fmtWeight(at(head.weights, i, j), 4)))) },
    { key: 'v', title: 'v (value vector)', w: Math.max(cw('v (value vector)'), maxOf(rows, (j) => vecW(row(head.v, j)))) },
    { key: 'wv', title: 'weight × v', w: Math.max(cw('weight × v'), maxOf(rows, (j) => vecW(weighted[j]))) },
  ];
  const pad = 10;
  const widthOf = (cs: readonly { w: number }[]) => cs.reduce((s, c) => s + c.w + 8, 2 * pad);
  let cols = allCols;
  const dropped: string[] = [];
  for (const drop of ['k', 'v', 'exp', 'wv']) {
    if (widthOf(cols) <= Math.max(options.width, 320)) break;
    cols = cols.filter((c) => c.key !== drop);
    dropped.push(drop === 'exp' ? 'e^(s − max)' : drop === 'wv' ? 'weight × v' : drop);
  }
  if (dropped.length) notes.push(`narrow panel: ${dropped.join(', ')} left out of the table (hover or focus a key to see its k and v); widen the panel to see every column`);
  const colX = new Map<string, number>();
  const colW = new Map<string, number>();
  let x = pad;
  for (const c of cols) { colX.set(c.key, x); colW.set(c.key, c.w); x += c.w + 8; }
  const X = (key: string) => colX.get(key) ?? -1;
  const tableW = x + pad;
  const width = Math.max(options.width, tableW);
  const rowH = fs + 12;
  // The title and the plan wrap onto more lines in a narrow panel (what still cannot fit is in their hover).
  const titleText = `How "${tq}" attends: head "${head.name}" of "${input.name}"`;
  const heading = layoutHeading(titleText, width - 2 * pad, fs);
  const planText = `2. compare q with every key: q · k, ÷ ${divText}, softmax. 3. mix the values v by the weights.`;
  const plan = layoutHeading(planText, width - 2 * pad, fs, false);
  const titleH = 24 + heading.extra + notes.length * 16;
  const qY = titleH + 22;
  // q goes under its label too when beside it it would run past the edge (seed-projection's q at 430 px).
  const qLabel = `1. q_${tq} =`;
  const qBeside = pad + textWidth(qLabel, fs) + 10 + vecW(row(head.q, i)) <= width - pad;
  const qExtra = qBeside ? 0 : rowH;
  const headY = qY + 52 + plan.extra + qExtra;
  const bodyY = headY + rowH;
  const tableRows = rows.length + (rest.count ? 1 : 0);
  const sumY = bodyY + tableRows * rowH + 20;
  // The new vector goes under its label when beside it it would run past the picture's edge.
  const sumLabel = `4. new ${tq} = Σ weight × v =`;
  const sumBeside = pad + textWidth(sumLabel, fs) + 14 + vecW(row(head.output, i)) <= width - pad;
  const sumExtra = sumBeside ? 0 : rowH;
  const height = sumY + 3 * rowH + 10 + sumExtra;
  const svg = createSvg(container, theme, width, height, `Step by step: how "${tq}" attends, head "${head.name}"`, 'steps');
  drawHeading(svg, 'title', pad, 16, heading, titleText);
  notes.forEach((t, k) => note(svg, theme, pad, 34 + heading.extra + k * 16, t));

  const focusables: { el: Element; row: number; col: number }[] = [];
  const perRow = new Map<number, number>();
  // The arrow keys move along a row in reading order and up and down between rows.
  const num = (g: G, px: number, py: number, text: string, tip: Tip, gridRow: number, fill = theme.fg, weight = 400) => {
    const col = perRow.get(gridRow) ?? 0;
    perRow.set(gridRow, col + 1);
    const t = g.append('text').attr('class', 'num hot').attr('x', px).attr('y', py).attr('font-family', mono)
      .attr('fill', fill).attr('font-weight', weight).attr('data-tip', tips.add(tip)).text(text);
    focusables.push({ el: t.node()!, row: gridRow, col });
    return t;
  };
  /** A vector as [a, b, …] with every entry its own hoverable number. */
  const vector = (g: G, px: number, py: number, v: ArrayLike<number>, tipOf: (t: number) => Tip, gridRow: number, fill = theme.fg) => {
    const idx = v.length > SHOW_ENTRIES ? [0, 1, 2, -1, v.length - 2, v.length - 1] : Array.from(v, (_, t) => t);
    g.append('text').attr('x', px).attr('y', py).attr('fill', theme.muted).attr('font-family', mono).text('[');
    let cx = px + mw('[');
    const shown = entries(v);
    idx.forEach((t, k) => {
      const s = t === -1 ? '…' : shown[t];
      if (t === -1) num(g, cx, py, s, { lines: [`all ${v.length} entries: ${vec(v, 64)}`] }, gridRow, theme.muted);
      else num(g, cx, py, s, tipOf(t), gridRow, fill);
      cx += mw(s);
      if (k < idx.length - 1) {
        g.append('text').attr('x', cx).attr('y', py).attr('fill', theme.muted).attr('font-family', mono).text(',');
        cx += mw(', ');
      }
    });
    g.append('text').attr('x', cx).attr('y', py).attr('fill', theme.muted).attr('font-family', mono).text(']');
    return cx + mw(']');
  };

  // 1. The query vector.
  const qG = svg.append('g').attr('class', 'query');
  qG.append('text').attr('x', pad).attr('y', qY).text(qLabel);
  const qx = qBeside ? pad + textWidth(qLabel, fs) + 10 : pad + 20;
  const qEnd = vector(qG as unknown as G, qx, qY + qExtra, row(head.q, i), (t) => ({ lines: [projectionLine(data, input, 'wq', h, i, t, at(head.q, i, t))] }), 0, theme.accent);
  void qEnd;
  // The plan on its own line, clipped to the panel: beside q it ran off the right edge.
  drawHeading(qG as unknown as G, 'plan', pad, qY + 22 + qExtra, plan, planText);
  qG.select('text.plan').attr('fill', theme.muted).attr('font-weight', 400);

  // 2. The table, one row per key.
  const table = svg.append('g').attr('class', 'table') as unknown as G;
  cols.forEach((c) => table.append('text').attr('x', X(c.key)).attr('y', headY).attr('font-weight', 600).attr('fill', theme.muted).text(c.title));
  table.append('line').attr('x1', pad).attr('x2', tableW - pad).attr('y1', headY + 6).attr('y2', headY + 6).attr('stroke', theme.grid);
  rows.forEach((j, rowIndex) => {
    const y = bodyY + rowIndex * rowH + fs;
    const masked = scaledI[j] === null;
    const r = table.append('g').attr('class', masked ? 'key-row masked' : 'key-row').attr('data-key', j) as unknown as G;
    if (j === i) r.append('rect').attr('x', pad - 4).attr('y', y - fs - 2).attr('width', tableW - 2 * pad + 8).attr('height', rowH - 2)
      .attr('fill', theme.grid).attr('fill-opacity', 0.35);
    const tk = input.tokens[j];
    const tokTip: Tip = {
      lines: [`${tk} (token ${j + 1}): click or press Enter to follow it`, `k_${tk} = ${vec(row(head.k, j))}`, `v_${tk} = ${vec(row(head.v, j))}`],
      reveal: { kind: 'token', input: inputIndex, token: j }, click: () => options.onPick?.({ token: j }),
    };
    r.append('text').attr('class', 'token hot').attr('data-token', j).attr('x', X('key')).attr('y', y).attr('data-tip', tips.add(tokTip))
      .attr('fill', masked ? theme.muted : theme.fg).attr('cursor', 'pointer').text(clip(keyLabel(j), colW.get('key')! - 8, fs));
    if (colX.has('k')) vector(r, X('k'), y, row(head.k, j), (t) => ({ lines: [projectionLine(data, input, 'wk', h, j, t, at(head.k, j, t))] }), j + 1, masked ? theme.muted : theme.fg);
    if (masked) {
      const why = `masked: "${tq}" may not look at "${tk}" (weight 0)`;
      const shown = clip(why, tableW - pad - X('score'), fs);
      const t = r.append('text').attr('x', X('score')).attr('y', y).attr('fill', theme.muted).attr('font-style', 'italic').text(shown);
      if (shown !== why) t.append('title').text(why);
      return;
    }
    num(r, X('score'), y, scoreOf(j), { lines: [`q_${tq} · k_${tk} = ${sumTerms(row(head.q, i), row(head.k, j), at(head.scores, i, j))}`] }, j + 1);
    num(r, X('scaled'), y, scaledOf(j), { lines: [`${scoreOf(j)} ÷ ${divText} = ${scaledOf(j)}`, 'scaling keeps softmax from getting too sharp as d_k grows'] }, j + 1);
    if (colX.has('exp')) num(r, X('exp'), y, fmt(ex[j], 4), { lines: [`e^(${scaledOf(j)} − ${fmt(max)}) = ${fmt(ex[j], 4)}`, 'the row maximum is subtracted first, so nothing overflows'] }, j + 1);
    const wTip = { lines: [`weight = ${fmt(ex[j], 4)} ÷ ${fmt(sumEx, 4)} = ${fmtWeight(at(head.weights, i, j), 4)}`, `how much "${tq}" takes from "${tk}"; the row sums to 1`] };
    num(r, X('weight'), y, fmtWeight(at(head.weights, i, j), 4), wTip, j + 1, theme.fg, 600);
    const bar = Math.max(0, Math.min(1, at(head.weights, i, j))) * (colW.get('weight')! - 10);
    r.append('rect').attr('x', X('weight')).attr('y', y + 3).attr('width', bar).attr('height', 3).attr('fill', theme.heads[h % theme.heads.length]);
    if (colX.has('v')) vector(r, X('v'), y, row(head.v, j), (t) => ({ lines: [projectionLine(data, input, 'wv', h, j, t, at(head.v, j, t))] }), j + 1);
    if (colX.has('wv')) vector(r, X('wv'), y, weighted[j], (t) => ({ lines: [`${fmt(at(head.weights, i, j), 4)} × v_${tk}[${t}] = ${factor(at(head.weights, i, j), 4)}·${factor(at(head.v, j, t))} = ${fmt(weighted[j][t], 4)}`] }), j + 1);
  });
  if (rest.count) {
    const unlisted = rest.count - restMasked;
    const restText = unlisted === 0 ? `(${restMasked} masked keys, weight 0)`
      : `(${unlisted} other keys, weight ${fmt(rest.weight, 4)} together${restMasked ? `; ${restMasked} masked keys, weight 0` : ''})`;
    const shown = clip(restText, tableW - pad - X('key'), fs);
    const t = table.append('text').attr('x', X('key')).attr('y', bodyY + rows.length * rowH + fs).attr('fill', theme.muted).attr('font-style', 'italic').text(shown);
    if (shown !== restText) t.append('title').text(restText);
  }
  // Σ is the total of the e^(s − max) column: it goes where that column goes. Under the softmax
  // column it read as the weights' sum ("Σ = 2.66"); the weights always sum to 1.
  if (colX.has('exp')) {
    table.append('text').attr('class', 'exp-sum').attr('x', X('exp')).attr('y', bodyY + tableRows * rowH + 8).attr('fill', theme.muted).attr('font-family', mono)
      .text(`Σ = ${fmt(sumEx, 4)}`);
  }

  // 3. The sum: the new vector of the query token.
  const sG = svg.append('g').attr('class', 'sum') as unknown as G;
  const label = sumLabel;
  sG.append('text').attr('x', pad).attr('y', sumY + fs).attr('font-weight', 600).text(label);
  vector(sG, sumBeside ? pad + textWidth(label, fs) + 14 : pad + 20, sumY + fs + sumExtra, row(head.output, i), (t) => ({
    lines: [`new ${tq}[${t}] = ${sumTerms(row(head.weights, i), column(head.v, t), at(head.output, i, t))}`,
      'the weighted values added up: this is what the head hands on'],
  }), n + 2, theme.accent);
  if (row(head.output, i).length === row(input.embeddings, i).length) {
    const l2 = `was e_${tq} =`;
    sG.append('text').attr('x', pad + 20).attr('y', sumY + fs + rowH + sumExtra).attr('fill', theme.muted).text(l2);
    vector(sG, pad + 20 + textWidth(l2, fs) + 14, sumY + fs + rowH + sumExtra, row(input.embeddings, i), (t) => ({
      lines: [`e_${tq}[${data.features[t] ?? t}] = ${fmt(at(input.embeddings, i, t))} (the input embedding)`],
    }), n + 3, theme.muted);
  } else {
    const wide = `(${row(head.output, i).length} wide: d_v of this head; the embedding has d_model = ${data.dModel})`;
    const lines = layoutHeading(wide, width - 2 * pad - 20, fs, false);
    drawHeading(sG, 'dv-note', pad + 20, sumY + fs + rowH + sumExtra, lines, wide);
    sG.select('text.dv-note').attr('fill', theme.muted).attr('font-weight', 400);
  }

  const svgNode = svg.node()!;
  const cleanups = [wireTips(svgNode, options, '.hot', (el) => tips.get(el))];
  if (options.interactive) cleanups.push(rovingGrid(svgNode, focusables));
  return { svg: svgNode, notes, destroy: () => { cleanups.forEach((f) => f()); svg.remove(); } };
};
