// The encoder shape BERT made, shared by the descriptions of the families built on it (../bert.ts,
// ../roberta.ts, ../distilbert.ts): learned positions, token type 0's row added to every embedding (where
// the family has token types) and the sum LayerNormed; post-norm blocks, h = LayerNorm(x +
// attention(x) · W_O), out = LayerNorm(h + W_2 · gelu(W_1 · h)) with the exact (erf) GELU; every key
// seen by every query; nn.Linear matrices with biases, q, k and v separate; the masked-token head: a
// dense layer, GELU, LayerNorm, then the decoder tied to the word embeddings plus a bias of its own.
// BERT's config keys (hidden_size, num_attention_heads, num_hidden_layers, intermediate_size,
// max_position_embeddings, layer_norm_eps) are read here, and a key asking for what the block does
// not compute (relative positions, a causal encoder, cross-attention, another activation) is refused
// by name. Checkpoints from Google's TensorFlow conversion name LayerNorm's weight and bias gamma and
// beta; both spellings are read.
import type { Obj } from '../../../json/object.js';
import { ModelError } from '../../error.js';
import { flag, positive, refuse, size } from './config-keys.js';
import { tensorList, type BlockDescription, type FamilyConfig, type FamilyTensors, type LayerNames, type ModelNames } from './family.js';

/** The encoder block BERT, RoBERTa and DistilBERT share. */
export const ENCODER_BLOCK: BlockDescription = {
  kind: 'sequential',
  norm: { kind: 'layernorm', placement: 'post' },
  position: 'learned',
  matrices: 'linear',
  qkv: 'separate',
  bias: { qkv: true, o: true, mlp: true },
  mlp: 'gelu',
  embeddings: { tokenType: true, norm: true },
  head: 'mlm',
};

/** An activation other than the exact GELU, refused by its key (`key`, e.g. hidden_act). */
export function exactGelu(json: Obj, file: string, key: string): void {
  const act = json[key] ?? 'gelu';
  if (act !== 'gelu') refuse(file, key, act, 'attn computes the exact (erf) GELU');
}

/** The keys of BERT's config (RoBERTa's too) that change the computation, read or refused; `positionsLost` rows of the positions are not usable (RoBERTa's). */
export function readEncoderConfig(json: Obj, file: string, positionsLost = 0): FamilyConfig {
  const dModel = size(json, file, ['hidden_size']);
  const heads = size(json, file, ['num_attention_heads']);
  if (dModel % heads !== 0) throw new ModelError(`${file}: "hidden_size" ${dModel} is not a multiple of "num_attention_heads" ${heads}`);
  exactGelu(json, file, 'hidden_act');
  const kind = json.position_embedding_type ?? 'absolute';
  if (kind !== 'absolute') refuse(file, 'position_embedding_type', kind, 'attn computes absolute learned positions');
  if (flag(json, file, 'is_decoder', false)) refuse(file, 'is_decoder', true, 'attn computes BERT as an encoder, every key seen');
  if (flag(json, file, 'add_cross_attention', false)) refuse(file, 'add_cross_attention', true, 'attn computes self-attention only');
  const positions = size(json, file, ['max_position_embeddings'], 512);
  if (positions <= positionsLost) throw new ModelError(`${file}: "max_position_embeddings" ${positions} leaves no position after "pad_token_id" + 1 = ${positionsLost}`);
  return {
    layers: size(json, file, ['num_hidden_layers']),
    heads,
    kvHeads: heads,
    dModel,
    headDim: dModel / heads,
    vocab: size(json, file, ['vocab_size']),
    contextLength: positions - positionsLost,
    ffn: size(json, file, ['intermediate_size']),
    eps: positive(json, file, 'layer_norm_eps', 1e-12),
    ropeTheta: 0,
    tied: flag(json, file, 'tie_word_embeddings', true),
    attention: { kind: 'bidirectional' },
  };
}

/** A LayerNorm's weight and bias names: `.weight`/`.bias`, or `.gamma`/`.beta` in TensorFlow-converted files. */
export function layerNormNames(base: string, has: (name: string) => boolean): [string, string] {
  return has(`${base}.gamma`) && !has(`${base}.weight`) ? [`${base}.gamma`, `${base}.beta`] : [`${base}.weight`, `${base}.bias`];
}

/** An MLM head's names: the transform's dense layer and LayerNorm (bases), the decoder's bias and its own weight (read when untied). */
export interface MlmNames { dense: string; norm: string; bias: string; decoder: string }

