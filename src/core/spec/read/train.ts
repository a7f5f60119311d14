// The "train" section: which head learns (index or name), which of its matrices (wq, wk, wv),
// toward which targets (a query should attend to a key; a query's output should be a vector),
// with how many steps at what rate. Every problem is placed where it is written, and a target the
// mask hides is refused here: its weight is 0 for every W, so −ln 0 could never come down.
import { childAt, type Node } from '../../json/json-tree.js';
import type { JsonPath } from '../../json/path.js';
import type { AttentionTarget, HeadSpec, InputSpec, LearnableRole, MaskKind, OutputTarget, TrainSpec } from '../spec.js';
import { describe, spanOf, type Reader } from './values.js';
import { quote, quoteOr } from '../../json/quote.js';
import { HEAD_ROLES } from '../../vocabulary.js';

/** Most gradient steps one spec may ask for. */
export const MAX_TRAIN_STEPS = 100_000;
/** Multiply-adds a whole training run may cost (forward and backward, every step). */
export const MAX_TRAIN_WORK = 2e9;
/** The keys of the "train" section and of one of its targets. */
export const TRAIN_KEYS = ['head', 'learn', 'targets', 'steps', 'rate'] as const;
export const TARGET_KEYS = ['input', 'query', 'key', 'output'] as const;

/** Multiply-adds of one step: forward and backward through the training head, on each input that has a target. */
export function stepWork(inputs: readonly InputSpec[], head: HeadSpec, targets: TrainSpec['targets'], dModel: number): number {
  const used = new Set(targets.map((t) => t.input));
  const dk = head.wq.matrix.cols, dv = head.wv.matrix.cols;
  let work = 0;
  for (const i of used) {
    const n = inputs[i]?.tokens.length ?? 0;
    work += 3 * n * dModel * (2 * dk + dv) + 4 * n * n * (dk + dv);
  }
  return work;
}

export function trainOverLimit(steps: number, perStep: number): string | undefined {
  if (steps > MAX_TRAIN_STEPS) return `${steps} steps, more than the ${MAX_TRAIN_STEPS.toLocaleString('en-US')} one run may take`;
  const work = steps * perStep;
  if (work > MAX_TRAIN_WORK) {
    return `${steps} steps of this head need about ${(work / 1e9).toFixed(1)} billion multiply-adds, over the ${MAX_TRAIN_WORK / 1e9} billion limit: use fewer steps or tokens`;
  }
  return undefined;
}

interface Context {
  inputs: readonly InputSpec[];
  heads: readonly HeadSpec[];
  mask: MaskKind;
  dModel: number;
}

function readHeadRef(r: Reader, node: Node, path: JsonPath, heads: readonly HeadSpec[]): number | undefined {
  if (node.type === 'number') {
    const i = node.value as number;
    if (Number.isInteger(i) && i >= 0 && i < heads.length) return i;
    return r.error(node, path, `no head ${node.value}: the spec has ${heads.length} head(s), numbered from 0`);
  }
  if (node.type === 'string') {
    const i = heads.findIndex((h) => h.name === node.value);
    if (i >= 0) return i;
    return r.error(node, path, `no head named ${quote(String(node.value))}; the heads are ${heads.slice(0, 8).map((h) => quote(h.name)).join(', ')}`);
  }
  return r.error(node, path, `expected a head's index or name, got ${describe(node)}`);
}

/** A token of an input by its text (its first occurrence) or its index. */
function readTokenRef(r: Reader, node: Node, path: JsonPath, input: InputSpec): number | undefined {
  const n = input.tokens.length;
  if (node.type === 'number') {
    const i = node.value as number;
    if (Number.isInteger(i) && i >= 0 && i < n) return i;
    return r.error(node, path, `no token ${node.value} in input ${quote(input.name)}: it has ${n}, numbered from 0`);
  }
  if (node.type === 'string') {
    const i = input.tokens.findIndex((t) => t.text === node.value);
    if (i >= 0) return i;
    return r.error(node, path, `no token ${quote(String(node.value))} in input ${quote(input.name)}`);
  }
  return r.error(node, path, `expected a token's text or index, got ${describe(node)}`);
}

function hidden(ctx: Context, input: number, query: number, key: number): boolean {
  if (ctx.mask === 'causal' && key > query) return true;
  const m = ctx.inputs[input].mask;
  return !!m && !m[query][key];
}

