// GPT-NeoX as Hugging Face saves it (Pythia, GPT-NeoX-20B's layout, model_type gpt_neox): LayerNorm
// with biases, q, k and v from one query_key_value [3 · hidden, hidden] laid out per head (its
// outputs viewed as (heads, 3 · head_dim): head h's q, then its k, then its v), read as parts of that
// tensor; RoPE on the first int(head_dim · rotary_pct) dims of each head (base rotary_emb_base,
// rotate-half within them), the rest untouched; dense (the output projection) and the MLP
// dense_h_to_4h, exact (erf) GELU, dense_4h_to_h, all with biases (attention_bias false drops those
// of query_key_value and dense); x + attn(ln1(x)) + mlp(ln2(x)) when use_parallel_residual (the
// default), else one after the other; embed_out untied unless tie_word_embeddings. transformers 5
// saves rope_parameters { rope_theta, partial_rotary_factor } instead, read the same; a top-level
// rope_theta or partial_rotary_factor that disagrees with the key read is refused, as is any
// rope_scaling (linear and dynamic are not implemented for this family) and any hidden_act but gelu.
import { isObject, type Obj } from '../../json/object.js';
import { shown } from '../../json/shown.js';
import { ModelError } from '../error.js';
import { flag, multiple, positive, refuse, size } from './shared/config-keys.js';
import { tensorList, type BlockDescription, type Family, type FamilyConfig, type FamilyTensors, type LayerNames } from './shared/family.js';
import { thetaOverflow } from '../rope-frequencies.js';
import { rotaryDims } from './shared/partial-rotary.js';

const BLOCK: BlockDescription = {
  kind: 'parallel',
  norm: { kind: 'layernorm', placement: 'pre' },
  position: 'rope',
  matrices: 'linear',
  qkv: 'separate',
  bias: { qkv: true, o: true, mlp: true },
  mlp: 'gelu',
};

interface Read { key: string; value: unknown }

/**
 * A RoPE setting from rope_parameters' `inner` (transformers 5, which prefers it) or the top-level
 * `outer` (Pythia's own keys, which transformers 4 prefers), `fallback` when neither is given; `also`
 * is a top-level key some saves write beside `outer` (rope_theta beside rotary_emb_base). Any of
 * them given beside the one read must agree with it: which one the model was trained with could not
 * be told otherwise.
 */
function ropeKey(json: Obj, file: string, inner: string, outer: string, also: string, fallback: number): Read {
  const given = (v: unknown) => v !== undefined && v !== null;
  const params = json.rope_parameters;
  let read: Read = { key: outer, value: fallback };
  if (isObject(params) && given(params[inner])) read = { key: `rope_parameters.${inner}`, value: params[inner] };
  else if (given(json[outer])) read = { key: outer, value: json[outer] };
  for (const key of [outer, also]) {
    if (key !== read.key && given(json[key]) && json[key] !== read.value) {
      throw new ModelError(`${file}: "${key}" ${shown(json[key])} and "${read.key}" ${shown(read.value)} disagree; which one the model was trained with cannot be told`);
    }
  }
  return read;
}

