// The decoder shape Gemma 1, 2 and 3 share, read for the three descriptions (../gemma.ts, ../gemma2.ts,
// ../gemma3_text.ts), each of which says which of its parts it has. Common to all, as Hugging Face's
// modelling code computes them: RMSNorm times (1 + w) (zero-centred weights, the norm computed in
// float32 there, float64 here); the embeddings times √hidden_size, the factor held in the weights'
// dtype; GeGLU with the tanh GELU (hidden_activation, default gelu_pytorch_tanh; hidden_act is not
// read by that code, so neither here); head_dim given (256 when absent); the head tied unless
// tie_word_embeddings is false; RoPE on the two halves of each head, with rope_scaling default or
// linear. Gemma 2 adds sandwich norms, scores divided by √query_pre_attn_scalar and softcapped
// (attn_logit_softcapping) before the mask, final logits softcapped (final_logit_softcapping),
// and sliding-window layers (window sliding_window: query i sees keys i − W < j ≤ i) on the even
// layers unless layer_types says otherwise. Gemma 3 adds per-head q and k norms, and its sliding
// layers rotate with rope_local_base_freq while its global ones use rope_theta and rope_scaling;
// its pattern is layer_types, else every sliding_window_pattern-th layer global. Whatever a config
// asks that this does not compute is refused in one sentence naming config.json and the key.
import { isObject, type Obj } from '../../../json/object.js';
import { shown } from '../../../json/shown.js';
import { ModelError } from '../../error.js';
import { thetaOverflow } from '../../rope-frequencies.js';
import { flag, positive, refuse, size } from './config-keys.js';
import { tensorList, type AttentionKind, type BlockDescription, type FamilyConfig, type FamilyTensors, type LayerNames, type LayerRope } from './family.js';

export interface GegluOptions {
  /** Norms on each sublayer's output too (post_attention_layernorm, pre_ and post_feedforward_layernorm). */
  sandwich: boolean;
  /** q_norm and k_norm on each head before RoPE. */
  qkNorm: boolean;
  /** Scores divided by √query_pre_attn_scalar (default 256) rather than √head_dim. */
  queryScalar: boolean;
  /**
   * The softcaps read: absent from config.json means `defaults` (null means none); 'ignored' is a
   * key the family's code stores but never applies, refused unless null (which was trained cannot be
   * told); undefined: the family's code reads no softcap.
   */
  softcaps?: { attention: number | null | 'ignored'; final: number | null };
  /** Which layers slide: none, every `period`-th global (layer i global when (i + 1) % period == 0), read from `patternKey` when given. */
  sliding?: { period: number; patternKey?: string };
  /** The sliding layers' RoPE base, from this key (default 10,000), unscaled; absent: every layer rope_theta. */
  localThetaKey?: string;
  /** rope_theta when absent. */
  theta: number;
  /** max_position_embeddings when absent. */
  context: number;
  /** Refuse a truthy use_bidirectional_attention (the key exists for Gemma 3 embedding models). */
  bidirectionalKey?: boolean;
  /**
   * The sizes the family's config class takes when a key is absent (Gemma 3's multimodal configs
   * leave most of text_config to them); absent: those keys are required.
   */
  sizes?: Readonly<Record<'hidden_size' | 'num_attention_heads' | 'num_key_value_heads' | 'num_hidden_layers' | 'vocab_size' | 'intermediate_size', number>>;
}

/** The block: RMSNorm × (1 + w), pre or sandwich; RoPE; nn.Linear; separate q/k/v, no biases; GeGLU; √d-scaled embeddings. */
export function gegluBlock(o: Pick<GegluOptions, 'sandwich' | 'qkNorm'>): BlockDescription {
  return {
    kind: 'sequential',
    norm: { kind: 'rmsnorm', placement: o.sandwich ? 'sandwich' : 'pre', offset: 1 },
    position: 'rope',
    matrices: 'linear',
    qkv: 'separate',
    bias: { qkv: false, o: false, mlp: false },
    mlp: 'geglu',
    ...(o.qkNorm ? { qkNorm: true } : {}),
    embedScale: 'sqrt-d-model',
  };
}

const SLIDING = 'sliding_attention', FULL = 'full_attention';

