// Every view by name, for the panel and for `attn render`.
import type { ViewName } from '../src/protocol.js';
import type { AttentionJson } from '../src/core/result-json.js';
import { renderArcs } from './arcs.js';
import { renderMatrix } from './matrix.js';
import { renderSteps } from './steps.js';
import { renderQuadrant } from './quadrant.js';
import { renderProjection } from './projection.js';
import { renderCompare } from './compare.js';
import { renderSummary } from './summary.js';
import type { ViewFn } from './view.js';

export type AnyView = ViewName | 'summary';

export const VIEWS: Record<AnyView, ViewFn> = {
  arcs: renderArcs,
  matrix: renderMatrix,
  steps: renderSteps,
  quadrant: renderQuadrant,
  projection: renderProjection,
  compare: renderCompare,
  summary: renderSummary,
};

export const VIEW_TITLES: Record<AnyView, string> = {
  arcs: 'Arcs',
  matrix: 'Matrix',
  steps: 'Step by step',
  quadrant: 'Quadrant',
  projection: 'Projection',
  compare: 'Compare',
  summary: 'Summary',
};

/**
 * The token a view starts on when none was picked: for "compare", a word found in several inputs
 * whose outputs differ the most (the mouse of the two sentences); otherwise the last token.
 */
export function defaultToken(data: AttentionJson, view: AnyView, input: number): { input: number; token: number } {
  const inp = data.inputs[input] ?? data.inputs[0];
  if (!inp) return { input: 0, token: 0 };
  if (view === 'compare' && data.inputs.length > 1) {
    let best: { input: number; token: number; d: number } | undefined;
    data.inputs.forEach((a, ia) => a.tokens.forEach((t, ta) => {
      data.inputs.forEach((b, ib) => {
        if (ib <= ia) return;
        const tb = b.tokens.indexOf(t);
        if (tb < 0) return;
        const va = a.output[ta] ?? [], vb = b.output[tb] ?? [];
        const d = va.reduce((s, x, k) => s + (x - (vb[k] ?? 0)) ** 2, 0);
        if (!best || d > best.d) best = { input: ia, token: ta, d };
      });
    }));
    if (best) return { input: best.input, token: best.token };
  }
  return { input: data.inputs.indexOf(inp), token: inp.tokens.length - 1 };
}
