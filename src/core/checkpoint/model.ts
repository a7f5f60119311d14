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
import { forward, keptBytes, type KeptRun } from './forward.js';
import { checkTensors, weightElements, Weights, type ModelNames } from './weights.js';
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
  /** Elements of the weights: all of them, and the largest tensor. */
  elements: { total: number; largest: number };
  /** Whether the decoded weights are kept between runs (and the last run's keys and values). */
  keep: boolean;
  /** The last run's keys, values and attention, when `keep`: the next run reuses its shared prefix. */
  kept?: KeptRun;
}

export interface LoadOptions {
  /** Keep the decoded weights (float32) between runs: for an editor that re-runs as the text changes. */
  keep?: boolean;
  /** Which file holds a tensor, for messages (default: the tensor is named alone). */
  where?: (name: string) => string;
}

export function loadModel(configText: string, tensors: ReadonlyMap<string, TensorRef>, options: LoadOptions = {}): LoadedModel {
  const config = readModelConfig(configText);
  const names = checkTensors(config, tensors, options.where ?? (() => 'model.safetensors'));
  const keep = options.keep ?? false;
  return { config, names, weights: new Weights(tensors, keep, names.parts), elements: weightElements(tensors, names), keep };
}

/**
 * Bytes a run of n tokens holds at its peak, from the shapes: the weights (all of them as float32
 * when kept, else the largest tensor as float32 and float64 plus the embedding), one layer's
 * activations in float64, one layer's attention weights in float64 and every layer's in float32,
 * and the matrix kernel's packed operands; when kept, the weight matrices as float64 instead, the last
 * run's keys, values and attention (counted at n tokens) and this run's keys and values.
 */
