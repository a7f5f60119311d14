// A checkpoint made ready to run, and one run of it over a text: the config read, every tensor's
// shape checked against it, the memory a run of n tokens needs estimated from the shapes (and
// refused in a sentence before anything is allocated), then tokenize → forward → the five most
// likely next tokens. Pure: the files come in already opened (core/files reads the folder). A model
// loaded to be kept (the editor's) also keeps its last run's keys and values, so the next run over a
// text that begins the same computes only the positions after the shared prefix (forward.ts).
import type { TensorRef } from '../tensors/attention-file.js';
import type { Tokenizer } from '../tokenizer/tokenizer.js';
import { readModelConfig, summaryOf, type ModelConfig } from './config.js';
import { ModelError } from './error.js';
import { productHelper } from '../kernels/product-helper.js';
import { forward, keptBytes, mlpBlockRows, type KeptRun } from './forward.js';
import { memoryQkStore, qkBytes, type QkStoreFactory } from '../model-attention/qk-store.js';
import { qkAttention, runPictureSide } from '../model-attention/qk-source.js';
import { thumbOf } from '../model-attention/scan.js';
import { BLOCK_CELLS } from '../attention/attend32.js';
import { numeric, type Precision } from './precision.js';
import { checkTensors, weightElements, Weights, type ModelNames, type WeightSizes } from './weights.js';
import type { NextToken, RunResult } from './types.js';

/** A run stopped by its caller between layers (a newer edit replaced it): no result, the model as it was. */
export class RunStopped extends Error {
  override name = 'RunStopped';
}

/** Memory one run may take unless the caller says otherwise: 3 GiB. */
export const DEFAULT_RUN_BYTES = 3 * 2 ** 30;

export interface LoadedModel {
  config: ModelConfig;
  names: ModelNames;
  weights: Weights;
  /** Elements of the weights (all of them, and the largest tensor) and their bytes as stored. */
  elements: WeightSizes;
  /** Whether the weights, as stored, are kept between runs (and the last run's keys and values). */
  keep: boolean;
  /** The forward pass's numeric form: 'f32' (the default) or 'f64' (the exact mode). */
  precision: Precision;
  /** Whether a run reads every weight before its forward pass (LoadOptions.preload). */
  preload?: boolean;
  /** The last run's keys, values and attention, when `keep`: the next run reuses its shared prefix. */
  kept?: KeptRun;
  /**
   * What the analyses keep of a kept model's last run for the next on the same text (core/model-analysis:
   * an ablation toggle starts from it); let go by any plain run, so it is never held past its text.
   */
  analysisKept?: unknown;
}

export interface LoadOptions {
  /** Keep the weights (as stored) between runs: for an editor that re-runs as the text changes. */
  keep?: boolean;
  /** 'f32' (the default) or 'f64'. */
  precision?: Precision;
  /**
   * Read every weight before the forward pass (timed as loading), where the run still fits the budget
   * holding them all; else one at a time as the pass asks. For a command that runs once.
   */
  preload?: boolean;
  /** Which file holds a tensor, for messages (default: the tensor is named alone). */
  where?: (name: string) => string;
}

export function loadModel(configText: string, tensors: ReadonlyMap<string, TensorRef>, options: LoadOptions = {}): LoadedModel {
  const config = readModelConfig(configText);
  const names = checkTensors(config, tensors, options.where ?? (() => 'model.safetensors'));
  const keep = options.keep ?? false;
  return {
    config, names, weights: new Weights(tensors, keep, names.parts), elements: weightElements(tensors, names), keep, precision: options.precision ?? 'f32',
    ...(options.preload ? { preload: true } : {}),
  };
}

/** What the estimate of a run's memory reads: shapes and stored sizes alone, no weights. */
export type RunShape = Pick<LoadedModel, 'config' | 'elements' | 'keep' | 'precision'>;

/**
 * Most bytes of every head's n × n a run keeps (float32): 1 GiB, GPT-2 small's 144 heads at 1,024
 * tokens (604 MB) and every model's short texts stay dense, so the analyses that need whole heads
 * (ablation's ablated attention, generation's prefixes, the norms) and the editor's reuse of a kept
 * prefix work as before; past it the n² term is more than any short run's weights-free part of the
 * budget (a Llama-3.2-1B at 2,048 tokens would keep 8.6 GB), so the run keeps q and k instead.
 */
