// Generated weights (the third seed's initialisation): instead of writing a 512 × 64 matrix out, a
// spec may say `"wq": { "init": "xavier", "shape": [512, 64], "seed": 7 }` and the reader draws it
// from a seeded normal distribution, the same numbers on every machine. shape = [d_in, d_out]
// (rows × columns, row-vector convention q = x · W_Q), and the rules are the textbook ones:
//   lecun   Var(W) = 1 / d_in            (LeCun 1998: keeps Var(x · W) = Var(x) for a linear layer)
//   xavier  Var(W) = 2 / (d_in + d_out)  (Glorot & Bengio 2010: balances the forward and backward pass)
//   kaiming Var(W) = 2 / d_in            (He et al. 2015: makes up for ReLU zeroing half the signal)
//   { "variance": v }                    (any v ≥ 0, e.g. GPT-2's 0.02² written as 0.0004)
// The cost is checked from the shape before anything is allocated: generated numbers are not
// bounded by the file's size, as written ones are.
import { zeros, type Matrix } from '../../linalg/matrix.js';
import { childAt, type Node } from '../../json/json-tree.js';
import type { JsonPath } from '../../json/path.js';
import { formatPath } from '../../json/path.js';
import type { GeneratedWeight, InitRule, WeightMatrix } from '../spec.js';
import { describe, spanOf, type Reader } from './values.js';
import { createRandom, fillGaussian } from '../../linalg/random.js';
import { quote } from '../../json/quote.js';
import { INIT_RULES } from '../../vocabulary.js';

/** Numbers all generated matrices of one spec may hold together (32 MB of doubles), as for identities. */
export const MAX_GENERATED_CELLS = 4 * 1024 * 1024;

/** The keys of a generated weight, and of its "init" written as a variance. */
export const GENERATED_KEYS = ['init', 'shape', 'seed'] as const;
export const VARIANCE_KEYS = ['variance'] as const;

/** The numbers generated so far in this read, so many small matrices cannot add up past the cap. */
export interface GeneratedBudget {
  cells: number;
}

/** What a shape is checked against: its row count (always) and column count (W_O: d_model). */
export interface ShapeExpected {
  rows: { count: number; what: string };
  cols?: { count: number; what: string };
}

/** Var(W) for a rule and a shape [d_in, d_out]. */
export function initVariance(rule: InitRule, dIn: number, dOut: number): number {
  switch (rule) {
    case 'lecun': return 1 / dIn;
    case 'xavier': return 2 / (dIn + dOut);
    case 'kaiming': return 2 / dIn;
  }
}

/**
 * The seed of a matrix that names none: a hash (FNV-1a) of its place in the spec, so W_Q and W_K of
 * one head, or two heads, never come out equal by accident, and the same spec always gives the same.
 */
