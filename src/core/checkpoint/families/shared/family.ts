// What a model family is to the runner: one description, read by one generic block. A description
// says, as data, how a layer computes (norm kind and placement, positions, attention, MLP, block
// shape, where each matrix's numbers sit in its tensor), and, as two small functions, what its
// config.json keys mean and what its tensors are called. The forward pass, the lens and the loader
// read only this, so a family that fits these kinds is one file and one registry line; a family that
// needs a new kind adds it here and to the block, once, for every family after it.
import type { Obj } from '../../../json/object.js';

/** LayerNorm ((x − mean) / √(var + eps) · w + b) or RMSNorm (x / √(mean(x²) + eps) · w). */
export type NormKind = 'layernorm' | 'rmsnorm';
/**
 * Where the norms sit: pre (x += f(norm(x)), most families); post (x = norm(x + f(x)), BERT);
 * sandwich (x += norm(f(norm(x))), Gemma 2 and 3: a second norm on each sublayer's output before
 * the residual add). The block computes all three (sandwich with RMSNorm only).
 */
export type NormPlacement = 'pre' | 'post' | 'sandwich';
/** Learned position rows added to the embeddings, RoPE on q and k, or none. */
export type PositionKind = 'learned' | 'rope' | 'none';
/** y = x · W with W stored [in, out] (GPT-2's Conv1D), or y = x · Wᵀ with W stored [out, in] (nn.Linear). */
export type MatrixLayout = 'conv1d' | 'linear';
/** q, k and v from one matrix (its output columns q | k | v, in that order) or from three. */
export type QkvLayout = 'fused' | 'separate';
/**
 * gelu_new(x · W_fc + b) · W_proj + b (GPT-2), the same with the exact (erf) GELU (BERT, GPT-NeoX),
 * down(silu(gate(x)) · up(x)) (SwiGLU), or down(gelu_tanh(gate(x)) · up(x)) (GeGLU with the tanh
 * approximation, Gemma's gelu_pytorch_tanh).
 */
export type MlpKind = 'gelu-new' | 'gelu' | 'swiglu' | 'geglu';
/** x += attn(norm1(x)); x += mlp(norm2(x)) in turn, or x += attn(n1(x)) + mlp(n2(x)) from the same x (GPT-NeoX). */
export type BlockKind = 'sequential' | 'parallel';

/**
 * Which keys a query sees. causal: keys 0…i. sliding: the last `window` of them, i − window < j ≤ i
 * (Mistral's sliding_window). bidirectional: every key (encoders).
 * Grouped-query attention is not a kind: it is kvHeads < heads.
 */
export type AttentionKind = { kind: 'causal' } | { kind: 'sliding'; window: number } | { kind: 'bidirectional' };

/**
 * RoPE's frequencies other than the default 1 / θ^(2i/d), as Hugging Face's rope_type computes them:
 * linear divides every one by `factor`; dynamic (NTK) raises the base for a run of n > `original`
 * tokens; llama3 divides the low frequencies by `factor`, keeps the high ones and blends between.
 */
export type RopeScaling =
  | { kind: 'linear'; factor: number }
  | { kind: 'dynamic'; factor: number; original: number }
  | { kind: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; original: number };

