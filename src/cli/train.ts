// `attn train FILE [--steps N] [--json]`: gradient descent on the spec's "train" section.
// --json prints { "head", "loss": [N + 1 numbers], "weights": { "wq", "wk", "wv" } } (rows);
// the text form prints the loss every few steps, the target weights before and after, and the
// learnt matrices.
import { startOverflow } from '../core/train/overflow.js';
import { toRows } from '../core/linalg/matrix.js';
import { computeAttention, type HeadsHelper } from '../core/attention/attention.js';
import type { Spec, TrainSpec } from '../core/spec/spec.js';
import { stepWork, trainOverLimit } from '../core/spec/read/train.js';
import { train, type TrainRun } from '../core/train/descent.js';
import { intFlag, isBad, type Args, type Io } from './args.js';
import { readOneSpec } from './spec-input.js';
import { printable } from './terminal.js';
import { formatNumber } from './table.js';

export function trainCommand(args: Args, maxBytes: number, io: Io): number {
  const steps = intFlag(args, '--steps', -1);
  if (isBad(steps)) { io.err(`attn train: ${printable(steps.error)}`); return 2; }
  const read = readOneSpec(args, maxBytes, io, 'train');
  if (typeof read === 'number') return read;
  const { file, spec } = read;
  if (!spec.train) { io.err(`${printable(file)}: no "train" section: add { "head", "learn", "targets", "steps", "rate" } to say what to learn`); return 1; }
  const n = steps >= 0 ? steps : spec.train.steps;
  const tooMuch = stepsProblem(spec, spec.train, n);
  if (tooMuch) { io.err(`attn train: ${tooMuch}`); return 2; }
  const run = train(spec, spec.train, { steps: n });
  if (run.stoppedAt === 0) {
    // Before any step: the spec's own numbers overflow, whatever the rate (no report: every number in it would be NaN).
    io.err(`attn train: ${printable(file)}: ${printable(startOverflow(spec, spec.train, run.overflowTarget))}`);
    return 1;
  }
  io.out(args.flags.has('--json') ? JSON.stringify(trainJson(run), null, 2) : trainReport(spec, spec.train, run, io.helper));
  if (run.stoppedAt !== undefined) {
    io.err(`attn train: the numbers overflowed at step ${run.stoppedAt}: stopped, with the last finite weights (a smaller rate than ${spec.train.rate}, or smaller numbers in the spec)`);
    return 1;
  }
  return 0;
}

export interface TrainJson {
  head: number;
  loss: number[];
  weights: { wq: number[][]; wk: number[][]; wv: number[][] };
}

export function trainJson(run: TrainRun): TrainJson {
  return { head: run.head, loss: run.loss, weights: { wq: toRows(run.weights.wq), wk: toRows(run.weights.wk), wv: toRows(run.weights.wv) } };
}

/** The reason the steps cannot run, or undefined. */
export function stepsProblem(spec: Spec, t: TrainSpec, steps: number): string | undefined {
  return trainOverLimit(steps, stepWork(spec.inputs, spec.heads[t.head], t.targets, spec.dModel));
}

/** The spec with the training head's matrices replaced by the learnt ones. */
export function withWeights(spec: Spec, run: TrainRun): Spec {
  const heads = spec.heads.map((h, i) => (i !== run.head ? h : {
    ...h,
    wq: { matrix: run.weights.wq, identity: false }, wk: { matrix: run.weights.wk, identity: false }, wv: { matrix: run.weights.wv, identity: false },
  }));
  return { ...spec, heads };
}

export function trainReport(spec: Spec, t: TrainSpec, run: TrainRun, helper?: HeadsHelper): string {
  const head = spec.heads[t.head];
  const out: string[] = [`training head ${printable(JSON.stringify(head.name))}: learning ${t.learn.join(', ')}, rate ${t.rate}, ${run.loss.length - 1} step(s)`];
  const every = Math.max(1, Math.ceil((run.loss.length - 1) / 10));
  run.loss.forEach((l, s) => { if (s % every === 0 || s === run.loss.length - 1) out.push(`  step ${String(s).padStart(6)}  loss ${Number(l.toPrecision(4))}`); });
  const before = computeAttention(spec, { helper }), after = computeAttention(withWeights(spec, run), { helper });
  for (const target of t.targets) {
    if (target.kind !== 'attention') continue;
    const tokens = spec.inputs[target.input].tokens;
    const w0 = before.inputs[target.input].heads[t.head].weights.data[target.query * tokens.length + target.key];
    const w1 = after.inputs[target.input].heads[t.head].weights.data[target.query * tokens.length + target.key];
    out.push(`  ${printable(tokens[target.query].text)} → ${printable(tokens[target.key].text)}: weight ${formatNumber(w0)} → ${formatNumber(w1)}`);
  }
  for (const role of t.learn) out.push(`learnt ${role}:`, ...toRows(run.weights[role]).map((r) => `  [${r.map((v) => formatNumber(v)).join(', ')}]`));
  return out.join('\n');
}
