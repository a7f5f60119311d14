// Qwen3's description (src/core/checkpoint/families/qwen3.ts): the rotary block without biases and
// with each head's q and k RMS-normed over head_dim before RoPE (self_attn.q_norm, k_norm, one
// [head_dim] weight per layer shared by the heads), head_dim as given (not hidden / heads), Qwen3
// 0.6B's published config read whole, attention_bias refused, the window keys read as Qwen2's; and on
// a tiny checkpoint, the lens's q of a head is RoPE(RMSNorm(x · W_Q) · q_norm) computed by hand, and a
// kept model's reuse of its last run's keys gives a fresh run's bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { qwen3 } from '../../../../../src/core/checkpoint/families/qwen3.js';
import { attentionOf } from '../../../../../src/core/checkpoint/families/shared/family.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel, runText } from '../../../../../src/core/checkpoint/model.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import type { Tokenizer } from '../../../../../src/core/tokenizer/tokenizer.js';
import { QWEN3_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';

/** Qwen3-0.6B's config.json as published. */
const QWEN3_0_6B = {
  architectures: ['Qwen3ForCausalLM'], attention_bias: false, attention_dropout: 0.0, bos_token_id: 151643, eos_token_id: 151645,
  head_dim: 128, hidden_act: 'silu', hidden_size: 1024, initializer_range: 0.02, intermediate_size: 3072, max_position_embeddings: 40960,
  max_window_layers: 28, model_type: 'qwen3', num_attention_heads: 16, num_hidden_layers: 28, num_key_value_heads: 8, rms_norm_eps: 1e-06,
  rope_scaling: null, rope_theta: 1000000, sliding_window: null, tie_word_embeddings: true, torch_dtype: 'bfloat16',
  transformers_version: '4.51.0', use_cache: true, use_sliding_window: false, vocab_size: 151936,
};

test('the block: the rotary block without biases, with q/k norms', () => {
  assert.deepEqual(qwen3.block, {
    kind: 'sequential', norm: { kind: 'rmsnorm', placement: 'pre' }, position: 'rope', matrices: 'linear', qkv: 'separate',
    bias: { qkv: false, o: false, mlp: false }, mlp: 'swiglu', qkNorm: true,
  });
});

test('Qwen3-0.6B\'s published config: head_dim 128 beside hidden 1024 and 16 heads, 8 key/value heads, tied, θ 1,000,000, full attention', () => {
  const c = readModelConfig(JSON.stringify(QWEN3_0_6B));
  assert.deepEqual([c.type, c.dModel, c.heads, c.kvHeads, c.headDim, c.layers, c.ffn, c.vocab, c.contextLength, c.eps, c.ropeTheta, c.tied],
    ['qwen3', 1024, 16, 8, 128, 28, 3072, 151936, 40960, 1e-6, 1000000, true]);
  assert.deepEqual([c.attention, c.layerAttention, c.ropeScaling], [{ kind: 'causal' }, undefined, undefined]);
  const { names, shapes } = namesOf(c, () => false);
  assert.deepEqual([shapes.get('model.layers.27.self_attn.q_norm.weight'), shapes.get('model.layers.27.self_attn.k_norm.weight')], [[128], [128]]);
  assert.deepEqual([shapes.get('model.layers.0.self_attn.q_proj.weight'), shapes.get('model.layers.0.self_attn.o_proj.weight')], [[2048, 1024], [1024, 2048]]);
  assert.equal([...shapes.keys()].some((n) => n.endsWith('.bias')), false);
  assert.deepEqual([names.layers[3].qNorm, names.layers[3].kNorm, names.head], ['model.layers.3.self_attn.q_norm.weight', 'model.layers.3.self_attn.k_norm.weight', 'model.embed_tokens.weight']);
});

test('attention_bias true is refused naming the key; the window keys are Qwen2\'s; scaled RoPE is refused', () => {
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN3_0_6B, attention_bias: true })), /^ModelError: config\.json: "attention_bias": true is not supported \(attn computes qwen3 without attention biases\)$/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN3_0_6B, attention_bias: 1 })), /"attention_bias" must be true or false, got 1/);
  const c = readModelConfig(JSON.stringify({ ...QWEN3_0_6B, use_sliding_window: true, sliding_window: 4096, max_window_layers: 27 }));
  assert.deepEqual([attentionOf(c, 26), attentionOf(c, 27)], [{ kind: 'causal' }, { kind: 'sliding', window: 4096 }]);
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN3_0_6B, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } })), /^ModelError: config\.json: "rope_scaling": .* is not supported/);
});

