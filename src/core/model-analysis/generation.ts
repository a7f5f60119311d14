// Greedy generation: the most likely next token (the lowest id among equals) appended, N times, each
// step computing only the new position against the kept keys and values (forward.ts's reuse, exact
// bit for bit), so the result is the run a text of the prompt's ids and the generated ids would give.
import type { LoadedModel } from '../checkpoint/model.js';
import { forward } from '../checkpoint/forward.js';

/** The `count` ids greedy decoding appends to `ids`. `onStep` is called after each (a caller stops by throwing). */
export function generateIds(m: LoadedModel, ids: readonly number[], count: number, onStep?: () => void): number[] {
  const all = [...ids], made: number[] = [];
  let kept;
  for (let step = 0; step < count; step++) {
    const out = forward(m.config, m.names, m.weights, all, { precision: m.precision, keep: true, ...(kept ? { reuse: kept } : {}) });
    kept = out.kept;
    const id = argmax(out.logits);
    all.push(id);
    made.push(id);
    onStep?.();
  }
  return made;
}

/** The index of the largest value (the first of equals). */
export function argmax(values: Float64Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}
