// `attn analyze FILE [--json]`: the linear algebra of the spec's heads (src/core/linalg/analyze.ts).
// --json prints the contract's shape; without it, readable lines per head.
import { HEAD_ROLES, ROLE_SYMBOL } from '../core/vocabulary.js';
import { analyzeOverLimit, analyzeSpec, type AnalyzeJson } from '../core/linalg/analyze.js';
import type { Args, Io } from './args.js';
import { readOneSpec } from './spec-input.js';
import { formatValue, table } from './table.js';
import { printable, printableJson } from './terminal.js';

export function analyzeCommand(args: Args, maxBytes: number, io: Io): number {
  const read = readOneSpec(args, maxBytes, io, 'analyze');
  if (typeof read === 'number') return read;
  const tooBig = analyzeOverLimit(read.spec);
  if (tooBig) { io.err(`attn analyze: ${tooBig}`); return 2; }
  const result = analyzeSpec(read.spec, io.helper);
  // Embeddings near the largest double make the covariance overflow: say so rather than print Infinity.
  if (!allFinite(result)) {
    io.err(`${printable(read.file)}: the numbers grow too large to analyse (a covariance or singular value overflows): use smaller embeddings or weights`);
    return 1;
  }
  io.out(args.flags.has('--json') ? printableJson(JSON.stringify(result, null, 2)) : analyzeReport(result));
  return 0;
}

/** True when every number inside a value is finite (nulls that mean "none" are fine). */
function allFinite(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(allFinite);
  if (v && typeof v === 'object') return Object.values(v).every(allFinite);
  return true;
}

// Values here span the doubles (a weight of 1e-300 has singular values of 1e-300): formatValue writes
// them with an exponent rather than as 0. The condition number is ∞ when the matrix is singular (its
// smallest singular value 0 or below the doubles' resolution relative to the largest).
const fmt = formatValue;
const list = (v: readonly number[]) => `[${v.map(fmt).join(', ')}]`;
const shape = (s: { conditionNumber: number | null; effectiveRank: number }) =>
  `condition number ${s.conditionNumber === null ? '∞ (singular)' : fmt(s.conditionNumber)}, effective rank ${fmt(s.effectiveRank)}`;
const cell = (v: number | null) => (v === null ? '—' : fmt(v));

export function analyzeReport(a: AnalyzeJson): string {
  const out: string[] = [];
  for (const h of a.heads) {
    out.push(`-- head ${printable(JSON.stringify(h.name))} --`,
      `  singular values of W_Q: ${list(h.wq.singularValues)}`, `    ${shape(h.wq)}`,
      `  singular values of W_K: ${list(h.wk.singularValues)}`, `    ${shape(h.wk)}`,
      `  singular values of W_V: ${list(h.wv.singularValues)}`, `    ${shape(h.wv)}`,
      `  singular values of W_Q·W_Kᵀ (the QK circuit): ${list(h.qk.singularValues)}`, `    ${shape(h.qk)}`);
    if (h.ov) {
      out.push(`  eigenvalues of W_V·W_O^h (the OV circuit): ${h.ov.eigenvalues.map(([re, im]) => (im === 0 ? fmt(re) : `${fmt(re)}${im < 0 ? '−' : '+'}${fmt(Math.abs(im))}i`)).join(', ')}`,
        `  copying score (trace / Σ|λ|): ${fmt(h.ov.copyingScore)}`);
    }
    out.push('');
  }
  const names = a.heads.map((h) => printable(h.name));
  for (const role of HEAD_ROLES) {
    out.push(table(`subspace overlap of the heads' ${ROLE_SYMBOL[role]} (mean cos² of the principal angles)`, names, names, a.headOverlap[role], cell), '');
  }
  for (const input of a.inputs) {
    if (!input.covariance) { out.push(`covariance of "${printable(input.name)}": fewer than 2 tokens`, ''); continue; }
    const f = input.covariance.map((_, i) => `f${i}`);
    out.push(table(`covariance of the embeddings of ${printable(JSON.stringify(input.name))} (÷ n − 1)`, f, f, input.covariance, cell));
    if (input.varianceExplained) out.push(`  variance explained by the principal components: ${list(input.varianceExplained)}`);
    for (const p of input.redundantPairs) out.push(`  redundant: f${p.a} and f${p.b} are correlated ${fmt(p.correlation)}`);
    out.push('');
  }
  return out.join('\n');
}