export function defaultSeed(path: JsonPath): number {
  let h = 0x811c9dc5;
  for (const ch of formatPath(path)) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A matrix of the given shape, normal with mean 0 and the variance, filled row by row from the seed's stream. */
export function generateWeight(rows: number, cols: number, variance: number, seed: number): Matrix {
  const m = zeros(rows, cols);
  fillGaussian(m.data, createRandom(seed), variance);
  return m;
}

function readRule(r: Reader, node: Node, path: JsonPath): { rule: InitRule | 'variance'; variance?: number } | undefined {
  const at = [...path, 'init'];
  const initNode = childAt(node, 'init');
  const expected = `expected ${INIT_RULES.map((rule) => quote(rule)).join(', ')} or { "variance": a number ≥ 0 }`;
  if (!initNode) return r.error(node, path, `a generated weight needs "init": ${expected} (or give "file" to read the matrix from a tensor file)`);
  if (initNode.type === 'string') {
    const name = initNode.value as string;
    const rule = INIT_RULES.find((known) => known === name);
    if (rule) return { rule };
    return r.error(initNode, at, `unknown init ${quote(name)}: ${expected}`);
  }
  if (initNode.type !== 'object') return r.error(initNode, at, `${expected}, got ${describe(initNode)}`);
  r.unknownKeys(initNode, at, new Set(VARIANCE_KEYS));
  const vNode = childAt(initNode, 'variance');
  if (!vNode) return r.error(initNode, at, `expected { "variance": a number ≥ 0 }, with no "variance" in it`);
  const variance = r.number(vNode, [...at, 'variance']);
  if (variance === undefined) return undefined;
  if (variance < 0) return r.error(vNode, [...at, 'variance'], `a variance cannot be negative, got ${variance} (it is the mean square of the numbers drawn)`);
  return { rule: 'variance', variance };
}

function readShape(r: Reader, node: Node, path: JsonPath, expected: ShapeExpected): [number, number] | undefined {
  const at = [...path, 'shape'];
  const shapeNode = childAt(node, 'shape');
  if (!shapeNode) return r.error(node, path, `a generated weight needs "shape": [rows, columns], with ${expected.rows.count} rows (${expected.rows.what})`);
  if (shapeNode.type !== 'array' || shapeNode.children!.length !== 2) {
    return r.error(shapeNode, at, `expected a shape [rows, columns], got ${describe(shapeNode)}`);
  }
  const dims: number[] = [];
  for (const [i, item] of shapeNode.children!.entries()) {
    const v = r.number(item, [...at, i]);
    if (v === undefined) return undefined;
    const what = i === 0 ? 'row' : 'column';
    // 2^53 is a whole number: say what is wrong with it (too large), not that it is not whole.
    if (Number.isInteger(v) && v > Number.MAX_SAFE_INTEGER) return r.error(item, [...at, i], `a ${what} count of ${v} is too large to count exactly (at most ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')}, and far less fits the limits)`);
    if (!Number.isSafeInteger(v) || v < 1) return r.error(item, [...at, i], `a ${what} count must be a whole number ≥ 1, got ${v}`);
    dims.push(v);
  }
  const [rows, cols] = dims;
  if (rows !== expected.rows.count) {
    return r.error(shapeNode.children![0], [...at, 0], `${rows} rows, expected ${expected.rows.count} (${expected.rows.what})`);
  }
  if (expected.cols && cols !== expected.cols.count) {
    return r.error(shapeNode.children![1], [...at, 1], `${cols} columns, expected ${expected.cols.count} (${expected.cols.what})`);
  }
  return [rows, cols];
}

function readSeed(r: Reader, node: Node, path: JsonPath): number | undefined {
  const seedNode = childAt(node, 'seed');
  if (!seedNode) return defaultSeed(path);
  const v = r.number(seedNode, [...path, 'seed']);
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v)) {
    return r.error(seedNode, [...path, 'seed'], `a seed must be a whole number (up to ±${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')}), got ${v}`);
  }
  return v;
}

/** A weight written as { "init", "shape", "seed" }: checked, costed from its shape, then drawn. */
export function readInit(r: Reader, node: Node, path: JsonPath, expected: ShapeExpected, budget: GeneratedBudget): WeightMatrix | undefined {
  r.unknownKeys(node, path, new Set(GENERATED_KEYS));
  // Every part is checked (so all problems show at once) before the one that allocates.
  const rule = readRule(r, node, path);
  const shape = readShape(r, node, path, expected);
  const seed = readSeed(r, node, path);
  if (!rule || !shape || seed === undefined) return undefined;
  const [rows, cols] = shape;
  const cells = rows * cols;
  if (budget.cells + cells > MAX_GENERATED_CELLS) {
    const before = budget.cells > 0 ? ` (with the ${budget.cells.toLocaleString('en-US')} generated before it)` : '';
    return r.error(childAt(node, 'shape')!, [...path, 'shape'],
      `${rows.toLocaleString('en-US')} × ${cols.toLocaleString('en-US')} = ${cells.toLocaleString('en-US')} numbers to generate${before}, over the ` +
      `${MAX_GENERATED_CELLS.toLocaleString('en-US')} limit for generated weights: use a smaller shape`);
  }
  budget.cells += cells;
  const variance = rule.rule === 'variance' ? rule.variance! : initVariance(rule.rule, rows, cols);
  const generated: GeneratedWeight = { init: rule.rule, variance, seed };
  return { matrix: generateWeight(rows, cols, variance, seed), identity: false, span: spanOf(node), generated };
}
