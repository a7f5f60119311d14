// A model folder's config.json read into the few numbers the forward pass needs, for the three
// architectures it computes (gpt2, llama, qwen2). Each spells its sizes its own way (GPT-2's n_embd,
// Llama's hidden_size); here they become one ModelConfig. Anything the forward pass would compute
// wrongly (an unknown model_type, a rope_scaling variant, sliding-window attention) is refused in a
// sentence naming config.json and the key, rather than run to numbers that only look right.
import { isObject, type Obj } from '../json/object.js';
import { shown } from '../json/shown.js';
import type { Architecture, ModelSummary } from './types.js';

/** A folder that cannot run: the message names the file or tensor at fault and says what is wrong. */
export class ModelError extends Error {
  override name = 'ModelError';
}

export interface ModelConfig extends ModelSummary {
  /** Width of the MLP's hidden layer. */
  ffn: number;
  /** The norms' epsilon (LayerNorm for gpt2, RMSNorm for llama and qwen2). */
  eps: number;
  /** RoPE's base (llama, qwen2); 0 for gpt2, which learns its positions. */
  ropeTheta: number;
  /** Whether the output head is the embedding matrix (llama/qwen2's tie_word_embeddings; gpt2 decides from its tensors). */
  tied: boolean;
  /** q, k and v have biases (gpt2's c_attn, qwen2's q/k/v_proj). */
  qkvBias: boolean;
}

const ARCHITECTURES: readonly Architecture[] = ['gpt2', 'llama', 'qwen2'];
/** Largest size we believe (a config asking for more is a typo or hostile; the budget refuses the rest). */
const MAX_SIZE = 1 << 24;

export function readModelConfig(text: string, file = 'config.json'): ModelConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ModelError(`${file}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(json)) throw new ModelError(`${file}: expected a JSON object`);
  const type = json.model_type;
  if (typeof type !== 'string') throw new ModelError(`${file}: "model_type" is missing (gpt2, llama or qwen2)`);
  if (!(ARCHITECTURES as readonly string[]).includes(type)) {
    throw new ModelError(`${file}: model_type ${shown(type)} is not supported (attn runs gpt2, llama and qwen2)`);
  }
  return type === 'gpt2' ? gpt2Config(json, file) : llamaConfig(json, type as Architecture, file);
}

/** A whole number ≥ 1 under `key` (or the first of `keys` present), `fallback` when absent. */
function size(json: Obj, file: string, keys: readonly string[], fallback?: number): number {
  const key = keys.find((k) => json[k] !== undefined && json[k] !== null);
  if (key === undefined) {
    if (fallback !== undefined) return fallback;
    throw new ModelError(`${file}: "${keys[0]}" is missing (a whole number ≥ 1)`);
  }
  const v = json[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_SIZE) {
    throw new ModelError(`${file}: "${key}" must be a whole number from 1 to ${MAX_SIZE}, got ${shown(v)}`);
  }
  return v;
}

/** A positive finite number under `key`, `fallback` when absent. */
function positive(json: Obj, file: string, key: string, fallback: number): number {
  const v = json[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new ModelError(`${file}: "${key}" must be a positive number, got ${shown(v)}`);
  return v;
}

function flag(json: Obj, file: string, key: string, fallback: boolean): boolean {
  const v = json[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new ModelError(`${file}: "${key}" must be true or false, got ${shown(v)}`);
  return v;
}

/** Refuses a key whose value would change the computation in a way we do not implement. */
function refuse(file: string, key: string, value: unknown, why: string): never {
  throw new ModelError(`${file}: "${key}": ${shown(value)} is not supported (${why})`);
}

function gpt2Config(json: Obj, file: string): ModelConfig {
  const dModel = size(json, file, ['n_embd']);
  const heads = size(json, file, ['n_head']);
  if (dModel % heads !== 0) throw new ModelError(`${file}: "n_embd" ${dModel} is not a multiple of "n_head" ${heads}`);
  const activation = json.activation_function ?? 'gelu_new';
  if (activation !== 'gelu_new' && activation !== 'gelu_pytorch_tanh') refuse(file, 'activation_function', activation, 'attn computes gelu_new, the tanh approximation');
  if (json.scale_attn_by_inverse_layer_idx === true) refuse(file, 'scale_attn_by_inverse_layer_idx', true, 'scores are divided by √head_dim only');
  if (json.scale_attn_weights === false) refuse(file, 'scale_attn_weights', false, 'scores are divided by √head_dim');
  return {
    type: 'gpt2',
    layers: size(json, file, ['n_layer']),
    heads,
    kvHeads: heads,
    dModel,
    headDim: dModel / heads,
    vocab: size(json, file, ['vocab_size']),
    contextLength: size(json, file, ['n_positions', 'n_ctx']),
    ffn: size(json, file, ['n_inner'], 4 * dModel),
    eps: positive(json, file, 'layer_norm_epsilon', 1e-5),
    ropeTheta: 0,
    tied: true,
    qkvBias: true,
  };
}

function llamaConfig(json: Obj, type: Architecture, file: string): ModelConfig {
  const dModel = size(json, file, ['hidden_size']);
  const heads = size(json, file, ['num_attention_heads']);
  const kvHeads = size(json, file, ['num_key_value_heads'], heads);
  if (heads % kvHeads !== 0) throw new ModelError(`${file}: "num_attention_heads" ${heads} is not a multiple of "num_key_value_heads" ${kvHeads}`);
  if (json.head_dim === undefined && dModel % heads !== 0) throw new ModelError(`${file}: "hidden_size" ${dModel} is not a multiple of "num_attention_heads" ${heads} (and no "head_dim" is given)`);
  const headDim = size(json, file, ['head_dim'], dModel / heads);
  if (headDim % 2 !== 0) throw new ModelError(`${file}: "head_dim" ${headDim} is odd; RoPE rotates the two halves of a head`);
  const act = json.hidden_act ?? 'silu';
  if (act !== 'silu') refuse(file, 'hidden_act', act, 'attn computes SwiGLU with silu');
  const scaling = json.rope_scaling;
  if (scaling !== undefined && scaling !== null) {
    const kind = isObject(scaling) ? scaling.rope_type ?? scaling.type : undefined;
    if (kind !== 'default') refuse(file, 'rope_scaling', scaling, 'attn applies plain RoPE; scaled variants such as llama3, linear, dynamic or yarn are not implemented');
  }
  if (json.attention_bias === true) refuse(file, 'attention_bias', true, 'attn computes llama without attention biases');
  if (json.mlp_bias === true) refuse(file, 'mlp_bias', true, 'attn computes llama without MLP biases');
  if (json.use_sliding_window === true) refuse(file, 'use_sliding_window', true, 'attn computes full causal attention');
  return {
    type,
    layers: size(json, file, ['num_hidden_layers']),
    heads,
    kvHeads,
    dModel,
    headDim,
    vocab: size(json, file, ['vocab_size']),
    contextLength: size(json, file, ['max_position_embeddings'], 2048),
    ffn: size(json, file, ['intermediate_size']),
    eps: positive(json, file, 'rms_norm_eps', 1e-6),
    ropeTheta: positive(json, file, 'rope_theta', 10000),
    tied: flag(json, file, 'tie_word_embeddings', false),
    qkvBias: type === 'qwen2',
  };
}

/** The config's shape as `attn run --json` prints it (contextLength is kept for our own use). */
export function summaryOf(c: ModelConfig): ModelSummary {
  return { type: c.type, layers: c.layers, heads: c.heads, kvHeads: c.kvHeads, dModel: c.dModel, headDim: c.headDim, vocab: c.vocab, contextLength: c.contextLength };
}
