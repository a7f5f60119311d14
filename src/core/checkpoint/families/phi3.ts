// Phi-3 as Hugging Face saves it (Phi-3-mini-4k-instruct, Phi-3.5-mini, model_type phi3): the rotary
// decoder's keys and block (shared/rotary-decoder.ts: RMSNorm, rotate-half RoPE, SwiGLU with silu, no
// biases, an lm_head unless tie_word_embeddings), with q, k and v saved in one qkv_proj
// [(heads + 2 · kv heads) · head_dim, hidden] (the q rows, then k, then v) and gate and up in one
// gate_up_proj [2 · intermediate, hidden] (gate rows, then up), read as parts of those tensors.
// sliding_window W (2047 in mini-4k): query i sees keys i − W < j ≤ i, as Hugging Face's
// masking_utils builds the mask; null or absent means full causal attention (Phi3Config's default).
// partial_rotary_factor (top level, or in transformers 5's rope_parameters) rotates the first
// int(head_dim · factor) dims of each head. Any rope_scaling but "default" (longrope, and su or yarn,
// which Phi3Config reads as longrope) is refused: attn applies plain RoPE.
import { isObject, type Obj } from '../../json/object.js';
import { ModelError } from '../error.js';
import { refuse, size } from './shared/config-keys.js';
import { tensorList, type AttentionKind, type Family, type FamilyConfig, type FamilyTensors, type LayerNames } from './shared/family.js';
import { rotaryDims } from './shared/partial-rotary.js';
import { readRotaryConfig, rotaryBlock } from './shared/rotary-decoder.js';

function attention(json: Obj, file: string): AttentionKind {
  if (json.sliding_window === undefined || json.sliding_window === null) return { kind: 'causal' };
  return { kind: 'sliding', window: size(json, file, ['sliding_window']) };
}

function refusals(json: Obj, file: string): void {
  const scaling = json.rope_scaling;
  if (scaling === undefined || scaling === null) return;
  const kind = isObject(scaling) ? scaling.rope_type ?? scaling.type : undefined;
  if (kind !== 'default') refuse(file, 'rope_scaling', scaling, 'attn applies plain RoPE; Phi-3\'s longrope (su) scaling is not implemented');
}

/** The rotated dims of each head: partial_rotary_factor's share, undefined for the whole head. */
function partial(json: Obj, file: string, headDim: number): number | undefined {
  const params = isObject(json.rope_parameters) ? json.rope_parameters : {};
  const inner = params.partial_rotary_factor, outer = json.partial_rotary_factor;
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(inner) && given(outer) && inner !== outer) {
    throw new ModelError(`${file}: "partial_rotary_factor" ${String(outer)} and "rope_parameters"'s partial_rotary_factor ${String(inner)} disagree; which one the model was trained with cannot be told`);
  }
  if (!given(inner) && !given(outer)) return undefined;
  const dims = rotaryDims(file, 'partial_rotary_factor', given(inner) ? inner : outer, headDim);
  return dims < headDim ? dims : undefined;
}

function readConfig(json: Obj, file: string): FamilyConfig {
  const config = readRotaryConfig(json, file, { attention, refusals });
  const dims = partial(json, file, config.headDim);
  return dims === undefined ? config : { ...config, rotaryDims: dims };
}

/** model.embed_tokens, model.layers.i.…, model.norm, lm_head unless tied; q, k, v, gate and up as rows of the fused tensors. */
function tensors(c: FamilyConfig): FamilyTensors {
  const { shapes, need, parts, part } = tensorList();
  const E = c.dModel, F = c.ffn, V = c.vocab;
  const Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
    const l = `model.layers.${i}.`;
    const qkv = need(`${l}self_attn.qkv_proj.weight`, [Q + 2 * KV, E]);
    const gateUp = need(`${l}mlp.gate_up_proj.weight`, [2 * F, E]);
    return {
      norm1: need(`${l}input_layernorm.weight`, [E]),
      q: part(`${qkv}[q]`, { of: qkv, blocks: 1, from: 0, count: Q }),
      k: part(`${qkv}[k]`, { of: qkv, blocks: 1, from: Q, count: KV }),
      v: part(`${qkv}[v]`, { of: qkv, blocks: 1, from: Q + KV, count: KV }),
      o: need(`${l}self_attn.o_proj.weight`, [E, Q]),
      norm2: need(`${l}post_attention_layernorm.weight`, [E]),
      gate: part(`${gateUp}[gate]`, { of: gateUp, blocks: 1, from: 0, count: F }),
      up: part(`${gateUp}[up]`, { of: gateUp, blocks: 1, from: F, count: F }),
      down: need(`${l}mlp.down_proj.weight`, [E, F]),
    };
  });
  const embed = need('model.embed_tokens.weight', [V, E]);
  const head = c.tied ? embed : need('lm_head.weight', [V, E]);
  return { names: { embed, layers, finalNorm: need('model.norm.weight', [E]), head, parts }, shapes };
}

export const phi3: Family<'phi3'> = {
  name: 'phi3',
  block: rotaryBlock(false),
  readConfig,
  tensors,
};