export const DENSE_ATTENTION_MAX = 2 ** 30;

/** Most bytes of kept q and k held in memory; more go to a temporary file when the caller gives a file store. */
export const QK_MEMORY_MAX = 256 * 2 ** 20;

/** How a run keeps its attention: every head (dense), or each layer's q and k (in memory or a file). */
export interface RunPlan {
  attention: 'dense' | 'qk';
  /** With 'qk': where the q and k go. */
  qkIn?: 'memory' | 'file';
}

/** Bytes of every head's n × n (float32) a dense run of n tokens keeps. */
export function denseAttentionBytes(c: RunShape['config'], n: number): number {
  return c.layers * c.heads * n * n * 4;
}

/**
 * The plan of a run of n tokens: `attention` 'dense' or 'qk' as asked, or with 'auto' (the default)
 * dense up to DENSE_ATTENTION_MAX and qk past it (float32 only: the exact mode keeps whole heads);
 * q and k in a file when over QK_MEMORY_MAX and `fileStore` says the caller has one.
 */
export function runPlan(m: RunShape, n: number, options: { attention?: AttentionChoice; fileStore?: boolean } = {}): RunPlan {
  const asked = options.attention ?? 'auto';
  const qk = asked === 'qk' || (asked === 'auto' && m.precision === 'f32' && denseAttentionBytes(m.config, n) > DENSE_ATTENTION_MAX);
  if (!qk) return { attention: 'dense' };
  const c = m.config;
  const bytes = qkBytes({ layers: c.layers, heads: c.heads, kvHeads: c.kvHeads, headDim: c.headDim, n });
  return { attention: 'qk', qkIn: options.fileStore && bytes > QK_MEMORY_MAX ? 'file' : 'memory' };
}

/**
 * Bytes a run of n tokens holds at its peak, from the shapes: the weights as stored (all of them when
 * kept; else the largest tensor, a copy of a part of it, and the embedding, held for the tied head;
 * the float64 form also widens one matrix at a time); one layer's activations in the run's precision
 * and the products' outputs; the attention the run keeps (every layer's, float32) and the attention
 * op's float64 work for one head (scores, weights, mask) with q, k and v widened to it; when kept,
 * the last run's keys, values and attention (counted at n tokens) and this run's keys and values.
 */
export function runBytes(m: RunShape, n: number, plan: RunPlan = { attention: 'dense' }): number {
  const c = m.config, E = c.dModel, F = c.ffn, Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  const num = numeric(m.precision), bytes = m.elements.bytes;
  // The float64 form widens one product's matrix at a time, and its kernel packs a copy of it (the
  // embedding and the head are read a row, or a block of rows, at a time: never widened whole).
  const widened = m.precision === 'f64' ? m.elements.product * 16 : 0;
  const weights = (m.keep ? bytes.total : bytes.largest * 2 + bytes.embed) + widened;
  // The MLP's intermediate is a block of rows at a time (forward.ts).
  const activations = (n * (6 * E + 3 * Q + 2 * KV) + Math.min(n, mlpBlockRows(c)) * 4 * F) * num.bytes;
  if (plan.attention === 'qk') return weights + activations + qkRunBytes(m, n, plan);
  const keys = m.keep ? keptBytes(c, n, m.precision) + c.layers * n * KV * 2 * num.bytes : 0;
  const attention = denseAttentionBytes(c, n) + (c.heads + 2) * n * n * 8 + n * (Q + 2 * KV) * 8 * 2;
  return weights + keys + activations + attention;
}

/**
 * A qk run's own bytes: the kept q and k when in memory; one block of a head's weights (float32) and
 * a row of it widened with its entropy terms; the head's q, keys and values cut out of the layer's;
 * every head's thumbnail, picture, row scales and column maxima, and the pass's pooling of one head.
 */