/** How every layer of a family computes: data, the same for every model of the family. */
export interface BlockDescription {
  readonly kind: BlockKind;
  /**
   * `offset`: RMSNorm multiplies by (offset + w) rather than w: 1 for Gemma's zero-centred norm
   * weights; absent is 0 (every other family).
   */
  readonly norm: { readonly kind: NormKind; readonly placement: NormPlacement; readonly offset?: number };
  readonly position: PositionKind;
  readonly matrices: MatrixLayout;
  readonly qkv: QkvLayout;
  /** Which products add a bias (the tensors are named by the description's `tensors`). */
  readonly bias: { readonly qkv: boolean; readonly o: boolean; readonly mlp: boolean };
  readonly mlp: MlpKind;
  /** RMSNorm over each head's q and k (head_dim wide, one weight per layer for all heads, offset as `norm` says), before RoPE (Qwen3, Gemma 3). */
  readonly qkNorm?: boolean;
  /**
   * Encoders (BERT): token type 0's row is added to every position's embedding, and the sum is
   * LayerNormed (names.tokenType, names.embedNorm). Absent: the token (and position) rows alone.
   */
  readonly embeddings?: { readonly tokenType: boolean; readonly norm: boolean };
  /**
   * 'lm' (absent): the last position's logits predict the next token. 'mlm': a masked-language-model
   * head (dense, the MLP's GELU, LayerNorm, then the decoder plus its bias) guesses the token at the
   * positions the caller asks for (the mask tokens); a checkpoint saved without it has no head at all.
   */
  readonly head?: 'lm' | 'mlm';
  /**
   * The embedding rows multiplied by √dModel, the factor rounded through float32 to the embedding
   * tensor's dtype as the model's own code rounds it (Gemma: 45.25 stays, √1152 ≈ 33.94 is 34 in
   * BF16). Absent: not scaled.
   */
  readonly embedScale?: 'sqrt-d-model';
}

/** A model's sizes, whatever its family: what `attn run --json` prints under "model" beside the family. */
export interface ModelSizes {
  layers: number;
  /** Query heads per layer. */
  heads: number;
  /** Key/value heads per layer (fewer than `heads` under grouped-query attention). */
  kvHeads: number;
  dModel: number;
  headDim: number;
  vocab: number;
  /** The longest input the model was trained for (n_positions / max_position_embeddings). */
  contextLength: number;
}

/** One model's numbers and per-model kinds, read from its config.json by its family. */
export interface FamilyConfig extends ModelSizes {
  /** Width of the MLP's hidden layer. */
  ffn: number;
  /** The norms' epsilon. */
  eps: number;
  /** RoPE's base; 0 for a family with learned positions. */
  ropeTheta: number;
  /** Whether the output head is the embedding matrix (a family whose tensors decide says so in `tensors`). */
  tied: boolean;
  attention: AttentionKind;
  /**
   * Each layer's attention where layers differ (Qwen2's max_window_layers or layer_types, Gemma 2
   * and 3's sliding and global layers); absent: `attention` for every layer.
   */
  layerAttention?: readonly AttentionKind[];
  /** RoPE's frequency scaling (rope_scaling); absent: the default frequencies. */
  ropeScaling?: RopeScaling;
  /**
   * RoPE on the first `rotaryDims` of each head only (GPT-NeoX's rotary_pct, partial_rotary_factor),
   * its frequencies 1 / θ^(2i / rotaryDims), the rest of the head as projected. Absent: the whole head.
   */
  rotaryDims?: number;
  /** This model's block where its config changes the family's (GPT-NeoX's use_parallel_residual). Absent: the family's. */
  block?: BlockDescription;
  /**
   * Learned positions counted as RoBERTa counts them: position ids from paddingIdx + 1, a token equal
   * to paddingIdx taking row paddingIdx and not advancing the count. Absent: positions 0, 1, 2, ….
   */
  paddingIdx?: number;
  /** Rows of the token type embedding (type_vocab_size) where the description adds token type 0's row. */
  tokenTypes?: number;
  /** c · tanh(s / c) on the scaled scores (before the mask) and on the final logits (Gemma 2); absent: none. */
  softcap?: { attention?: number; final?: number };
  /** What the scores are divided by; absent: √headDim (Gemma 2 and 3: √query_pre_attn_scalar). */
  scoreDivisor?: number;
  /**
   * Each layer's RoPE where it is not `ropeTheta` unscaled (Gemma 3's sliding layers rotate with a
   * base of their own; a linear scaling divides every frequency by its factor); absent: `ropeTheta`
   * and `ropeScaling` for every layer.
   */
  layerRope?: readonly LayerRope[];
}

/** One layer's RoPE: its base θ, and a linear scaling's factor. */
export interface LayerRope {
  theta: number;
  linear?: number;
}

