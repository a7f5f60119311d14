// What the Training view plays back: the run of the spec's "train" section, computed when the
// spec is read (small by construction: the panel trains only runs under a work budget; larger
// ones say to use `attn train`), as the loss at every step and at most MAX_FRAMES snapshots of
// the learnt matrices and of the head's attention on the first target's input.
import { buildMask, computeHeads, embeddingMatrix } from '../attention/attention.js';
import { toRows } from '../linalg/matrix.js';
import type { Spec } from '../spec/spec.js';
import { stepWork } from '../spec/read/train.js';
import { train } from './descent.js';
import { startOverflow } from './overflow.js';

/** Multiply-adds the panel spends on training: about 40 ms on the host (measured on 2 cores: n = 64, 29 steps); past this, `attn train`. */
export const PANEL_TRAIN_WORK = 5e6;
export const MAX_FRAMES = 101;

export interface TrainingFrame {
  step: number;
  wq: number[][];
  wk: number[][];
  wv: number[][];
  /** The head's attention weights on `input` with these matrices. */
  weights: number[][];
}

export interface TrainingJson {
  head: number;
  headName: string;
  learn: string[];
  rate: number;
  steps: number;
  /** The input whose attention the frames show: the first target's. */
  input: number;
  targets: { input: number; query: number; key?: number; output?: number[] }[];
  /** Loss before each step and after the last (steps + 1 numbers, fewer if the run stopped). */
  loss: number[];
  /**
   * Per target, its progress at every step of `loss`: an attention target's weight (the lesson:
   * watch → apple from 0.0096 to 0.999), an output target's distance ‖output − y‖. Absent when refused.
   */
  progress?: number[][];
  frames: TrainingFrame[];
  /** Set when the numbers overflowed at this step. */
  stoppedAt?: number;
  /**
   * Set when the panel has no run to play, with the sentence it shows instead: the run is too big to
   * compute there, or its loss overflows before the first step (naming the target). Loss and frames are then empty.
   */
  tooBig?: string;
}

export function trainingJson(spec: Spec): TrainingJson | undefined {
  const t = spec.train;
  if (!t) return undefined;
  const head = spec.heads[t.head];
  const input = t.targets[0].input;
  const base: TrainingJson = {
    head: t.head, headName: head.name, learn: [...t.learn], rate: t.rate, steps: t.steps, input,
    targets: t.targets.map((g) => (g.kind === 'attention' ? { input: g.input, query: g.query, key: g.key } : { input: g.input, query: g.query, output: Array.from(g.output) })),
    loss: [], frames: [],
  };
  const work = t.steps * stepWork(spec.inputs, head, t.targets, spec.dModel);
  if (work > PANEL_TRAIN_WORK) {
    return { ...base, tooBig: `${t.steps} steps are too many to train in the panel (about ${(work / 1e6).toFixed(0)} million multiply-adds): run attn train, or use fewer steps` };
  }
  const run = train(spec, t, { keepHistory: true });
  if (run.stoppedAt === 0) return { ...base, tooBig: `Nothing to play: ${startOverflow(spec, t, run.overflowTarget)}.` };
  const history = run.history ?? [];
  const x = embeddingMatrix(spec.inputs[input], spec.dModel);
  const masked = buildMask(spec, spec.inputs[input]);
  const last = history.length - 1;
  const picked = new Set<number>();
  for (let f = 0; f < Math.min(MAX_FRAMES, history.length); f++) picked.add(Math.round((f * last) / Math.max(1, Math.min(MAX_FRAMES, history.length) - 1)));
  const frames = [...picked].sort((a, b) => a - b).map((step): TrainingFrame => {
    const w = history[step];
    const [{ result }] = computeHeads(x, [{ name: head.name, wq: { matrix: w.wq, identity: false }, wk: { matrix: w.wk, identity: false }, wv: { matrix: w.wv, identity: false } }], spec.scale, masked);
    return { step, wq: toRows(w.wq), wk: toRows(w.wk), wv: toRows(w.wv), weights: toRows(result.weights) };
  });
  const progress = t.targets.map((_, g) => run.progress.map((p) => p[g]));
  return { ...base, loss: run.loss, progress, frames, ...(run.stoppedAt !== undefined ? { stoppedAt: run.stoppedAt } : {}) };
}