function readConfig(json: Obj, file: string): FamilyConfig {
  const dModel = size(json, file, ['hidden_size']);
  const heads = size(json, file, ['num_attention_heads']);
  multiple(file, 'hidden_size', dModel, 'num_attention_heads', heads);
  const headDim = dModel / heads;
  const act = json.hidden_act ?? 'gelu';
  if (act !== 'gelu') refuse(file, 'hidden_act', act, 'attn computes this MLP with the exact (erf) GELU, "gelu"');
  if (json.rope_scaling !== undefined && json.rope_scaling !== null) refuse(file, 'rope_scaling', json.rope_scaling, 'attn applies plain RoPE; linear and dynamic scaling are not implemented here');
  const params = json.rope_parameters;
  if (params !== undefined && params !== null) {
    const kind = isObject(params) ? params.rope_type ?? params.type ?? 'default' : undefined;
    if (kind !== 'default' || Object.values(params as Obj).some(isObject)) refuse(file, 'rope_parameters', params, 'attn applies plain RoPE, one setting for every layer');
  }
  const contextLength = size(json, file, ['max_position_embeddings'], 2048);
  const base = ropeKey(json, file, 'rope_theta', 'rotary_emb_base', 'rope_theta', 10000);
  const theta = positive({ [base.key]: base.value }, file, base.key, 10000);
  const share = ropeKey(json, file, 'partial_rotary_factor', 'rotary_pct', 'partial_rotary_factor', 0.25);
  const dims = rotaryDims(file, share.key, share.value, headDim);
  if (thetaOverflow(theta, dims, contextLength)) refuse(file, base.key, theta, `RoPE's angle position / θ^(2i/${dims}) overflows at ${contextLength} positions`);
  const biased = flag(json, file, 'attention_bias', true);
  return {
    layers: size(json, file, ['num_hidden_layers']),
    heads,
    kvHeads: heads,
    dModel,
    headDim,
    vocab: size(json, file, ['vocab_size']),
    contextLength,
    ffn: size(json, file, ['intermediate_size']),
    eps: positive(json, file, 'layer_norm_eps', 1e-5),
    ropeTheta: theta,
    rotaryDims: dims,
    tied: flag(json, file, 'tie_word_embeddings', false),
    attention: { kind: 'causal' },
    block: { ...BLOCK, kind: flag(json, file, 'use_parallel_residual', true) ? 'parallel' : 'sequential', bias: { qkv: biased, o: biased, mlp: true } },
  };
}

/** gpt_neox.embed_in, gpt_neox.layers.i.…, gpt_neox.final_layer_norm, embed_out unless tied; q, k and v as each head's rows of query_key_value. */
function tensors(c: FamilyConfig, _has: (name: string) => boolean, block: BlockDescription): FamilyTensors {
  const { shapes, need, parts, part } = tensorList();
  const E = c.dModel, F = c.ffn, V = c.vocab, H = c.heads, D = c.headDim;
  const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
    const l = `gpt_neox.layers.${i}.`, a = `${l}attention.`;
    const qkv = need(`${a}query_key_value.weight`, [3 * E, E]);
    const rows = (name: string, role: number) => part(`${name}[${'qkv'[role]}]`, { of: name, blocks: H, from: role * D, count: D });
    const biases = block.bias.qkv ? need(`${a}query_key_value.bias`, [3 * E]) : undefined;
    return {
      norm1: need(`${l}input_layernorm.weight`, [E]), norm1Bias: need(`${l}input_layernorm.bias`, [E]),
      q: rows(qkv, 0), k: rows(qkv, 1), v: rows(qkv, 2),
      ...(biases ? { qBias: rows(biases, 0), kBias: rows(biases, 1), vBias: rows(biases, 2) } : {}),
      o: need(`${a}dense.weight`, [E, E]),
      ...(block.bias.o ? { oBias: need(`${a}dense.bias`, [E]) } : {}),
      norm2: need(`${l}post_attention_layernorm.weight`, [E]), norm2Bias: need(`${l}post_attention_layernorm.bias`, [E]),
      fc: need(`${l}mlp.dense_h_to_4h.weight`, [F, E]), fcBias: need(`${l}mlp.dense_h_to_4h.bias`, [F]),
      proj: need(`${l}mlp.dense_4h_to_h.weight`, [E, F]), projBias: need(`${l}mlp.dense_4h_to_h.bias`, [E]),
    };
  });
  const embed = need('gpt_neox.embed_in.weight', [V, E]);
  const head = c.tied ? embed : need('embed_out.weight', [V, E]);
  return {
    names: { embed, layers, finalNorm: need('gpt_neox.final_layer_norm.weight', [E]), finalNormBias: need('gpt_neox.final_layer_norm.bias', [E]), head, parts },
    shapes,
  };
}

export const gpt_neox: Family<'gpt_neox'> = {
  name: 'gpt_neox',
  block: BLOCK,
  readConfig,
  tensors,
};
