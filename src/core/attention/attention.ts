// Scaled dot-product attention, every intermediate kept: for each input and head,
// Q = X·W_Q, K = X·W_K, V = X·W_V, scores = Q·Kᵀ, scaled = scores ÷ s (masked entries hidden),
// weights = softmax(scaled) row by row, output = weights·V; then the heads side by side, then W_O.
// A spec is a one-layer model on the core's one attention op (attend.ts): this file projects the
// embeddings, hands the op the heads and the input's mask, and keeps what the op records.
import { concatColumns, matmul, matmulEach, row, zeros, type Matrix } from '../linalg/matrix.js';
import { countParameters, type ParameterCount } from './parameters.js';
import type { HeadSpec, InputSpec, Scale, Spec } from '../spec/spec.js';
import { quote } from '../json/quote.js';
import { attend, maskBytes } from './attend.js';
import { headRowsOf, valueNorms, valueWeighted } from './value-norms.js';

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
  /** ‖v_j W_O^h‖₂ for each key j (n × 1): only when the spec has W_O (value-norms.ts). */
  readonly valueNorms?: Matrix;
  /** Value-weighted attention α_ij · ‖v_j W_O^h‖₂ (n × n, 0 on masked keys): only when the spec has W_O. */
  readonly norms?: Matrix;
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

/**
 * The compute's own result, every intermediate kept (scaled scores included). Readers outside the
 * core read the result model made from it (core/result/attention-data.ts), which shares its arrays.
 */
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

/**
 * The mask of one input (n × n, 1 = hidden): causal hides later keys; an input's own mask hides
 * where it holds 0. The op's own mask bytes (attend.ts), so the spec and the op hide the same keys.
 */
export function buildMask(spec: Spec, input: InputSpec): Uint8Array {
  const n = input.tokens.length;
  let own: Uint8Array | undefined;
  if (input.mask) {
    own = new Uint8Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (!input.mask[i][j]) own[i * n + j] = 1;
  }
  return maskBytes(n, spec.mask === 'causal' ? 'causal' : 'none', own);
}

export function embeddingMatrix(input: InputSpec, dModel: number): Matrix {
  const x = zeros(input.tokens.length, dModel);
  input.tokens.forEach((t, i) => x.data.set(t.embedding, i * dModel));
  return x;
}

export interface Projection {
  readonly q: Matrix;
  readonly k: Matrix;
  readonly v: Matrix;
}

/**
 * Q, K and V of every head. Identity weights are skipped rather than multiplied: Q = K = V = X in the
 * seeds' recipe. The rest go through one matmulEach, so the embeddings are packed once for all heads.
 */
export function projectHeads(x: Matrix, heads: readonly HeadSpec[]): Projection[] {
  const weights = heads.flatMap((h) => [h.wq, h.wk, h.wv]).filter((w) => !w.identity).map((w) => w.matrix);
  const products = matmulEach(x, weights);
  let next = 0;
  const take = (w: HeadSpec['wq']) => (w.identity ? x : products[next++]);
  return heads.map((h) => {
    const q = take(h.wq), k = take(h.wk), v = take(h.wv);
    return { q, k, v };
  });
}

/**
 * Some heads of one input through the op, every intermediate recorded, with the queries whose every
 * key was masked: what each thread of a compute runs (heads-thread.ts), so both give the same bits.
 * The mask goes to the op as bytes (the causal part folded in by buildMask), so every row is its
 * full row as the webview's decode makes it from the same bytes (core/result/derived.ts), an
 * overflowing row's NaN included.
 */
export function computeHeads(
  x: Matrix, heads: readonly HeadSpec[], scale: Scale, masked: Uint8Array,
  onHead?: (head: number) => void, projections: readonly Projection[] = projectHeads(x, heads),
): HelpedHead[] {
  const layer = attend({
    q: projections.map((p) => p.q), k: projections.map((p) => p.k), v: projections.map((p) => p.v),
    divisor: projections.map((p) => scaleDivisor(scale, p.q.cols)),
    hidden: masked,
    record: { q: true, k: true, v: true, scores: true, scaled: true, mask: true },
    onHead,
  });
  return heads.map((head, i) => {
    const h = layer.heads[i];
    const result: HeadResult = {
      name: head.name, dk: h.q!.cols, dv: h.v!.cols, q: h.q!, k: h.k!, v: h.v!,
      scores: h.scores!, scaled: h.scaled!, divisor: h.divisor, masked: layer.mask!, weights: h.weights, output: h.output,
    };
    return { result, emptyRows: h.emptyRows };
  });
}

/** Reports work done, in heads computed out of inputs × heads: for a progress line on long work. */
export type Progress = (done: number, total: number) => void;

/** A head computed elsewhere, with the queries whose every key was masked (in order). */
export interface HelpedHead {
  readonly result: HeadResult;
  readonly emptyRows: readonly number[];
}