export function readGegluConfig(json: Obj, file: string, o: GegluOptions): FamilyConfig {
  const d = o.sizes;
  const dModel = size(json, file, ['hidden_size'], d?.hidden_size);
  const heads = size(json, file, ['num_attention_heads'], d?.num_attention_heads);
  const kvHeads = size(json, file, ['num_key_value_heads'], d?.num_key_value_heads);
  if (heads % kvHeads !== 0) throw new ModelError(`${file}: "num_attention_heads" ${heads} is not a multiple of "num_key_value_heads" ${kvHeads}`);
  const headDim = size(json, file, ['head_dim'], 256);
  if (headDim % 2 !== 0) throw new ModelError(`${file}: "head_dim" ${headDim} is odd; RoPE rotates the two halves of a head`);
  const layers = size(json, file, ['num_hidden_layers'], d?.num_hidden_layers);
  const act = json.hidden_activation ?? 'gelu_pytorch_tanh';
  if (act !== 'gelu_pytorch_tanh' && act !== 'gelu_new') refuse(file, 'hidden_activation', act, 'attn computes GeGLU with the tanh GELU, gelu_pytorch_tanh');
  if (flag(json, file, 'attention_bias', false)) refuse(file, 'attention_bias', true, 'attn computes this family without attention biases');
  if (o.bidirectionalKey && flag(json, file, 'use_bidirectional_attention', false)) refuse(file, 'use_bidirectional_attention', true, 'attn computes causal attention');
  const contextLength = size(json, file, ['max_position_embeddings'], o.context);
  const rope = readRopes(json, file, o);
  for (const [key, r] of [['rope_theta', rope.global], [o.localThetaKey ?? 'rope_theta', rope.local]] as const) if (r) checkedTheta(file, key, r.theta, headDim, contextLength);
  const theta = rope.global.theta, linear = rope.global.linear;
  const global: LayerKind = { attention: { kind: 'causal' }, rope: rope.global };
  const kinds = o.sliding ? slidingLayers(json, file, layers, o, global, rope.local) : linear !== undefined ? Array.from({ length: layers }, () => global) : undefined;
  const softcap = o.softcaps ? readSoftcaps(json, file, o.softcaps) : undefined;
  return {
    layers,
    heads,
    kvHeads,
    dModel,
    headDim,
    vocab: size(json, file, ['vocab_size'], d?.vocab_size),
    contextLength,
    ffn: size(json, file, ['intermediate_size'], d?.intermediate_size),
    eps: positive(json, file, 'rms_norm_eps', 1e-6),
    ropeTheta: theta,
    tied: flag(json, file, 'tie_word_embeddings', true),
    attention: { kind: 'causal' },
    ...(o.queryScalar ? { scoreDivisor: Math.sqrt(positive(json, file, 'query_pre_attn_scalar', 256)) } : {}),
    ...(softcap && (softcap.attention !== undefined || softcap.final !== undefined) ? { softcap } : {}),
    // Every layer alike unless the model slides or scales (a single RoPE then stays the shared table).
    ...(kinds ? { layerAttention: kinds.map((k) => k.attention), layerRope: kinds.map((k) => k.rope) } : {}),
  };
}

/** A RoPE base whose angles are finite at every position, or refused naming `key`. */
function checkedTheta(file: string, key: string, theta: number, headDim: number, context: number): number {
  const overflow = thetaOverflow(theta, headDim, context);
  if (overflow) refuse(file, key, theta, overflow);
  return theta;
}

type Rope = LayerRope;

/** One layer's attention kind and RoPE. */
interface LayerKind {
  attention: AttentionKind;
  rope: Rope;
}

/**
 * The global layers' RoPE and, with a local base key, the sliding layers': from rope_theta,
 * rope_scaling and the local base key (transformers before 5), or from rope_parameters
 * (transformers 5: one { rope_type, rope_theta, factor } object, or one per layer type,
 * "full_attention" and "sliding_attention", where the family's layers rotate differently).
 */
