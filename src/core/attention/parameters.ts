// How many learnable numbers the spec's matrices hold, and the seeds' full-size estimate
// (one 512×64 matrix × 8 heads × 6 blocks × 2 stacks), so the views can show the scale. A matrix
// the "train" section learns counts in full even when it starts as "identity": training writes
// every one of its numbers (learn-apple-watch's summary said "learnable numbers 0").
import type { LearnableRole, Spec, WeightMatrix } from '../spec/spec.js';

export interface HeadParameters {
  readonly name: string;
  readonly wq: number;
  readonly wk: number;
  readonly wv: number;
}

export interface FullSizeEstimate {
  readonly dModel: number;
  readonly dk: number;
  readonly heads: number;
  readonly blocks: number;
  readonly stacks: number;
  readonly total: number;
}

export interface ParameterCount {
  readonly heads: readonly HeadParameters[];
  readonly wo: number;
  /** Every learnable number in the spec; identity matrices hold none, unless the "train" section learns them. */
  readonly total: number;
  readonly fullSize: FullSizeEstimate;
}

/** The seeds' back-of-the-envelope count for the original Transformer. */
export function fullSizeEstimate(dModel = 512, dk = 64, heads = 8, blocks = 6, stacks = 2): FullSizeEstimate {
  return { dModel, dk, heads, blocks, stacks, total: dModel * dk * heads * blocks * stacks };
}

function learnable(w: WeightMatrix | undefined, trained = false): number {
  return !w || (w.identity && !trained) ? 0 : w.matrix.rows * w.matrix.cols;
}

export function countParameters(spec: Spec): ParameterCount {
  const trained = (head: number, role: LearnableRole) => spec.train?.head === head && spec.train.learn.includes(role);
  const heads = spec.heads.map((h, i) => ({ name: h.name, wq: learnable(h.wq, trained(i, 'wq')), wk: learnable(h.wk, trained(i, 'wk')), wv: learnable(h.wv, trained(i, 'wv')) }));
  const wo = learnable(spec.wo);
  const total = heads.reduce((s, h) => s + h.wq + h.wk + h.wv, 0) + wo;
  return { heads, wo, total, fullSize: fullSizeEstimate() };
}