function qkRunBytes(m: RunShape, n: number, plan: RunPlan): number {
  const c = m.config, D = c.headDim, heads = c.layers * c.heads;
  const kept = plan.qkIn === 'file' ? 0 : qkBytes({ layers: c.layers, heads: c.heads, kvHeads: c.kvHeads, headDim: D, n });
  const thumb = thumbOf({ layers: c.layers, heads: c.heads, n }).thumb, picture = runPictureSide(c.layers, c.heads, n);
  const block = Math.min(BLOCK_CELLS, n * n) * 4 * 2 + n * 8 * 3 + n * D * 4 * 3;
  // Per head: its thumbnail (float32), picture (a byte a pixel), each row's softmax max and sum
  // (float64) and each key column's strongest weight (float32, the head map's scales).
  return kept + block + heads * (thumb * thumb * 4 + picture * picture + n * 16 + n * 4) + picture * picture * 4;
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)} GB`;

/** The sentence refusing a run of n tokens over `budget` bytes, with the most tokens that fit; undefined when it fits. */
export function runRefusal(m: RunShape, n: number, budget: number, planOf?: (n: number) => RunPlan): string | undefined {
  const plan = planOf?.(n) ?? { attention: 'dense' };
  const need = runBytes(m, n, plan);
  if (need <= budget) return undefined;
  const fits = mostTokens(m, budget, n, planOf);
  const advice = fits > 0 ? `use --max-tokens ${fits} or fewer` : 'the weights alone do not fit';
  const weights = m.keep ? m.elements.bytes.total : m.elements.bytes.largest * 2 + m.elements.bytes.embed;
  const c = m.config;
  const kept = plan.attention === 'qk'
    ? `each layer's queries and keys (${gb(qkBytes({ layers: c.layers, heads: c.heads, kvHeads: c.kvHeads, headDim: c.headDim, n }))}${plan.qkIn === 'file' ? ', in a temporary file, not counted' : ', in memory'}) instead of every head's ${n} × ${n}`
    : `the attention it keeps${m.keep ? ', the kept keys and values' : ''}`;
  return `a run of ${n} tokens on this ${c.type} model needs about ${gb(need)} (${gb(weights)} of weights as stored, one layer's activations in ${m.precision === 'f64' ? 'float64' : 'float32'}, ${kept}), over the budget of ${gb(budget)}: ${advice}`;
}

/** The most tokens (at most `cap`) a run may take within `budget` bytes (each n by its plan: dense without one). */
export function mostTokens(m: RunShape, budget: number, cap = 1 << 21, planOf?: (n: number) => RunPlan): number {
  let fits = 0;
  for (let step = 1 << 20; step >= 1; step >>= 1) if (fits + step <= cap && runBytes(m, fits + step, planOf?.(fits + step)) <= budget) fits += step;
  return fits;
}

/** The `count` most likely ids of the logits with their softmax probabilities, most likely first. */
export function topNext(logits: Float64Array, count: number, decodeOne: (id: number) => string): NextToken[] {
  // One pass keeps the best `count` ids in order (larger logit first, the lower id among equals),
  // the next sums the softmax's denominator: a vocabulary of 150,000 is read twice, never sorted.
  const best: number[] = [];
  let top = -Infinity;
  for (let i = 0; i < logits.length; i++) {
    const v = logits[i];
    if (v > top) top = v;
    if (best.length === count && !(v > logits[best[count - 1]])) continue;
    let at = best.length < count ? best.length : count - 1;
    while (at > 0 && v > logits[best[at - 1]]) at--;
    best.splice(at, 0, i);
    if (best.length > count) best.pop();
  }
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - top);
  return best.map((id) => ({ id, token: decodeOne(id), p: Math.exp(logits[id] - top) / sum }));
}

