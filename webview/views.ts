// Every view by name, for the panel and for `attn render`.
import { row } from '../src/core/model/attention-data.js';
import type { ViewName } from '../src/protocol.js';
import type { AttentionData } from '../src/core/model/attention-data.js';
import { renderArcs } from './arcs.js';
import { renderMatrix } from './matrix.js';
import { renderSteps } from './steps.js';
import { renderQuadrant } from './quadrant.js';
import { renderProjection } from './projection.js';
import { renderCompare } from './compare.js';
import { renderSummary } from './summary.js';
import { renderTraining } from './training.js';
import { renderGeometry } from './geometry.js';
import type { ViewFn } from './view.js';

export type AnyView = ViewName | 'summary';

export const VIEWS: Record<AnyView, ViewFn> = {
  arcs: renderArcs,
  matrix: renderMatrix,
  steps: renderSteps,
  quadrant: renderQuadrant,
  projection: renderProjection,
  compare: renderCompare,
  training: renderTraining,
  geometry: renderGeometry,
  summary: renderSummary,
};

export const VIEW_TITLES: Record<AnyView, string> = {
  arcs: 'Arcs',
  matrix: 'Matrix',
  steps: 'Step by step',
  quadrant: 'Quadrant',
  projection: 'Projection',
  compare: 'Compare',
  training: 'Training',
  geometry: 'Geometry',
  summary: 'Summary',
};

/** Inputs compared per shared word when picking compare's start: enough for any teaching spec, and bounded. */
const MAX_PAIRED = 8;

/**
 * The token a view starts on when none was picked: for "compare", a word found in several inputs
 * whose outputs differ the most (the mouse of the two sentences); otherwise the last token.
 * Linear in the tokens: each word's first occurrence per input is collected once, and only the
 * first MAX_PAIRED inputs holding a word are compared pairwise.
 */
export function defaultToken(data: AttentionData, view: AnyView, input: number): { input: number; token: number } {
  const inp = data.inputs[input] ?? data.inputs[0];
  if (!inp) return { input: 0, token: 0 };
  if (view === 'compare' && data.inputs.length > 1) {
    const places = new Map<string, { input: number; token: number }[]>();
    data.inputs.forEach((a, ia) => {
      const seen = new Set<string>();
      a.tokens.forEach((t, ta) => {
        if (seen.has(t)) return;
        seen.add(t);
        const list = places.get(t) ?? [];
        if (list.length < MAX_PAIRED) list.push({ input: ia, token: ta });
        places.set(t, list);
      });
    });
    let best: { input: number; token: number; d: number } | undefined;
    for (const list of places.values()) {
      for (let x = 0; x < list.length; x++) {
        for (let y = x + 1; y < list.length; y++) {
          const va = row(data.inputs[list[x].input].output, list[x].token);
          const vb = row(data.inputs[list[y].input].output, list[y].token);
          let d = 0;
          for (let k = 0; k < va.length; k++) d += (va[k] - (vb[k] ?? 0)) ** 2;
          if (!best || d > best.d || (d === best.d && (list[x].input < best.input || (list[x].input === best.input && list[x].token < best.token)))) {
            best = { ...list[x], d };
          }
        }
      }
    }
    if (best) return { input: best.input, token: best.token };
  }
  const last = inp.tokens.length - 1;
  // Step by step starts on the word the input leads up to (its last word), at that word's first
  // occurrence: a repeated last word would otherwise start on a copy rather than the word itself.
  if (view === 'steps') return { input: data.inputs.indexOf(inp), token: Math.max(0, inp.tokens.indexOf(inp.tokens[last])) };
  return { input: data.inputs.indexOf(inp), token: last };
}