function readRopes(json: Obj, file: string, o: GegluOptions): { global: Rope; local?: Rope } {
  const local = o.localThetaKey;
  const params = json.rope_parameters;
  if (params === undefined || params === null) {
    return {
      global: { theta: positive(json, file, 'rope_theta', o.theta), ...linearOf(json.rope_scaling, file, 'rope_scaling') },
      ...(local ? { local: { theta: positive(json, file, local, 10000) } } : {}),
    };
  }
  const no = (why: string) => refuse(file, 'rope_parameters', params, why);
  if (!isObject(params)) return no('it must be an object');
  if (json.rope_scaling !== undefined && json.rope_scaling !== null) refuse(file, 'rope_scaling', json.rope_scaling, 'rope_parameters is given too; which one the model was trained with cannot be told');
  const nested = Object.values(params).some(isObject);
  if (!local) {
    if (nested) return no('attn reads one { "rope_type", "rope_theta" } for every layer of this family');
    return { global: ropeOf(json, file, params, 'rope_theta', o.theta) };
  }
  const types = Object.keys(params);
  if (!nested || types.some((t) => t !== FULL && t !== SLIDING || !isObject(params[t]))) return no(`attn reads one object for "${FULL}" and one for "${SLIDING}"`);
  return {
    global: ropeOf(json, file, isObject(params[FULL]) ? params[FULL] : {}, 'rope_theta', o.theta),
    local: ropeOf(json, file, isObject(params[SLIDING]) ? params[SLIDING] : {}, local, 10000),
  };
}

/** One layer type's rope_parameters: its rope_theta (else the older key `thetaKey`, else `fallback`), and a linear factor. */
function ropeOf(json: Obj, file: string, p: Obj, thetaKey: string, fallback: number): Rope {
  const older = positive(json, file, thetaKey, fallback);
  const theta = positive(p, `${file}: "rope_parameters"`, 'rope_theta', older);
  if (json[thetaKey] !== undefined && json[thetaKey] !== null && theta !== older) {
    throw new ModelError(`${file}: "${thetaKey}" ${older} and "rope_parameters"'s rope_theta ${theta} disagree; which one the model was trained with cannot be told`);
  }
  return { theta, ...linearOf(p, file, 'rope_parameters', json.rope_parameters) };
}

/** A rope_scaling-shaped object's linear factor ({} when default or absent); any other kind refused, naming `key`. */
function linearOf(scaling: unknown, file: string, key: string, shownValue: unknown = scaling): { linear?: number } {
  if (scaling === undefined || scaling === null) return {};
  const kind = isObject(scaling) ? scaling.rope_type ?? scaling.type ?? 'default' : undefined;
  if (kind === 'default') return {};
  if (kind !== 'linear' || !isObject(scaling)) return refuse(file, key, shownValue, 'attn computes default and linear RoPE for this family');
  const factor = scaling.factor;
  if (typeof factor !== 'number' || !(factor > 0) || !Number.isFinite(factor)) return refuse(file, key, shownValue, 'a linear scaling needs a positive "factor"');
  return { linear: factor };
}

/** Each layer sliding (window, the local RoPE where the family has one) or global, from layer_types or the period. */
function slidingLayers(json: Obj, file: string, layers: number, o: GegluOptions, global: LayerKind, localRope: Rope | undefined): LayerKind[] {
  if (json.sliding_window === null) refuse(file, 'sliding_window', null, 'the sliding layers need a window, a whole number of keys');
  const window = size(json, file, ['sliding_window'], 4096);
  const local: LayerKind = { attention: { kind: 'sliding', window } satisfies AttentionKind, rope: localRope ?? global.rope };
  const types = json.layer_types;
  if (types !== undefined && types !== null) {
    if (!Array.isArray(types) || types.length !== layers) {
      throw new ModelError(`${file}: "layer_types" must list one of "${SLIDING}" or "${FULL}" for each of the ${layers} layers, got ${shown(types)}`);
    }
    return types.map((t, i) => {
      if (t === SLIDING) return local;
      if (t === FULL) return global;
      return refuse(file, 'layer_types', t, `layer ${i}: attn computes "${SLIDING}" and "${FULL}" layers`);
    });
  }
  const period = o.sliding!.patternKey ? size(json, file, [o.sliding!.patternKey], o.sliding!.period) : o.sliding!.period;
  return Array.from({ length: layers }, (_, i) => ((i + 1) % period === 0 ? global : local));
}

