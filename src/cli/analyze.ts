// `attn analyze FILE [--json]`: the linear algebra of the spec's heads (src/core/linalg/analyze.ts).
// --json prints the contract's shape; without it, readable lines per head.
import { ROLE_SYMBOL } from '../vocabulary.js';
import type { AnalyzeJson } from '../core/linalg/analyze.js';
import { formatNumber, table } from './table.js';
import { printable } from './terminal.js';

const list = (v: readonly number[]) => `[${v.map((x) => formatNumber(x)).join(', ')}]`;

export function analyzeReport(a: AnalyzeJson): string {
  const out: string[] = [];
  for (const h of a.heads) {
    out.push(`-- head ${printable(JSON.stringify(h.name))} --`,
      `  singular values of W_Q: ${list(h.wq.singularValues)}`,
      `  singular values of W_K: ${list(h.wk.singularValues)}`,
      `  singular values of W_V: ${list(h.wv.singularValues)}`,
      `  singular values of W_Q·W_Kᵀ (the QK circuit): ${list(h.qk.singularValues)}`);
    if (h.ov) {
      out.push(`  eigenvalues of W_V·W_O^h (the OV circuit): ${h.ov.eigenvalues.map(([re, im]) => (im === 0 ? formatNumber(re) : `${formatNumber(re)}${im < 0 ? '−' : '+'}${formatNumber(Math.abs(im))}i`)).join(', ')}`,
        `  copying score (trace / Σ|λ|): ${formatNumber(h.ov.copyingScore)}`);
    }
    out.push('');
  }
  const names = a.heads.map((h) => printable(h.name));
  for (const role of ['wq', 'wk', 'wv'] as const) {
    out.push(table(`subspace overlap of the heads' ${ROLE_SYMBOL[role]} (mean cos² of the principal angles)`, names, names, a.headOverlap[role]), '');
  }
  for (const input of a.inputs) {
    if (!input.covariance) { out.push(`covariance of "${printable(input.name)}": fewer than 2 tokens`, ''); continue; }
    const f = input.covariance.map((_, i) => `f${i}`);
    out.push(table(`covariance of the embeddings of ${printable(JSON.stringify(input.name))} (÷ n − 1)`, f, f, input.covariance), '');
  }
  return out.join('\n');
}
