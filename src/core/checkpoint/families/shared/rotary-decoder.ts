// The decoder shape Llama made common, shared by the descriptions of the families built on it: the
// sizes spelled hidden_size, num_attention_heads, num_key_value_heads (grouped-query attention when
// fewer), head_dim (else hidden / heads), intermediate_size; RMSNorm; RoPE with rope_theta or
// transformers 5's rope_parameters, scaled where the family allows it (rope-scaling.ts); SwiGLU with
// silu; nn.Linear matrices under model.layers.i.{self_attn,mlp}; the head tied only when
// tie_word_embeddings says so. What differs between those families is in each family's own file: its
// description's biases on q/k/v (which decide the bias tensors read) and q/k norms, which keys each
// query sees (a parameter here, per layer where layers differ), and whether RoPE may be scaled.
import type { Obj } from '../../../json/object.js';
import { ModelError } from '../../error.js';
import { flag, positive, refuse, size } from './config-keys.js';
import { tensorList, type AttentionKind, type BlockDescription, type FamilyConfig, type FamilyTensors, type LayerNames } from './family.js';
import { readRope } from './rope-scaling.js';

/**
 * The block the rotary decoders share: pre-RMSNorm, RoPE, nn.Linear matrices, separate q/k/v, SwiGLU;
 * `qkv` says whether q, k and v carry biases (o and the MLP never do), `qkNorm` whether each head's q
 * and k are RMS-normed before RoPE (Qwen3).
 */
export function rotaryBlock(qkv: boolean, qkNorm = false): BlockDescription {
  return {
    kind: 'sequential',
    norm: { kind: 'rmsnorm', placement: 'pre' },
    position: 'rope',
    matrices: 'linear',
    qkv: 'separate',
    bias: { qkv, o: false, mlp: false },
    mlp: 'swiglu',
    ...(qkNorm ? { qkNorm: true } : {}),
  };
}

export interface RotaryOptions {
  /** Which keys each query sees, from the config (refusing what the block does not compute): one kind for every layer, or one per layer. */
  attention: (json: Obj, file: string, layers: number) => AttentionKind | readonly AttentionKind[];
  /** The family's own refusals of keys its Hugging Face code reads and the block does not compute. */
  refusals?: (json: Obj, file: string) => void;
  /** Whether rope_scaling's linear, dynamic and llama3 are computed (Llama); otherwise refused. */
  scaledRope?: boolean;
}

/** Full causal attention; a config asking for Qwen2-style sliding windows (use_sliding_window) is refused. */
export function causalOnly(json: Obj, file: string): AttentionKind {
  // A flag, not `=== true`: Hugging Face slides for any truthy value (1, "true").
  if (flag(json, file, 'use_sliding_window', false)) refuse(file, 'use_sliding_window', true, 'attn computes full causal attention');
  return { kind: 'causal' };
}

export function readRotaryConfig(json: Obj, file: string, options: RotaryOptions): FamilyConfig {
  const dModel = size(json, file, ['hidden_size']);
  const heads = size(json, file, ['num_attention_heads']);
  const kvHeads = size(json, file, ['num_key_value_heads'], heads);
  if (heads % kvHeads !== 0) throw new ModelError(`${file}: "num_attention_heads" ${heads} is not a multiple of "num_key_value_heads" ${kvHeads}`);
  // A null head_dim is read as absent (size skips it), so the fallback's divisibility holds for it too.
  if ((json.head_dim === undefined || json.head_dim === null) && dModel % heads !== 0) throw new ModelError(`${file}: "hidden_size" ${dModel} is not a multiple of "num_attention_heads" ${heads} (and no "head_dim" is given)`);
  const headDim = size(json, file, ['head_dim'], dModel / heads);
  if (headDim % 2 !== 0) throw new ModelError(`${file}: "head_dim" ${headDim} is odd; RoPE rotates the two halves of a head`);
  const act = json.hidden_act ?? 'silu';
  if (act !== 'silu') refuse(file, 'hidden_act', act, 'attn computes SwiGLU with silu');
  const contextLength = size(json, file, ['max_position_embeddings'], 2048);
  const rope = readRope(json, file, { headDim, contextLength, scaled: options.scaledRope ?? false });
  options.refusals?.(json, file);
  const layers = size(json, file, ['num_hidden_layers']);
  const kinds = options.attention(json, file, layers);
  const perLayer = Array.isArray(kinds) && new Set(kinds.map((k) => JSON.stringify(k))).size > 1;
  const attention: AttentionKind = Array.isArray(kinds) ? kinds[0] : kinds as AttentionKind;
  return {
    layers,
    heads,
    kvHeads,
    dModel,
    headDim,
    vocab: size(json, file, ['vocab_size']),
    contextLength,
    ffn: size(json, file, ['intermediate_size']),
    eps: positive(json, file, 'rms_norm_eps', 1e-6),
    ropeTheta: rope.theta,
    ...(rope.scaling ? { ropeScaling: rope.scaling } : {}),
    tied: flag(json, file, 'tie_word_embeddings', false),
    attention,
    ...(perLayer ? { layerAttention: kinds as readonly AttentionKind[] } : {}),
  };
}

/**
 * model.embed_tokens, model.layers.i.…, model.norm, and lm_head unless tied; nn.Linear shapes [out,
 * in]; q_proj, k_proj and v_proj's biases where the description adds them (bias.qkv); self_attn's
 * q_norm and k_norm [head_dim] where it norms them (qkNorm).
 */
export function rotaryTensors(c: FamilyConfig, _has: (name: string) => boolean, block: BlockDescription): FamilyTensors {
  const { shapes, need } = tensorList();
  const E = c.dModel, F = c.ffn, V = c.vocab;
  const Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
    const l = `model.layers.${i}.`;
    const a = `${l}self_attn.`;
    return {
      norm1: need(`${l}input_layernorm.weight`, [E]),
      q: need(`${a}q_proj.weight`, [Q, E]), k: need(`${a}k_proj.weight`, [KV, E]), v: need(`${a}v_proj.weight`, [KV, E]),
      ...(block.bias.qkv ? { qBias: need(`${a}q_proj.bias`, [Q]), kBias: need(`${a}k_proj.bias`, [KV]), vBias: need(`${a}v_proj.bias`, [KV]) } : {}),
      ...(block.qkNorm ? { qNorm: need(`${a}q_norm.weight`, [c.headDim]), kNorm: need(`${a}k_norm.weight`, [c.headDim]) } : {}),
      o: need(`${a}o_proj.weight`, [E, Q]),
      norm2: need(`${l}post_attention_layernorm.weight`, [E]),
      gate: need(`${l}mlp.gate_proj.weight`, [F, E]), up: need(`${l}mlp.up_proj.weight`, [F, E]), down: need(`${l}mlp.down_proj.weight`, [E, F]),
    };
  });
  const embed = need('model.embed_tokens.weight', [V, E]);
  const head = c.tied ? embed : need('lm_head.weight', [V, E]);
  return { names: { embed, layers, finalNorm: need('model.norm.weight', [E]), head }, shapes };
}
