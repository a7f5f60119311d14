// Plain gradient descent on the training head: every learnt matrix updated together,
// W ← W − rate · ∂L/∂W. The loss is recorded before each step and after the last (N + 1 numbers).
// A rate too large makes the numbers overflow: the run stops there, says at which step, and keeps
// the last weights whose loss was finite.
import type { Spec, TrainSpec } from '../spec/spec.js';
import { lossAndGradient, startingWeights, type HeadWeights } from './loss.js';

export interface TrainRun {
  head: number;
  /** Loss before each step, and after the last. */
  loss: number[];
  /** Each target's progress (lossAndGradient's) before each step and after the last: one list per step, like loss. */
  progress: number[][];
  /** The head's W_Q, W_K, W_V after the steps taken (the last finite ones if the run stopped). */
  weights: HeadWeights;
  /** Weights after each step, when asked for (the training view plays them back). */
  history?: HeadWeights[];
  /** Set when the numbers overflowed: the step at which the loss or a weight stopped being finite. */
  stoppedAt?: number;
  /** When the loss was not finite: the first target (in the spec's order) whose own term was not. */
  overflowTarget?: number;
}

const finite = (w: HeadWeights) => [w.wq, w.wk, w.wv].every((m) => m.data.every(Number.isFinite));
const clone = (w: HeadWeights): HeadWeights => ({
  wq: { ...w.wq, data: Float64Array.from(w.wq.data) }, wk: { ...w.wk, data: Float64Array.from(w.wk.data) }, wv: { ...w.wv, data: Float64Array.from(w.wv.data) },
});

export function train(spec: Spec, options: TrainSpec, opts: { steps?: number; keepHistory?: boolean } = {}): TrainRun {
  const steps = opts.steps ?? options.steps;
  let w = startingWeights(spec, options.head);
  let lastGood = w;
  const loss: number[] = [];
  const progress: number[][] = [];
  const history: HeadWeights[] | undefined = opts.keepHistory ? [clone(w)] : undefined;
  for (let step = 0; step <= steps; step++) {
    const last = step === steps;
    const { loss: l, gradient, progress: p, terms } = lossAndGradient(spec, options, w, !last);
    if (!Number.isFinite(l)) {
      const target = terms.findIndex((t) => !Number.isFinite(t));
      return { head: options.head, loss, progress, weights: lastGood, ...(history ? { history: history.slice(0, loss.length) } : {}), stoppedAt: step, ...(target >= 0 ? { overflowTarget: target } : {}) };
    }
    loss.push(l);
    progress.push(p);
    lastGood = w;
    if (last) break;
    const next = clone(w);
    for (const role of options.learn) {
      const m = next[role], g = gradient[role];
      for (let i = 0; i < m.data.length; i++) m.data[i] -= options.rate * g.data[i];
    }
    if (!finite(next)) return { head: options.head, loss, progress, weights: w, ...(history ? { history } : {}), stoppedAt: step + 1 };
    w = next;
    history?.push(clone(w));
  }
  return { head: options.head, loss, progress, weights: w, ...(history ? { history } : {}) };
}
