// Attention rollout (Abnar & Zuidema 2020): how much of each input token flows into each position
// after all layers, counting the residual connection as half of every layer. Per layer
//   Â_l = 0.5 · (mean over heads of A_l,h) + 0.5 · I, each row renormalised to sum to 1,
// and R = Â_L ··· Â_1 (row i of R: where position i's information came from). It is built one layer
// at a time from the heads' mean, so only three n × n matrices are ever held.

import { overBudget, ROLLOUT, rolloutWork } from '../budget.js';

/** Largest n whose rollout is computed: n³ per layer, and an n × n answer. */
export const MAX_ROLLOUT_TOKENS = 1024;

/** Why the rollout of `layers` layers of n tokens is not computed (too many tokens, or over its work budget), or undefined. */
export function rolloutRefusal(layers: number, n: number): string | undefined {
  if (n > MAX_ROLLOUT_TOKENS) return `the rollout is computed up to ${MAX_ROLLOUT_TOKENS.toLocaleString('en-US')} tokens; this file has ${n.toLocaleString('en-US')}`;
  return overBudget(ROLLOUT, rolloutWork(layers, n), `${layers} layers × ${n.toLocaleString('en-US')}³`, 'it is left out (the heads are all shown); a file of fewer layers or tokens has one');
}

/** Â from the mean over heads (row-major n × n), in place: halve, add half the identity, renormalise rows. */
export function residualAttention(mean: Float64Array, n: number): Float64Array {
  for (let i = 0; i < n; i++) {
    const row = i * n;
    let sum = 0;
    for (let j = 0; j < n; j++) {
      const v = 0.5 * mean[row + j] + (i === j ? 0.5 : 0);
      mean[row + j] = v;
      sum += v;
    }
    if (sum !== 0) for (let j = 0; j < n; j++) mean[row + j] /= sum;
  }
  return mean;
}

/** a · b for row-major n × n matrices, into `out` (which must be neither). */
export function multiply(a: Float64Array, b: Float64Array, n: number, out: Float64Array): Float64Array {
  out.fill(0);
  for (let i = 0; i < n; i++) {
    const row = i * n;
    for (let k = 0; k < n; k++) {
      const aik = a[row + k];
      if (aik === 0) continue;
      const bk = k * n;
      for (let j = 0; j < n; j++) out[row + j] += aik * b[bk + j];
    }
  }
  return out;
}

/** Accumulates layers in order 1 … L; `result` is R = Â_L ··· Â_1 (the identity before any layer). */
export class Rollout {
  private r: Float64Array;
  private spare: Float64Array;
  private layers = 0;
  constructor(readonly n: number) {
    this.r = new Float64Array(n * n);
    this.spare = new Float64Array(n * n);
    for (let i = 0; i < n; i++) this.r[i * n + i] = 1;
  }
  /** The next layer's mean over heads (consumed: it becomes Â). */
  addLayer(meanOverHeads: Float64Array): void {
    const hat = residualAttention(meanOverHeads, this.n);
    if (this.layers === 0) {
      this.r.set(hat);
    } else {
      multiply(hat, this.r, this.n, this.spare);
      [this.r, this.spare] = [this.spare, this.r];
    }
    this.layers++;
  }
  get result(): Float64Array { return this.r; }
}
