// DistilBERT as Hugging Face saves it (DistilBertForMaskedLM, or DistilBertModel without its head):
// the shared encoder block (shared/encoder.ts) without token types, its own names (embeddings.{word,position}_embeddings
// and LayerNorm; transformer.layer.i.attention.{q,k,v,out}_lin, sa_layer_norm, ffn.lin1, ffn.lin2,
// output_layer_norm) under "distilbert.", every LayerNorm's eps fixed at 1e-12 (DistilBERT's code
// does not read layer_norm_eps), and the masked-token head vocab_transform, GELU, vocab_layer_norm,
// then vocab_projector (tied to the word embeddings) with its bias. Its config spells the sizes dim,
// n_heads, n_layers, hidden_dim, and the MLP's activation `activation`.
import type { Obj } from '../../json/object.js';
import { ModelError } from '../error.js';
import { flag, size } from './shared/config-keys.js';
import { ENCODER_BLOCK, encoderLayout, encoderNaming, exactGelu, withHead, type EncoderLayout } from './shared/encoder.js';
import type { Family, FamilyConfig, FamilyTensors, LayerNames } from './shared/family.js';

function readConfig(json: Obj, file: string): FamilyConfig {
  const dModel = size(json, file, ['dim']);
  const heads = size(json, file, ['n_heads']);
  if (dModel % heads !== 0) throw new ModelError(`${file}: "dim" ${dModel} is not a multiple of "n_heads" ${heads}`);
  exactGelu(json, file, 'activation');
  return {
    layers: size(json, file, ['n_layers']),
    heads,
    kvHeads: heads,
    dModel,
    headDim: dModel / heads,
    vocab: size(json, file, ['vocab_size']),
    contextLength: size(json, file, ['max_position_embeddings'], 512),
    ffn: size(json, file, ['hidden_dim']),
    eps: 1e-12,
    ropeTheta: 0,
    tied: flag(json, file, 'tie_word_embeddings', true),
    attention: { kind: 'bidirectional' },
  };
}

function tensors(c: FamilyConfig, has: (name: string) => boolean, layout: EncoderLayout): FamilyTensors {
  const t = encoderNaming(c, has), { need, norm, linear } = t;
  const E = c.dModel, F = c.ffn, p = layout.prefix;
  const layers = Array.from({ length: c.layers }, (_, i): LayerNames => {
    const l = `${p}transformer.layer.${i}.`;
    const [q, qBias] = linear(`${l}attention.q_lin`, E, E), [k, kBias] = linear(`${l}attention.k_lin`, E, E), [v, vBias] = linear(`${l}attention.v_lin`, E, E);
    const [o, oBias] = linear(`${l}attention.out_lin`, E, E);
    const [norm1, norm1Bias] = norm(`${l}sa_layer_norm`);
    const [fc, fcBias] = linear(`${l}ffn.lin1`, F, E), [proj, projBias] = linear(`${l}ffn.lin2`, E, F);
    const [norm2, norm2Bias] = norm(`${l}output_layer_norm`);
    return { norm1, norm1Bias, q, k, v, qBias, kBias, vBias, o, oBias, norm2, norm2Bias, fc, fcBias, proj, projBias };
  });
  const embed = need(`${p}embeddings.word_embeddings.weight`, [c.vocab, E]);
  const positions = need(`${p}embeddings.position_embeddings.weight`, [c.contextLength, E]);
  const [embedNorm, embedNormBias] = norm(`${p}embeddings.LayerNorm`);
  return withHead(c, { embed, positions, embedNorm, embedNormBias, layers }, layout, t);
}

const HEAD = { dense: 'vocab_transform', norm: 'vocab_layer_norm', bias: 'vocab_projector.bias', decoder: 'vocab_projector.weight' };

export const distilbert: Family<'distilbert'> = {
  name: 'distilbert',
  block: { ...ENCODER_BLOCK, embeddings: { tokenType: false, norm: true } },
  readConfig,
  tensors: (c, has) => tensors(c, has, encoderLayout(has, 'distilbert.', 'embeddings.word_embeddings.weight', HEAD)),
};