export interface RunOptions {
  /** Keep the first N tokens; without it, more tokens than the context length are refused. */
  maxTokens?: number;
  /** Bytes the run may take (DEFAULT_RUN_BYTES). */
  budget?: number;
  /** The caller's own refusal once the number of tokens is known (the CLI's budget of printed numbers). */
  refuse?: (n: number) => string | undefined;
  /** Called after each layer of the forward pass; a caller stops the run by throwing (a cancelled run). */
  onLayer?: (layer: number) => void;
  /** Asked before the forward pass and after each layer: true stops the run with RunStopped. */
  stopped?: () => boolean;
  /** How the run keeps its attention (runPlan), or that by the number of tokens: runText's default is 'auto'; elsewhere dense. */
  attention?: AttentionChoice | ((n: number) => AttentionChoice);
  /** Makes a store in a file (checkpoint-files/qk-file-store.ts) for q and k over QK_MEMORY_MAX; without it they stay in memory. */
  qkStore?: QkStoreFactory;
}

export type AttentionChoice = 'dense' | 'qk' | 'auto';

/** Each n's plan under `options` (dense where they ask nothing). */
export function plannerFor(m: RunShape, options: Pick<RunOptions, 'attention' | 'qkStore'>): (n: number) => RunPlan {
  const { attention = 'dense' } = options, fileStore = options.qkStore !== undefined;
  return (n) => runPlan(m, n, { attention: typeof attention === 'function' ? attention(n) : attention, fileStore });
}

/**
 * Tokenizes `text` and runs the model over it. timings.loadMs is the time the weights took to read
 * before the pass (a preloading model's), 0 otherwise: the caller adds what it measured of the loading.
 */
export function runText(m: LoadedModel, tokenizer: Tokenizer, text: string, runOptions: RunOptions = {}): RunResult {
  const t0 = performance.now();
  m.analysisKept = undefined;
  const options = { ...runOptions, attention: runOptions.attention ?? 'auto' };
  const planOf = plannerFor(m, options);
  const { ids, pieces, tokens } = tokenizeFor(m, tokenizer, text, options);
  const t1 = performance.now();
  const refusal = options.refuse?.(ids.length) ?? runRefusal(m, ids.length, options.budget ?? DEFAULT_RUN_BYTES, planOf);
  if (refusal) throw new ModelError(refusal);
  const plan = planOf(ids.length);
  // A run stopped part way (onLayer threw) leaves the kept run as it was.
  const { stopped, onLayer } = options;
  const stop = () => { if (stopped?.()) throw new RunStopped('the run was stopped'); };
  stop();
  const guess = guessing(m, pieces);
  // A kept run of the other precision cannot be reused (its keys are of the other width): let it go
  // now rather than hold it through this run, which the estimate counts in this run's precision.
  // A qk run neither reuses nor keeps a run (a kept one holds every head): the kept one goes now.
  if (m.kept && (m.kept.precision !== m.precision || plan.attention === 'qk')) m.kept = undefined;
  const readMs = preloadFor(m, ids.length, options.budget);
  const t1read = performance.now();
  const store = plan.qkIn === 'file' ? options.qkStore! : memoryQkStore;
  const out = forward(m.config, m.names, m.weights, ids, {
    precision: m.precision,
    ...(plan.attention === 'qk' ? { attention: 'qk' as const, qk: { file: RUN_FILE, tokens, store } } : m.keep ? { keep: true, ...(m.kept ? { reuse: m.kept } : {}) } : {}),
    ...(onLayer || stopped ? { onLayer: (layer: number) => { onLayer?.(layer); stop(); } } : {}),
  });
  if (out.kept) m.kept = out.kept;
  const qk = out.qk ? {
    source: qkAttention(out.qk.run, { file: RUN_FILE, tokens }), pass: out.qk.pass, thumb: out.qk.thumb, picture: out.qk.picture,
    where: out.qk.run.store.kind, bytes: qkBytes(out.qk.run.store.shape),
  } : undefined;
  const decode = (id: number) => tokenizer.decodeOne(id);
  const next = out.logits.length > 0 ? topNext(out.logits, 5, decode) : [];
  const masked = guess.masked ? guess.at.map((position) => ({ position, guesses: topNext(out.logitsAt!(position), 5, decode) })) : undefined;
  const t2 = performance.now();
  return {
    model: { ...summaryOf(m.config), precision: m.precision }, ids, pieces, tokens, attention: out.attention, next, reused: out.reused,
    ...(masked ? { masked } : {}), ...(guess.note ? { note: guess.note } : {}), ...(qk ? { qk } : {}),
    timings: { loadMs: readMs, tokenizeMs: t1 - t0, forwardMs: t2 - t1read },
  };
}