function readTarget(r: Reader, node: Node, path: JsonPath, ctx: Context, head: HeadSpec): AttentionTarget | OutputTarget | undefined {
  if (!r.object(node, path, 'a target { "input", "query", "key" } or { "input", "query", "output" }')) return undefined;
  r.unknownKeys(node, path, new Set(TARGET_KEYS));
  const inputNode = childAt(node, 'input');
  let input = 0;
  if (inputNode) {
    const v = r.number(inputNode, [...path, 'input']);
    if (v === undefined) return undefined;
    if (!Number.isInteger(v) || v < 0 || v >= ctx.inputs.length) {
      return r.error(inputNode, [...path, 'input'], `no input ${v}: the spec has ${ctx.inputs.length}, numbered from 0`);
    }
    input = v;
  }
  const queryNode = childAt(node, 'query');
  if (!queryNode) return r.error(node, path, 'a target needs "query": the token whose attention or output should change');
  const query = readTokenRef(r, queryNode, [...path, 'query'], ctx.inputs[input]);
  const keyNode = childAt(node, 'key');
  const outputNode = childAt(node, 'output');
  if (keyNode && outputNode) return r.error(outputNode, [...path, 'output'], 'a target takes "key" or "output", not both');
  if (!keyNode && !outputNode) return r.error(node, path, 'a target needs "key" (whom the query should attend to) or "output" (the vector it should become)');
  if (keyNode) {
    const key = readTokenRef(r, keyNode, [...path, 'key'], ctx.inputs[input]);
    if (query === undefined || key === undefined) return undefined;
    if (hidden(ctx, input, query, key)) {
      const tokens = ctx.inputs[input].tokens;
      return r.error(keyNode, [...path, 'key'], `the mask hides ${quote(tokens[key].text)} from ${quote(tokens[query].text)}: ` +
        'its weight is 0 whatever the matrices, so this target can never be reached (its loss would be infinite)');
    }
    return { kind: 'attention', input, query, key, span: spanOf(node) };
  }
  const dv = head.wv.matrix.cols;
  const output = r.vector(outputNode!, [...path, 'output'], { length: dv, what: 'd_v of the training head' });
  if (query === undefined || !output) return undefined;
  return { kind: 'output', input, query, output, span: spanOf(node) };
}

export function readTrain(r: Reader, root: Node, ctx: Context): TrainSpec | undefined | null {
  const node = childAt(root, 'train');
  if (!node) return null;
  const path = ['train'];
  if (!r.object(node, path, 'training options { "head", "learn", "targets", "steps", "rate" }')) return undefined;
  r.unknownKeys(node, path, new Set(TRAIN_KEYS));
  const headNode = childAt(node, 'head');
  const head = headNode ? readHeadRef(r, headNode, [...path, 'head'], ctx.heads) : 0;

  const learnNode = childAt(node, 'learn');
  let learn: LearnableRole[] | undefined = ['wq', 'wk'];
  if (learnNode) {
    if (learnNode.type !== 'array' || (learnNode.children?.length ?? 0) === 0) {
      learn = r.error(learnNode, [...path, 'learn'], `expected a non-empty list of ${HEAD_ROLES.map((role) => quote(role)).join(', ')}, got ${describe(learnNode)}`);
    } else {
      learn = [];
      for (const [i, c] of learnNode.children!.entries()) {
        if (c.type !== 'string' || !HEAD_ROLES.includes(c.value as LearnableRole)) {
          r.error(c, [...path, 'learn', i], `expected ${quoteOr(HEAD_ROLES)}, got ${describe(c)}`);
          learn = undefined;
          break;
        }
        if (learn.includes(c.value as LearnableRole)) {
          r.error(c, [...path, 'learn', i], `${quote(String(c.value))} is listed twice`);
          learn = undefined;
          break;
        }
        learn.push(c.value as LearnableRole);
      }
    }
  }

  const stepsNode = childAt(node, 'steps');
  let steps: number | undefined = 100;
  if (stepsNode) {
    steps = r.number(stepsNode, [...path, 'steps']);
    if (steps !== undefined && (!Number.isInteger(steps) || steps < 0)) steps = r.error(stepsNode, [...path, 'steps'], `expected a whole number of steps, 0 or more, got ${steps}`);
  }
  const rateNode = childAt(node, 'rate');
  let rate: number | undefined = 0.1;
  if (rateNode) {
    rate = r.number(rateNode, [...path, 'rate']);
    if (rate !== undefined && !(rate > 0)) rate = r.error(rateNode, [...path, 'rate'], `the rate must be a positive number (W ← W − rate · ∂L/∂W), got ${rate}`);
  }

  const targetsNode = childAt(node, 'targets');
  if (!targetsNode) return r.error(node, path, 'training needs "targets": e.g. [{ "input": 0, "query": "watch", "key": "apple" }]');
  if (targetsNode.type !== 'array' || (targetsNode.children?.length ?? 0) === 0) {
    return r.error(targetsNode, [...path, 'targets'], `expected a non-empty list of targets, got ${describe(targetsNode)}`);
  }
  if (head === undefined) return undefined;
  const targets = targetsNode.children!.slice(0, 1000).map((t, i) => readTarget(r, t, [...path, 'targets', i], ctx, ctx.heads[head]));
  if (targetsNode.children!.length > 1000) return r.error(targetsNode, [...path, 'targets'], 'more than 1,000 targets');
  if (!learn || steps === undefined || rate === undefined || targets.some((t) => !t)) return undefined;
  const tooMuch = trainOverLimit(steps, stepWork(ctx.inputs, ctx.heads[head], targets as TrainSpec['targets'], ctx.dModel));
  if (tooMuch) return r.error(stepsNode ?? node, [...path, 'steps'], tooMuch);
  return { head, learn, targets: targets as TrainSpec['targets'], steps, rate, span: spanOf(node) };
}