export function runBytes(m: LoadedModel, n: number): number {
  const c = m.config, E = c.dModel, F = c.ffn, Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  const embed = c.vocab * E;
  // Kept: the last run's keys, values and attention, and this run's keys and values (its attention is counted below).
  const weights = m.keep ? (m.elements.total - embed) * 8 + embed * 4 + keptBytes(c, n) + c.layers * n * KV * 2 * 8 : m.elements.largest * 12 + embed * 4;
  const activations = n * (6 * E + 3 * Q + 2 * KV + 3 * F) * 8;
  const attention = c.layers * c.heads * n * n * 4 + (c.heads + 2) * n * n * 8;
  const kernel = (n * F + E * F + n * F) * 8;
  return weights + activations + attention + kernel;
}

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 30 ? 2 : 1)} GB`;

/** The sentence refusing a run of n tokens over `budget` bytes, with the most tokens that fit; undefined when it fits. */
export function runRefusal(m: LoadedModel, n: number, budget: number): string | undefined {
  const need = runBytes(m, n);
  if (need <= budget) return undefined;
  const fits = mostTokens(m, budget, n);
  const advice = fits > 0 ? `use --max-tokens ${fits} or fewer` : 'the weights alone do not fit';
  return `a run of ${n} tokens on this ${m.config.type} model needs about ${gb(need)}, over the budget of ${gb(budget)}: ${advice}`;
}

/** The most tokens (at most `cap`) a run may take within `budget` bytes. */
export function mostTokens(m: LoadedModel, budget: number, cap = 1 << 21): number {
  let fits = 0;
  for (let step = 1 << 20; step >= 1; step >>= 1) if (fits + step <= cap && runBytes(m, fits + step) <= budget) fits += step;
  return fits;
}

/** The `count` most likely ids of the logits with their softmax probabilities, most likely first. */
export function topNext(logits: Float64Array, count: number, decodeOne: (id: number) => string): NextToken[] {
  let top = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i] > top) top = logits[i];
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i] - top);
  const best: number[] = [];
  for (let i = 0; i < logits.length; i++) {
    if (best.length < count || logits[i] > logits[best[best.length - 1]]) {
      best.push(i);
      best.sort((a, b) => logits[b] - logits[a] || a - b);
      if (best.length > count) best.pop();
    }
  }
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
}

/** Tokenizes `text` and runs the model over it. timings.loadMs is 0: the caller measured the loading. */
export function runText(m: LoadedModel, tokenizer: Tokenizer, text: string, options: RunOptions = {}): RunResult {
  const t0 = performance.now();
  // Only as much of the text is tokenized as the ids the run can use take: the first maxTokens, or one
  // past the limit to know the text is too long (an 8 MB text costs what its first ids cost). Learned
  // positions end at the context length; RoPE rotates any position (Hugging Face runs a Llama past
  // max_position_embeddings, and a dynamic RoPE exists for that), so there the budget is the limit.
  const { contextLength } = m.config;
  const limit = m.config.block.position === 'learned' ? contextLength : mostTokens(m, options.budget ?? DEFAULT_RUN_BYTES);
  const encoding = tokenizer.encode(text, options.maxTokens ?? limit + 1);
  let ids = encoding.ids, pieces = encoding.pieces;
  if (options.maxTokens !== undefined) {
    ids = ids.slice(0, options.maxTokens);
    pieces = pieces.slice(0, options.maxTokens);
  } else if (ids.length > contextLength && m.config.block.position === 'learned') {
    throw new ModelError(`the text is over ${contextLength} tokens, more than the model's context length of ${contextLength}: use --max-tokens to keep the first ones`);
  }
  if (ids.length === 0) throw new ModelError('the text has no tokens to run');
  const tokens = ids.map((id) => tokenizer.decodeOne(id));
  const t1 = performance.now();
  const refusal = options.refuse?.(ids.length) ?? runRefusal(m, ids.length, options.budget ?? DEFAULT_RUN_BYTES);
  if (refusal) throw new ModelError(refusal);
  // A run stopped part way (onLayer threw) leaves the kept run as it was.
  const { stopped, onLayer } = options;
  const stop = () => { if (stopped?.()) throw new RunStopped('the run was stopped'); };
  stop();
  const guess = guessing(m, pieces);
  const out = forward(m.config, m.names, m.weights, ids, {
    ...(m.keep ? { keep: true, ...(m.kept ? { reuse: m.kept } : {}) } : {}),
    ...(onLayer || stopped ? { onLayer: (layer: number) => { onLayer?.(layer); stop(); } } : {}),
  });
  if (out.kept) m.kept = out.kept;
  const decode = (id: number) => tokenizer.decodeOne(id);
  const next = out.logits.length > 0 ? topNext(out.logits, 5, decode) : [];
  const masked = guess.masked ? guess.at.map((position) => ({ position, guesses: topNext(out.logitsAt!(position), 5, decode) })) : undefined;
  const t2 = performance.now();
  return {
    model: summaryOf(m.config), ids, pieces, tokens, attention: out.attention, next, reused: out.reused,
    ...(masked ? { masked } : {}), ...(guess.note ? { note: guess.note } : {}),
    timings: { loadMs: 0, tokenizeMs: t1 - t0, forwardMs: t2 - t1 },
  };
}

/** The pieces an encoder's masked-token head guesses at: BERT's and DistilBERT's [MASK], RoBERTa's <mask>. */
export const MASK_TOKENS: readonly string[] = ['[MASK]', '<mask>'];

/** The most mask tokens a run guesses at (each guess is a vocabulary × d_model product: 39M for RoBERTa base). */
export const MAX_GUESSED = 64;

/**
 * Where an encoder (an MLM head) guesses: the positions of its mask tokens, or a sentence saying why
 * it guesses nowhere. A decoder guesses nowhere and says nothing (its next token is the last logits).
 */
function guessing(m: LoadedModel, pieces: readonly string[]): { at: number[]; masked: boolean; note?: string } {
  if (m.config.block.head !== 'mlm') return { at: [], masked: false };
  if (m.names.head === undefined) return { at: [], masked: false, note: `this ${m.config.type} checkpoint was saved without its masked-token head, so it guesses no token` };
  const all = pieces.flatMap((p, i) => (MASK_TOKENS.includes(p) ? [i] : []));
  const at = all.slice(0, MAX_GUESSED);
  if (all.length > at.length) return { at, masked: true, note: `the text holds ${all.length} mask tokens; the guesses are at the first ${MAX_GUESSED}` };
  return at.length > 0 ? { at, masked: true } : { at, masked: true, note: `the text holds no mask token (${MASK_TOKENS.join(' or ')}), the only place an encoder guesses a token` };
}
