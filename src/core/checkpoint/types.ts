// The contract of the model runner: what a checkpoint folder is read into, and what one forward pass
// gives back. The CLI (`attn run`), the extension host and the tests all speak these types, so the
// forward pass behind them can change (kernels, threads) without touching its callers.
import type { ModelSizes } from './families/shared/family.js';
import type { FamilyName } from './families/index.js';
import type { AttentionSource } from '../tensors/attention-source.js';
import type { PassResult } from '../tensors/pass.js';

/** The model's shape, as `attn run --json` prints it under "model". */
export interface ModelSummary extends ModelSizes {
  /** The model's family (families/registry.ts). */
  type: FamilyName;
  /** A run's numeric form: 'f32' (the default) or 'f64'. */
  precision?: 'f32' | 'f64';
}

/** One of the most likely next tokens at the last position. */
export interface NextToken {
  id: number;
  /** The id decoded alone. */
  token: string;
  /** Its softmax probability. */
  p: number;
}

/** An encoder's guess at one position holding the mask token: the five most likely tokens there. */
export interface MaskedGuess {
  /** The position (0-based) of the mask token. */
  position: number;
  /** Most likely first. */
  guesses: NextToken[];
}

/** What one forward pass over a text gives back. */
export interface RunResult {
  model: ModelSummary;
  ids: number[];
  /** Vocabulary strings of the ids ("Ġcat"). */
  pieces: string[];
  /** Each id decoded alone (" cat"). */
  tokens: string[];
  /** Per layer, the weights of every query head, [heads, n, n] row-major (query rows, key columns). */
  attention: Float32Array[];
  /** The five most likely next tokens, most likely first (empty for an encoder, which guesses masked tokens instead). */
  next: NextToken[];
  /** An encoder with its masked-token head: the guess at each mask token of the text, in order (none when it holds none). */
  masked?: MaskedGuess[];
  /** Why a model gives no guess at all (an encoder saved without its head, or a text without a mask token). */
  note?: string;
  timings: { loadMs: number; tokenizeMs: number; forwardMs: number };
  /** Leading positions taken from the previous run of a kept model (a text that begins the same) rather than computed. */
  reused?: number;
  /** A run that kept q and k instead of every head (model.ts runPlan): `attention` then holds empty arrays. */
  qk?: RunQk;
}

/** What a run that keeps no n × n gives instead: its attention as a source computed from q and k, and the pass it made. */
export interface RunQk {
  /** Any rows of any head, F32, the dense run's bits; close() lets q and k go (a file store deletes its file). */
  source: AttentionSource;
  /** Every head's statistics, thumbnails (side `thumb`) and pictures (side `picture`, 0: none), layer-major. */
  pass: PassResult;
  thumb: number;
  picture: number;
  /** Where q and k are kept, and their bytes. */
  where: 'memory' | 'file';
  bytes: number;
}

/**
 * The seeds' lens on one real head: the numbers that head's attention is computed from, so the spec
 * views can show them. `x` is what the head reads (the residual stream after the layer's norm), one
 * row per token; q and k are as the scores use them (after RoPE where the family rotates them).
 */
export interface HeadLens {
  layer: number;
  head: number;
  /** The key/value head this query head reads (head under multi-head attention). */
  kvHead: number;
  tokens: string[];
  /** [n, dModel] row-major: the residual stream at the layer's input. */
  residual: Float64Array;
  /** [n, dModel] row-major: after the layer's norm, what W_Q, W_K and W_V multiply. */
  x: Float64Array;
  /** [dModel, headDim] row-major, in y = x · W form (a Conv1D's layout; an nn.Linear's transposed). */
  wq: Float64Array;
  wk: Float64Array;
  wv: Float64Array;
  /** [headDim] each, or undefined where the architecture has none. */
  bq?: Float64Array;
  bk?: Float64Array;
  bv?: Float64Array;
  /** [headDim, dModel]: this head's rows of the output projection. */
  wo: Float64Array;
  /** [n, headDim]: the queries, keys and values the scores are computed from (RoPE applied to q and k). */
  q: Float64Array;
  k: Float64Array;
  v: Float64Array;
  /** Whether q and k are rotated by position (RoPE), so q ≠ x · W_Q + b. */
  rotary: boolean;
  /** The divisor of the scores (√headDim; √query_pre_attn_scalar in Gemma 2 and 3). */
  scale: number;
  /** c where the scaled scores are softcapped, c · tanh(s / c), before the softmax; undefined where they are not. */
  softcap?: number;
  /** A sliding-window head's window W (query i sees keys i − W < j ≤ i); undefined for a causal head. */
  window?: number;
  /** An encoder's head: every query sees every key (no mask at all); undefined for a causal head. */
  bidirectional?: true;
  /** [n, n]: the head's weights, as the forward pass computed them. */
  weights: Float64Array;
  dModel: number;
  headDim: number;
}