/** The names the forward pass reads, per layer. Which are present follows the description's kinds. */
export interface LayerNames {
  norm1: string; norm1Bias?: string;
  /** qkv: 'fused': one matrix whose output columns are q | k | v. */
  qkv?: string; qkvBias?: string;
  /** qkv: 'separate'. */
  q?: string; k?: string; v?: string; qBias?: string; kBias?: string; vBias?: string;
  /** qkNorm: the RMSNorm weights [headDim] of q and k, one for every head. */
  qNorm?: string; kNorm?: string;
  o: string; oBias?: string;
  /** placement 'sandwich': the norms on the attention's and the MLP's outputs, before each residual add. */
  postAttnNorm?: string; postMlpNorm?: string;
  norm2: string; norm2Bias?: string;
  /** mlp: 'gelu-new'. */
  fc?: string; fcBias?: string; proj?: string; projBias?: string;
  /** mlp: 'swiglu' or 'geglu'. */
  gate?: string; up?: string; down?: string;
}

/**
 * A tensor the forward pass reads that a checkpoint saves inside another (a fused projection): the
 * saved tensor's first dimension is `blocks` equal runs, and the part is rows from…from + count − 1
 * of each run, the runs' rows one after another (a 1-D tensor's rows are its elements). Phi-3's q is
 * one run of qkv_proj, its first heads · head_dim rows; GPT-NeoX's q is row 0…D − 1 of each head's
 * run of 3 · D.
 */
export interface TensorPart {
  readonly of: string;
  readonly blocks: number;
  readonly from: number;
  readonly count: number;
}

export interface ModelNames {
  embed: string;
  /** position: 'learned'. */
  positions?: string;
  /** embeddings.tokenType: the token type embedding (row 0 is read); embeddings.norm: the LayerNorm over the sum. */
  tokenType?: string;
  embedNorm?: string; embedNormBias?: string;
  layers: LayerNames[];
  /** head 'mlm': the transform's dense layer (its GELU follows), before finalNorm. */
  headTransform?: string; headTransformBias?: string;
  /** The norm before the output head (the MLM transform's LayerNorm); absent without a head. */
  finalNorm?: string; finalNormBias?: string;
  /** The output head: the embedding matrix when tied; absent for an encoder saved without its MLM head. */
  head?: string;
  /** The decoder's bias (head 'mlm'). */
  headBias?: string;
  /** Names above that are parts of a saved tensor (read by Weights, never saved under their own name). */
  parts?: ReadonlyMap<string, TensorPart>;
}

/** Every tensor a model reads, named, with the shape its config implies. */
export interface FamilyTensors {
  names: ModelNames;
  shapes: Map<string, number[]>;
}

export interface Family<Name extends string = string> {
  /** config.json's model_type. */
  readonly name: Name;
  readonly block: BlockDescription;
  /** config.json's keys read into the model's numbers; a key the block would compute wrongly is refused, naming `file` and the key. */
  readonly readConfig: (json: Obj, file: string) => FamilyConfig;
  /**
   * The tensors' names and shapes; `has` says whether the files hold a name (for layouts that vary
   * between saves); `block` is the description, whose biases say which bias tensors are read.
   */
  readonly tensors: (c: FamilyConfig, has: (name: string) => boolean, block: BlockDescription) => FamilyTensors;
}

/** The keys a layer's queries see: its own kind where layers differ, else the model's. */
export function attentionOf(c: FamilyConfig, layer: number): AttentionKind {
  return c.layerAttention?.[layer] ?? c.attention;
}

/**
 * Records each name's expected shape as it is named: `need(name, shape)` returns the name; and the
 * parts read from a saved tensor: `part(name, where)` records where `name` sits and returns it.
 */
export function tensorList(): {
  shapes: Map<string, number[]>; need: (name: string, shape: number[]) => string;
  parts: Map<string, TensorPart>; part: (name: string, where: TensorPart) => string;
} {
  const shapes = new Map<string, number[]>(), parts = new Map<string, TensorPart>();
  return {
    shapes, need: (name, shape) => { shapes.set(name, shape); return name; },
    parts, part: (name, where) => { parts.set(name, where); return name; },
  };
}