function readSoftcaps(json: Obj, file: string, defaults: NonNullable<GegluOptions['softcaps']>): { attention?: number; final?: number } {
  const read = (key: string, fallback: number | null): number | undefined => {
    const v = json[key];
    if (v === null) return undefined;
    if (v === undefined) return fallback ?? undefined;
    // A cap of 0 divides by 0; a negative one flips every score's sign; a huge one is no cap but stays finite.
    if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) throw new ModelError(`${file}: "${key}" must be a positive number or null, got ${typeof v === 'number' ? String(v) : shown(v)}`);
    return v;
  };
  if (defaults.attention === 'ignored') {
    const v = json.attn_logit_softcapping;
    if (v !== undefined && v !== null) refuse(file, 'attn_logit_softcapping', v, 'Hugging Face\'s code for this family stores it but never applies it, so which one the model was trained with cannot be told');
  }
  const attention = defaults.attention === 'ignored' ? undefined : read('attn_logit_softcapping', defaults.attention);
  const final = read('final_logit_softcapping', defaults.final);
  return { ...(attention !== undefined ? { attention } : {}), ...(final !== undefined ? { final } : {}) };
}

/**
 * model.embed_tokens, model.layers.i.… (input_layernorm; q/k/v/o_proj; q_norm and k_norm [head_dim]
 * with qkNorm; post_attention_layernorm; pre_ and post_feedforward_layernorm when sandwiched, where
 * the MLP's own norm is pre_feedforward_layernorm; gate/up/down_proj), model.norm, and lm_head unless tied.
 */
export function gegluTensors(c: FamilyConfig, has: (name: string) => boolean, block: BlockDescription): FamilyTensors {
  return gegluTensorsAt('model.', '')(c, has, block);
}

/**
 * The same names under `prefix` (model. for a text model; a multimodal checkpoint's language model
 * sits under language_model.model.), the head `headPrefix`lm_head.weight when not tied.
 */
export function gegluTensorsAt(prefix: string, headPrefix: string): (c: FamilyConfig, has: (name: string) => boolean, block: BlockDescription) => FamilyTensors {
  return (c, _has, block) => namedTensors(c, block, prefix, headPrefix);
}

function namedTensors(c: FamilyConfig, block: BlockDescription, prefix: string, headPrefix: string): FamilyTensors {
  const { shapes, need } = tensorList();
  const E = c.dModel, F = c.ffn, V = c.vocab, D = c.headDim;
  const Q = c.heads * D, KV = c.kvHeads * D;
  const sandwich = block.norm.placement === 'sandwich';
  const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
    const l = `${prefix}layers.${i}.`;
    const a = `${l}self_attn.`;
    return {
      norm1: need(`${l}input_layernorm.weight`, [E]),
      q: need(`${a}q_proj.weight`, [Q, E]), k: need(`${a}k_proj.weight`, [KV, E]), v: need(`${a}v_proj.weight`, [KV, E]),
      ...(block.qkNorm ? { qNorm: need(`${a}q_norm.weight`, [D]), kNorm: need(`${a}k_norm.weight`, [D]) } : {}),
      o: need(`${a}o_proj.weight`, [E, Q]),
      ...(sandwich
        ? {
          postAttnNorm: need(`${l}post_attention_layernorm.weight`, [E]),
          norm2: need(`${l}pre_feedforward_layernorm.weight`, [E]),
          postMlpNorm: need(`${l}post_feedforward_layernorm.weight`, [E]),
        }
        : { norm2: need(`${l}post_attention_layernorm.weight`, [E]) }),
      gate: need(`${l}mlp.gate_proj.weight`, [F, E]), up: need(`${l}mlp.up_proj.weight`, [F, E]), down: need(`${l}mlp.down_proj.weight`, [E, F]),
    };
  });
  const embed = need(`${prefix}embed_tokens.weight`, [V, E]);
  const head = c.tied ? embed : need(`${headPrefix}lm_head.weight`, [V, E]);
  return { names: { embed, layers, finalNorm: need(`${prefix}norm.weight`, [E]), head }, shapes };
}
