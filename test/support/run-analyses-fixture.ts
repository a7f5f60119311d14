// A model run's view data with its analyses, for the views' tests: random attention over `tokens`, a
// run's next tokens, and the attribution, patching and logit lens made from a seed (never all zero,
// one cell the strongest each way), or left out.
import { scanModel } from '../../src/core/model-attention/scan.js';
import type { ModelViewData } from '../../src/core/model-attention/data.js';
import type { RunAnalyses } from '../../src/core/model-attention/run-analyses.js';
import type { Attribution } from '../../src/core/model-analysis/types.js';
import type { NextToken } from '../../src/core/checkpoint/types.js';
import { memoryAttention, randomAttention } from './model-fixture.js';

export const RUN = { model: 'models/induction-gpt2', forwardMs: 12, next: [{ id: 3, token: ' sat', p: 0.9 }] };

/** A signed table [layers][heads]: (l·7 + h·3) mod 11 − 5, scaled; layer 1 head 2 the largest. */
export function table(layers: number, heads: number, scale = 0.1): number[][] {
  return Array.from({ length: layers }, (_, l) => Array.from({ length: heads }, (_, h) => (l === 0 && h === 1 ? 9 : ((l * 7 + h * 3) % 11) - 5) * scale));
}

export function attributionOf(layers: number, heads: number): Attribution {
  const h = table(layers, heads);
  const attentionBias = Array.from({ length: layers }, () => 0);
  const mlps = Array.from({ length: layers }, (_, l) => (l % 2 ? -0.2 : 0.3));
  const embed = 0.25, normBias = -0.05;
  const total = h.flat().reduce((s, v) => s + v, 0) + mlps.reduce((s, v) => s + v, 0) + embed + normBias;
  return { target: 3, contrast: 9, heads: h, attentionBias, mlps, embed, normBias, total };
}

/** [layer][position] → five tokens: the top one the position's own next word, p rising with the layer. */
export function lensOf(layers: number, tokens: readonly string[]): NextToken[][][] {
  return Array.from({ length: layers }, (_, l) => tokens.map((_t, i) => Array.from({ length: 5 }, (_x, k) => ({
    id: i * 10 + k, token: k === 0 ? tokens[(i + 1) % tokens.length] : `t${k}`, p: k === 0 ? (l + 1) / (layers + 1) : 0.01,
  }))));
}

export function runData(layers: number, heads: number, tokens: string[], analyses?: Partial<RunAnalyses>): ModelViewData {
  const n = tokens.length;
  return {
    ...scanModel(memoryAttention(randomAttention(layers, heads, n), layers, heads, n, tokens)),
    run: RUN,
    ...(analyses ? { analyses: { positions: n, shown: n, ...analyses } } : {}),
  };
}