const IDS = [3, 17, 5, 5, 39, 0, 12, 8, 3];
const fixed: Tokenizer = { vocabSize: 40, encode: () => ({ ids: IDS, pieces: IDS.map(String) }), decodeOne: (id) => `t${id}` };

test('a head\'s q and k in the lens are RoPE(RMSNorm over head_dim of x · W, times q_norm / k_norm), computed here by hand', () => {
  const { configText, tensors } = tinyCheckpoint(QWEN3_CONFIG, 9);
  const model = loadModel(configText, tensors, { precision: 'f64' });
  runText(model, fixed, 'any');
  const c = model.config, n = IDS.length, D = c.headDim, E = c.dModel;
  const norms = (name: string) => { const t = tensors.get(name)!; return new Float32Array(t.source.read(t.offset, D * 4).slice().buffer); };
  for (const [layer, head] of [[0, 0], [1, 3]]) {
    const lens = headLens(model, IDS, IDS.map(String), layer, head);
    for (const [got, w, weight] of [[lens.q, lens.wq, norms(`model.layers.${layer}.self_attn.q_norm.weight`)], [lens.k, lens.wk, norms(`model.layers.${layer}.self_attn.k_norm.weight`)]] as const) {
      for (let i = 0; i < n; i++) {
        const raw = Array.from({ length: D }, (_, d) => { let s = 0; for (let e = 0; e < E; e++) s += lens.x[i * E + e] * w[e * D + d]; return s; });
        const inv = 1 / Math.sqrt(raw.reduce((s, v) => s + v * v, 0) / D + c.eps);
        const normed = raw.map((v, d) => v * inv * weight[d]);
        for (let d = 0; d < D / 2; d++) {
          const angle = i / c.ropeTheta ** ((2 * d) / D);
          const a = normed[d], b = normed[d + D / 2];
          assert.ok(Math.abs(got[i * D + d] - (a * Math.cos(angle) - b * Math.sin(angle))) < 1e-12, `layer ${layer} head ${head} (${i}, ${d})`);
          assert.ok(Math.abs(got[i * D + d + D / 2] - (b * Math.cos(angle) + a * Math.sin(angle))) < 1e-12);
        }
      }
    }
  }
});

const chars: Tokenizer = { vocabSize: 40, encode: (text) => ({ ids: [...text].map((ch) => ch.charCodeAt(0) % 40), pieces: [...text] }), decodeOne: (id) => `t${id}` };
const bytesOf = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('a kept model reusing its last run (q/k norms, a sliding layer beside full ones) equals a fresh run bit for bit', () => {
  const config = { ...QWEN3_CONFIG, num_hidden_layers: 3, use_sliding_window: true, sliding_window: 3, layer_types: ['full_attention', 'sliding_attention', 'full_attention'] };
  const { configText, tensors } = tinyCheckpoint(config, 12);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  for (const [text, reused] of [['The cat sat on the mat', 0], ['The cat sat on a hat', 15], ['The cat sat on a hat.', 20]] as const) {
    const got = runText(kept, chars, text), fresh = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, text);
    assert.equal(got.reused, reused, text);
    got.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(fresh.attention[l])), `${text}: layer ${l}`));
    assert.deepEqual(got.next, fresh.next);
  }
  // The sliding layer hides what its window does; the full ones do not.
  const run = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, 'The cat sat on the mat');
  const n = run.ids.length;
  assert.equal(run.attention[1][(n - 1) * n], 0);
  assert.ok(run.attention[0][(n - 1) * n] > 0 && run.attention[2][(n - 1) * n] > 0);
});