/**
 * Computes some of an input's heads on another thread while the caller computes the others: `start`
 * hands them over and returns the function that waits for their results (computeHeads', so the same
 * bits), or undefined when it declines (too little work to be worth a hand-over, or no thread here).
 * Node's entry points (the analysis worker, the CLI) pass one to computeAttention
 * (core/threads/heads-thread.ts); the webview never does, and everything runs on its one thread.
 */
export interface HeadsHelper {
  start(x: Matrix, heads: readonly HeadSpec[], scale: Scale, masked: Uint8Array): (() => HelpedHead[]) | undefined;
  /** a · b (matmul's very numbers), or undefined when it declines: the later rows of concat · W_O. */
  startProduct?(a: Matrix, b: Matrix): (() => Float64Array) | undefined;
}

export interface ComputeOptions {
  /**
   * Takes half the heads (and the later rows of concat · W_O) to another thread: Node's entry points
   * pass one (core/threads/heads-thread.ts); without it everything runs on the calling thread.
   */
  readonly helper?: HeadsHelper;
  readonly onProgress?: Progress;
}

/**
 * concat · W_O, the later half of its rows on the helper's thread when there is one that takes them:
 * each row of a product is its own sums (matmul's, the same bits however the rows are split).
 */
function outputProduct(concat: Matrix, wo: Matrix, helper: HeadsHelper | undefined): Matrix {
  const split = Math.floor(concat.rows / 8) * 4;
  const part = (from: number, to: number): Matrix => ({ rows: to - from, cols: concat.cols, data: concat.data.subarray(from * concat.cols, to * concat.cols) });
  const helped = split > 0 ? helper?.startProduct?.(part(split, concat.rows), wo) : undefined;
  if (!helped) return matmul(concat, wo);
  const top = matmul(part(0, split), wo);
  const out = zeros(concat.rows, wo.cols);
  out.data.set(top.data);
  out.data.set(helped(), split * wo.cols);
  return out;
}

export function computeAttention(spec: Spec, options: ComputeOptions = {}): AttentionResult {
  const { helper, onProgress } = options;
  const warnings: ComputeWarning[] = [];
  const total = spec.inputs.length * spec.heads.length;
  let done = 0;
  const inputs = spec.inputs.map((input, inputIndex): InputResult => {
    const x = embeddingMatrix(input, spec.dModel);
    const masked = buildMask(spec, input);
    const onEmptyRow = (headIndex: number) => (query: number) => warnings.push({
      input: inputIndex, head: headIndex, query,
      message: `every key is masked for query ${quote(input.tokens[query].text)}: its weights are all 0 in every head`,
    });
    // The later half of the heads to the helper, if there is one and it takes them; the rest here.
    const mine = spec.heads.length > 1 && helper ? Math.ceil(spec.heads.length / 2) : spec.heads.length;
    const helped = mine < spec.heads.length ? helper?.start(x, spec.heads.slice(mine), spec.scale, masked) : undefined;
    const here = helped ? spec.heads.slice(0, mine) : spec.heads;
    const heads: HeadResult[] = [];
    for (const [headIndex, { result, emptyRows }] of computeHeads(x, here, spec.scale, masked, () => onProgress?.(++done, total)).entries()) {
      heads.push(result);
      emptyRows.forEach(onEmptyRow(headIndex));
    }
    if (helped) {
      for (const [offset, { result, emptyRows }] of helped().entries()) {
        // An identity projection is the embeddings themselves (projectHeads), here as on this thread.
        const head = spec.heads[mine + offset];
        heads.push({
          ...result, masked,
          q: head.wq.identity ? x : result.q,
          k: head.wk.identity ? x : result.k,
          v: head.wv.identity ? x : result.v,
        });
        emptyRows.forEach(onEmptyRow(mine + offset));
        onProgress?.(++done, total);
      }
    }
    const concat = heads.length === 1 ? heads[0].output : concatColumns(heads.map((h) => h.output));
    const output = spec.wo ? outputProduct(concat, spec.wo.matrix, helper) : concat;
    return { name: input.name, tokens: input.tokens.map((t) => t.text), x, heads: spec.wo ? withNorms(heads, spec.wo.matrix) : heads, concat, output };
  });
  return { inputs, parameters: countParameters(spec), warnings };
}

/**
 * Each head with its value-weighted attention: ‖v_j W_O^h‖ from its rows of W_O (those after the
 * earlier heads' d_v, as concat lays the outputs side by side) and the norms α_ij · ‖v_j W_O^h‖.
 */
function withNorms(heads: readonly HeadResult[], wo: Matrix): HeadResult[] {
  let from = 0;
  return heads.map((h) => {
    const norms = valueNorms(h.v, headRowsOf(wo, from, h.dv));
    from += h.dv;
    return { ...h, valueNorms: norms, norms: valueWeighted(h.weights, norms) };
  });
}

/** The terms of one dot product q_i · k_j, for hovers that write it out (10·10 + 6·6 = 136). */
export function scoreTerms(head: HeadResult, query: number, key: number): { q: number; k: number }[] {
  const qi = row(head.q, query);
  const kj = row(head.k, key);
  return Array.from(qi, (qv, t) => ({ q: qv, k: kj[t] }));
}