/** What a run's attention source is called in messages (the host's name for the run's attention). */
export const RUN_FILE = 'the run';

/**
 * Reads every weight before a run of n tokens where the run fits the budget holding them all (a
 * preloading model's; the estimate of a kept model, which counts them all and more); else the pass
 * reads each as it needs it. The milliseconds it took (0 when it did not).
 */
export function preloadFor(m: LoadedModel, n: number, budget = DEFAULT_RUN_BYTES): number {
  if (!m.preload || m.keep || runRefusal({ ...m, keep: true }, n, budget) !== undefined) return 0;
  const r0 = performance.now();
  // The product's other threads boot meanwhile (a worker takes 50–100 ms to start).
  if (m.precision === 'f32') productHelper()?.prepare?.();
  m.weights.readAll(m.names);
  return performance.now() - r0;
}

/** The ids a run of `text` takes (the first maxTokens, or refused past a learned context), with their pieces and tokens. */
export function tokenizeFor(m: LoadedModel, tokenizer: Tokenizer, text: string, options: Pick<RunOptions, 'maxTokens' | 'budget' | 'attention' | 'qkStore'> = {}): { ids: number[]; pieces: string[]; tokens: string[] } {
  // Only as much of the text is tokenized as the ids the run can use take: the first maxTokens, or one
  // past the limit to know the text is too long (an 8 MB text costs what its first ids cost). Learned
  // positions end at the context length; RoPE rotates any position (Hugging Face runs a Llama past
  // max_position_embeddings, and a dynamic RoPE exists for that), so there the budget is the limit.
  const { contextLength } = m.config;
  const limit = m.config.block.position === 'learned' ? contextLength : mostTokens(m, options.budget ?? DEFAULT_RUN_BYTES, undefined, plannerFor(m, options));
  const encoding = tokenizer.encode(text, options.maxTokens ?? limit + 1);
  let ids = encoding.ids, pieces = encoding.pieces;
  if (options.maxTokens !== undefined) {
    ids = ids.slice(0, options.maxTokens);
    pieces = pieces.slice(0, options.maxTokens);
  } else if (ids.length > contextLength && m.config.block.position === 'learned') {
    throw new ModelError(`the text is over ${contextLength} tokens, more than the model's context length of ${contextLength}: use --max-tokens to keep the first ones`);
  }
  if (ids.length === 0) throw new ModelError('the text has no tokens to run');
  return { ids, pieces, tokens: ids.map((id) => tokenizer.decodeOne(id)) };
}

/** The pieces an encoder's masked-token head guesses at: BERT's and DistilBERT's [MASK], RoBERTa's <mask>. */
export const MASK_TOKENS: readonly string[] = ['[MASK]', '<mask>'];

/** The most mask tokens a run guesses at (each guess is a vocabulary × d_model product: 39M for RoBERTa base). */
export const MAX_GUESSED = 64;

/**
 * Where an encoder (an MLM head) guesses: the positions of its mask tokens, or a sentence saying why
 * it guesses nowhere. A decoder guesses nowhere and says nothing (its next token is the last logits).
 */
export function guessing(m: LoadedModel, pieces: readonly string[]): { at: number[]; masked: boolean; note?: string } {
  if (m.config.block.head !== 'mlm') return { at: [], masked: false };
  if (m.names.head === undefined) return { at: [], masked: false, note: `this ${m.config.type} checkpoint was saved without its masked-token head, so it guesses no token` };
  const all = pieces.flatMap((p, i) => (MASK_TOKENS.includes(p) ? [i] : []));
  const at = all.slice(0, MAX_GUESSED);
  if (all.length > at.length) return { at, masked: true, note: `the text holds ${all.length} mask tokens; the guesses are at the first ${MAX_GUESSED}` };
  return at.length > 0 ? { at, masked: true } : { at, masked: true, note: `the text holds no mask token (${MASK_TOKENS.join(' or ')}), the only place an encoder guesses a token` };
}
