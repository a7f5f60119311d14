// The words of the matrix view: the hover text of a cell (the dot product term by term, the
// scaling, the weight, and with W_O the weight times ‖v W_O‖), of a block of cells, and the value
// a cell is coloured by in each mode.
import { at, isMasked, row, scaledAt, type AttentionData, type HeadData, type InputData } from '../../../src/core/result/attention-data.js';
import { degreesText, pairGeometry } from '../../../src/core/linalg/geometry.js';
import type { MatrixMode } from '../../../src/core/vocabulary.js';
import { dotTerms, fmt, fmtDecimals, fmtNear, fmtWeight, largestAbs } from '../../kit/format.js';

export function divisorText(data: AttentionData, head: HeadData): string {
  if (data.scale === 'sqrt_dk') return `√${head.dk} ≈ ${fmt(head.divisor)}`;
  if (data.scale === 'none') return '1 (no scaling)';
  return fmt(head.divisor);
}

export function value(head: HeadData, mode: MatrixMode, i: number, j: number): number | null {
  if (isMasked(head, i, j)) return null;
  if (mode === 'cosine') return pairGeometry(row(head.q, i), row(head.k, j)).cos;
  // Without W_O a head has no norms: no value (the view says why before it draws a cell).
  if (mode === 'norms') return head.norms ? at(head.norms, i, j) : null;
  return mode === 'weights' ? at(head.weights, i, j) : mode === 'scaled' ? scaledAt(head, i, j) : at(head.scores, i, j);
}

/**
 * The score q_i · k_j (or, `scaled`, ÷ the divisor) as text, "≈0" when it is rounding noise of its
 * terms: a real head's −8.88e-16 from terms of size 10 (−1.57e-16 after scaling) is a 0 that
 * floating point could not hit exactly.
 */
export function scoreText(head: HeadData, i: number, j: number, scaled = false): string {
  const q = row(head.q, i), k = row(head.k, j);
  let size = 0;
  for (let t = 0; t < q.length; t++) size += Math.abs(q[t] * k[t]);
  size = Math.max(size, largestAbs(q) * largestAbs(k));
  const v = at(head.scores, i, j);
  return scaled ? fmtNear(v / head.divisor, size / head.divisor, q.length) : fmtNear(v, size, q.length);
}

/** The hover text of one cell, also the <title> of the cell in `attn render`. */
export function cellLines(data: AttentionData, input: InputData, h: number, i: number, j: number): string[] {
  const head = input.heads[h];
  const tq = input.tokens[i], tk = input.tokens[j];
  const lines = [`${tq} → ${tk} (query ${i + 1}, key ${j + 1}) · head "${head.name}"`];
  if (isMasked(head, i, j)) {
    lines.push(`masked: "${tq}" may not attend to "${tk}", weight 0`);
    return lines;
  }
  const q = row(head.q, i), k = row(head.k, j);
  lines.push(`q_${tq} · k_${tk} = ${dotTerms(q, k, at(head.scores, i, j))}`);
  const g = pairGeometry(q, k);
  lines.push(`= |q||k| cos θ = ${fmt(g.qNorm, 2)} · ${fmt(g.kNorm, 2)} · ${fmtDecimals(g.cos, 3)} (θ = ${degreesText(g.degrees)})`);
  lines.push(`scaled: ${scoreText(head, i, j)} ÷ ${divisorText(data, head)} = ${scoreText(head, i, j, true)}`);
  lines.push(`weight: ${fmtWeight(at(head.weights, i, j), 4)} (softmax of row "${tq}")`);
  const norms = normsLine(head, i, j);
  if (norms) lines.push(norms);
  return lines;
}

/**
 * The value-weighted norm of a cell written out as its product, α_ij × ‖v_j W_O^h‖ = norms_ij
 * ("value-weighted: α 0.91 × ‖v W_O‖ 3.2 = 2.912"); undefined for a head without W_O.
 */
export function normsLine(head: HeadData, i: number, j: number): string | undefined {
  if (!head.valueNorms || !head.norms) return undefined;
  return `value-weighted: α ${fmtWeight(at(head.weights, i, j), 4)} × ‖v W_O‖ ${fmt(head.valueNorms.data[j], 3)} = ${fmt(at(head.norms, i, j), 3)}`;
}

/** The hover line of a block of cells: its mean, or why it has none. */
export function blockMeanText(what: string, mean: number | null): string {
  return mean === null ? `mean ${what}: none, the mask hides every pair in this block` : `mean ${what}: ${fmt(mean)}`;
}

/** The mean over a block's unmasked pairs; null when the mask hides every pair of the block. */
export function meanBlock(head: HeadData, mode: MatrixMode, i: number, j: number, stride: number, n: number): number | null {
  let sum = 0, cnt = 0;
  for (let a = i; a < Math.min(n, i + stride); a++) for (let b = j; b < Math.min(n, j + stride); b++) {
    const x = value(head, mode, a, b);
    if (x !== null) { sum += x; cnt++; }
  }
  return cnt ? sum / cnt : null;
}
