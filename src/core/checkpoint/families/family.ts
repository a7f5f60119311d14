// What a model family is to the runner: one description, read by one generic block. A description
// says, as data, how a layer computes (norm kind and placement, positions, attention, MLP, block
// shape, where each matrix's numbers sit in its tensor), and, as two small functions, what its
// config.json keys mean and what its tensors are called. The forward pass, the lens and the loader
// read only this, so a family that fits these kinds is one file and one registry line; a family that
// needs a new kind adds it here and to the block, once, for every family after it.
import type { Obj } from '../../json/object.js';

/** LayerNorm ((x − mean) / √(var + eps) · w + b) or RMSNorm (x / √(mean(x²) + eps) · w). */
export type NormKind = 'layernorm' | 'rmsnorm';
/**
 * Where the norms sit: pre (x += f(norm(x)), most families); post (x = norm(x + f(x)), BERT);
 * sandwich (x += norm(f(norm(x))), Gemma 2 and 3: a second norm on each sublayer's output before
 * the residual add). The block computes pre and sandwich and refuses post.
 */
export type NormPlacement = 'pre' | 'post' | 'sandwich';
/** Learned position rows added to the embeddings, RoPE on q and k, or none. */
export type PositionKind = 'learned' | 'rope' | 'none';
/** y = x · W with W stored [in, out] (GPT-2's Conv1D), or y = x · Wᵀ with W stored [out, in] (nn.Linear). */
export type MatrixLayout = 'conv1d' | 'linear';
/** q, k and v from one matrix (its output columns q | k | v, in that order) or from three. */
export type QkvLayout = 'fused' | 'separate';
/**
 * gelu_new(x · W_fc + b) · W_proj + b (GPT-2), down(silu(gate(x)) · up(x)) (SwiGLU), or
 * down(gelu_tanh(gate(x)) · up(x)) (GeGLU with the tanh approximation, Gemma's gelu_pytorch_tanh).
 */
export type MlpKind = 'gelu-new' | 'swiglu' | 'geglu';
/** x += attn(norm1(x)); x += mlp(norm2(x)) in turn, or x += attn(n1(x)) + mlp(n2(x)) from the same x (GPT-NeoX). The block computes sequential only. */
export type BlockKind = 'sequential' | 'parallel';

/**
 * Which keys a query sees. causal: keys 0…i. sliding: the last `window` of them, i − window < j ≤ i
 * (Mistral's sliding_window). bidirectional: every key (encoders; the block refuses it until it computes one).
 * Grouped-query attention is not a kind: it is kvHeads < heads.
 */
export type AttentionKind = { kind: 'causal' } | { kind: 'sliding'; window: number } | { kind: 'bidirectional' };

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
  /** Each head's q and k RMS-normed over head_dim (weights qNorm, kNorm) before RoPE (Gemma 3). Absent: not normed. */
  readonly qkNorm?: boolean;
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
  /** c · tanh(s / c) on the scaled scores (before the mask) and on the final logits (Gemma 2); absent: none. */
  softcap?: { attention?: number; final?: number };
  /** What the scores are divided by; absent: √headDim (Gemma 2 and 3: √query_pre_attn_scalar). */
  scoreDivisor?: number;
  /** Each layer's attention where layers differ (Gemma 2 and 3's sliding and global layers); absent: `attention` for every layer. */
  layerAttention?: readonly AttentionKind[];
  /**
   * Each layer's RoPE where it is not `ropeTheta` unscaled (Gemma 3's sliding layers rotate with a
   * base of their own; a linear scaling divides every frequency by its factor); absent: `ropeTheta`.
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
  /** qkNorm: each head's q and k norm weights [headDim]. */
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

export interface ModelNames {
  embed: string;
  /** position: 'learned'. */
  positions?: string;
  layers: LayerNames[];
  finalNorm: string; finalNormBias?: string;
  /** The output head: the embedding matrix when tied. */
  head: string;
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

/** Records each name's expected shape as it is named: `need(name, shape)` returns the name. */
export function tensorList(): { shapes: Map<string, number[]>; need: (name: string, shape: number[]) => string } {
  const shapes = new Map<string, number[]>();
  return { shapes, need: (name, shape) => { shapes.set(name, shape); return name; } };
}