/** Where the model's encoder sits (`prefix`), and its MLM head's names (absent when saved without one). */
export interface EncoderLayout {
  prefix: string;
  mlm?: MlmNames;
}

/** Names recorded with their shapes: a LayerNorm's pair, an nn.Linear's weight [out, in] and bias. */
export interface EncoderNaming {
  shapes: Map<string, number[]>;
  need: (name: string, shape: number[]) => string;
  norm: (base: string) => readonly [string, string];
  linear: (base: string, out: number, inputs: number) => readonly [string, string];
}

export function encoderNaming(c: FamilyConfig, has: (name: string) => boolean): EncoderNaming {
  const { shapes, need } = tensorList();
  const norm = (base: string) => {
    const [weight, bias] = layerNormNames(base, has);
    return [need(weight, [c.dModel]), need(bias, [c.dModel])] as const;
  };
  const linear = (base: string, out: number, inputs: number) => [need(`${base}.weight`, [out, inputs]), need(`${base}.bias`, [out])] as const;
  return { shapes, need, norm, linear };
}

/** The encoder's names, with the MLM head's where the layout has one. */
export function withHead(c: FamilyConfig, names: ModelNames, layout: EncoderLayout, t: EncoderNaming): FamilyTensors {
  if (!layout.mlm) return { names, shapes: t.shapes };
  const m = layout.mlm;
  const [headTransform, headTransformBias] = t.linear(m.dense, c.dModel, c.dModel);
  const [finalNorm, finalNormBias] = t.norm(m.norm);
  const head = c.tied ? names.embed : t.need(m.decoder, [c.vocab, c.dModel]);
  return { names: { ...names, headTransform, headTransformBias, finalNorm, finalNormBias, head, headBias: t.need(m.bias, [c.vocab]) }, shapes: t.shapes };
}

/**
 * The tensors of BERT's layout (RoBERTa's too) under `layout.prefix`: embeddings.{word,position,token_type}_embeddings and their
 * LayerNorm, encoder.layer.i.{attention.self.{query,key,value}, attention.output.{dense,LayerNorm},
 * intermediate.dense, output.{dense,LayerNorm}}, and the MLM head's transform, norm and bias.
 */
export function encoderTensors(c: FamilyConfig, has: (name: string) => boolean, layout: EncoderLayout): FamilyTensors {
  const t = encoderNaming(c, has), { need, norm, linear } = t;
  const E = c.dModel, F = c.ffn, p = layout.prefix;
  const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
    const l = `${p}encoder.layer.${i}.`;
    const [q, qBias] = linear(`${l}attention.self.query`, E, E), [k, kBias] = linear(`${l}attention.self.key`, E, E), [v, vBias] = linear(`${l}attention.self.value`, E, E);
    const [o, oBias] = linear(`${l}attention.output.dense`, E, E);
    const [norm1, norm1Bias] = norm(`${l}attention.output.LayerNorm`);
    const [fc, fcBias] = linear(`${l}intermediate.dense`, F, E), [proj, projBias] = linear(`${l}output.dense`, E, F);
    const [norm2, norm2Bias] = norm(`${l}output.LayerNorm`);
    return { norm1, norm1Bias, q, k, v, qBias, kBias, vBias, o, oBias, norm2, norm2Bias, fc, fcBias, proj, projBias };
  });
  const embed = need(`${p}embeddings.word_embeddings.weight`, [c.vocab, E]);
  const positions = need(`${p}embeddings.position_embeddings.weight`, [c.contextLength + (c.paddingIdx === undefined ? 0 : c.paddingIdx + 1), E]);
  const tokenType = c.tokenTypes !== undefined ? need(`${p}embeddings.token_type_embeddings.weight`, [c.tokenTypes, E]) : undefined;
  const [embedNorm, embedNormBias] = norm(`${p}embeddings.LayerNorm`);
  return withHead(c, { embed, positions, ...(tokenType ? { tokenType } : {}), embedNorm, embedNormBias, layers }, layout, t);
}

/**
 * The encoder's place in the files: bare (BertModel: `probe` is held as named) without a head; else
 * under `model` (e.g. "bert."), with the head `mlm` when the files hold its dense layer or hold
 * nothing under `model` yet (a checkpoint being made), without it otherwise (a classifier's save).
 */
export function encoderLayout(has: (name: string) => boolean, model: string, probe: string, mlm: MlmNames): EncoderLayout {
  if (has(probe)) return { prefix: '' };
  const saved = has(`${mlm.dense}.weight`) || !has(model + probe);
  return { prefix: model, ...(saved ? { mlm } : {}) };
}

