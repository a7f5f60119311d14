// Scaled dot-product attention, every intermediate kept: for each input and head,
// Q = X·W_Q, K = X·W_K, V = X·W_V, scores = Q·Kᵀ, scaled = scores ÷ s (masked entries hidden),
// weights = softmax(scaled) row by row, output = weights·V; then the heads side by side, then W_O.
import { concatColumns, matmul, matmulTransposed, row, zeros, type Matrix } from './matrix.js';
import { softmaxRow } from './softmax.js';
import { countParameters, type ParameterCount } from './parameters.js';
import type { HeadSpec, InputSpec, Scale, Spec } from './spec.js';
import { quote } from './quote.js';

export interface HeadResult {
  readonly name: string;
  readonly dk: number;
  readonly dv: number;
  readonly q: Matrix;
  readonly k: Matrix;
  readonly v: Matrix;
  /** Raw similarities q_i · k_j. */
  readonly scores: Matrix;
  /** scores ÷ divisor; masked entries hold -Infinity. */
  readonly scaled: Matrix;
  /** What the scores were divided by: √d_k, 1, or the spec's number. */
  readonly divisor: number;
  /** 1 where query i may not attend to key j (row-major n×n). */
  readonly masked: Uint8Array;
  readonly weights: Matrix;
  readonly output: Matrix;
}

export interface InputResult {
  readonly name: string;
  readonly tokens: readonly string[];
  /** The tokens' embeddings, one row each (n × d_model). */
  readonly x: Matrix;
  readonly heads: readonly HeadResult[];
  /** The heads' outputs side by side (n × heads·d_v). */
  readonly concat: Matrix;
  /** concat · W_O, or concat itself when the spec has no W_O. */
  readonly output: Matrix;
}

export interface ComputeWarning {
  readonly input: number;
  readonly head: number;
  readonly query: number;
  readonly message: string;
}

export interface AttentionResult {
  readonly inputs: readonly InputResult[];
  readonly parameters: ParameterCount;
  readonly warnings: readonly ComputeWarning[];
}

export function scaleDivisor(scale: Scale, dk: number): number {
  switch (scale.kind) {
    case 'sqrt_dk': return Math.sqrt(dk);
    case 'none': return 1;
    case 'number': return scale.value;
  }
}

/** The mask of one input: causal hides later keys; an input's own mask hides where it holds 0. */
export function buildMask(spec: Spec, input: InputSpec): Uint8Array {
  const n = input.tokens.length;
  const masked = new Uint8Array(n * n);
  if (spec.mask === 'causal') {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) masked[i * n + j] = 1;
  }
  if (input.mask) {
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (!input.mask[i][j]) masked[i * n + j] = 1;
  }
  return masked;
}

export function embeddingMatrix(input: InputSpec, dModel: number): Matrix {
  const x = zeros(input.tokens.length, dModel);
  input.tokens.forEach((t, i) => x.data.set(t.embedding, i * dModel));
  return x;
}

export function computeHead(
  x: Matrix,
  head: HeadSpec,
  scale: Scale,
  masked: Uint8Array,
  onEmptyRow: (query: number) => void = () => {},
): HeadResult {
  const n = x.rows;
  // Identity weights are skipped rather than multiplied: Q = K = V = X in the seeds' recipe.
  const q = head.wq.identity ? x : matmul(x, head.wq.matrix);
  const k = head.wk.identity ? x : matmul(x, head.wk.matrix);
  const v = head.wv.identity ? x : matmul(x, head.wv.matrix);
  const scores = matmulTransposed(q, k);
  const divisor = scaleDivisor(scale, q.cols);
  const scaled = zeros(n, n);
  const weights = zeros(n, n);
  for (let i = 0; i < n; i++) {
    const s = row(scaled, i);
    const raw = row(scores, i);
    for (let j = 0; j < n; j++) s[j] = masked[i * n + j] ? -Infinity : raw[j] / divisor;
    if (!softmaxRow(s, row(weights, i), (j) => masked[i * n + j] === 1)) onEmptyRow(i);
  }
  return {
    name: head.name, dk: q.cols, dv: v.cols, q, k, v,
    scores, scaled, divisor, masked, weights, output: matmul(weights, v),
  };
}

/** Reports work done, in heads computed out of inputs × heads: for a progress line on long work. */
export type Progress = (done: number, total: number) => void;

export function computeAttention(spec: Spec, onProgress?: Progress): AttentionResult {
  const warnings: ComputeWarning[] = [];
  const total = spec.inputs.length * spec.heads.length;
  let done = 0;
  const inputs = spec.inputs.map((input, inputIndex): InputResult => {
    const x = embeddingMatrix(input, spec.dModel);
    const masked = buildMask(spec, input);
    const heads = spec.heads.map((head, headIndex) => {
      const result = computeHead(x, head, spec.scale, masked, (query) =>
        warnings.push({
          input: inputIndex, head: headIndex, query,
          message: `every key is masked for query ${quote(input.tokens[query].text)}: its weights are all 0 in every head`,
        }));
      onProgress?.(++done, total);
      return result;
    });
    const concat = heads.length === 1 ? heads[0].output : concatColumns(heads.map((h) => h.output));
    const output = spec.wo ? matmul(concat, spec.wo.matrix) : concat;
    return { name: input.name, tokens: input.tokens.map((t) => t.text), x, heads, concat, output };
  });
  return { inputs, parameters: countParameters(spec), warnings };
}

/** The terms of one dot product q_i · k_j, for hovers that write it out (10·10 + 6·6 = 136). */
export function scoreTerms(head: HeadResult, query: number, key: number): { q: number; k: number }[] {
  const qi = row(head.q, query);
  const kj = row(head.k, key);
  return Array.from(qi, (qv, t) => ({ q: qv, k: kj[t] }));
}
