// Greedy generation: the most likely next token (the lowest id among equals) appended, N times, each
// step computing only the new position against the kept keys and values (forward.ts's reuse, exact
// bit for bit), so the result is the run a text of the prompt's ids and the generated ids would give.
import type { LoadedModel } from '../checkpoint/model.js';
import { forward } from '../checkpoint/forward.js';

/**
 * The `count` ids greedy decoding appends to `ids`. `onLayer` is called after each layer of each
 * step (a caller stops by throwing: the first step alone runs the whole prompt). The steps keep no
 * attention (the run over prompt + generated that follows has it): joining a step's new row to the
 * kept rows copies every head's n² weights a layer, which made N steps cost N · layers · heads · n².
 */
export function generateIds(m: LoadedModel, ids: readonly number[], count: number, onLayer?: (layer: number) => void): number[] {
  const all = [...ids], made: number[] = [];
  let kept;
  for (let step = 0; step < count; step++) {
    const out = forward(m.config, m.names, m.weights, all, { precision: m.precision, keep: true, keepAttention: false, ...(kept ? { reuse: kept } : {}), ...(onLayer ? { onLayer } : {}) });
    kept = out.kept;
    const id = argmax(out.logits);
    all.push(id);
    made.push(id);
  }
  return made;
}

/** The index of the largest value (the first of equals). */
export function argmax(values: Float64Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}
