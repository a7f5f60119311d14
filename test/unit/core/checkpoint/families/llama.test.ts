// Llama's description (src/core/checkpoint/families/llama.ts): its block as data (RMSNorm, RoPE,
// nn.Linear matrices [out, in], q, k and v separate, no biases, SwiGLU), the keys its config may
// hold that would need biases (refused, naming config.json and the key), and its tensors: no bias,
// grouped-query widths, lm_head unless tie_word_embeddings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { llama } from '../../../../../src/core/checkpoint/families/llama.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import { QWEN2_CONFIG } from '../../../../support/tiny-checkpoint.js';

const CONFIG = { ...QWEN2_CONFIG, model_type: 'llama', tie_word_embeddings: false };

test('the block: pre-RMSNorm, RoPE, nn.Linear, separate q/k/v without biases, SwiGLU, sequential', () => {
  assert.deepEqual(llama.block, {
    kind: 'sequential', norm: { kind: 'rmsnorm', placement: 'pre' }, position: 'rope', matrices: 'linear', qkv: 'separate',
    bias: { qkv: false, o: false, mlp: false }, mlp: 'swiglu',
  });
});

test('the keys: causal attention, RoPE θ; attention_bias and mlp_bias refused in today\'s words', () => {
  const c = readModelConfig(JSON.stringify(CONFIG));
  assert.deepEqual([c.type, c.attention, c.ropeTheta, c.block.bias.qkv], ['llama', { kind: 'causal' }, 100, false]);
  assert.throws(() => readModelConfig(JSON.stringify({ ...CONFIG, attention_bias: true })), /^ModelError: config\.json: "attention_bias": true is not supported \(attn computes llama without attention biases\)$/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...CONFIG, mlp_bias: true })), /^ModelError: config\.json: "mlp_bias": true is not supported \(attn computes llama without MLP biases\)$/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...CONFIG, use_sliding_window: true })), /"use_sliding_window": true is not supported/);
});

test('the tensors: [out, in] shapes, grouped-query k and v, no bias, an lm_head of its own', () => {
  const { names, shapes } = namesOf(readModelConfig(JSON.stringify(CONFIG)), () => false);
  assert.deepEqual(shapes.get('model.layers.0.self_attn.q_proj.weight'), [24, 16]);
  assert.deepEqual(shapes.get('model.layers.0.self_attn.v_proj.weight'), [12, 16]);
  assert.deepEqual(shapes.get('model.layers.0.mlp.gate_proj.weight'), [24, 16]);
  assert.equal([...shapes.keys()].some((n) => n.endsWith('.bias')), false);
  assert.deepEqual([names.head, names.positions, names.layers[0].qkv], ['lm_head.weight', undefined, undefined]);
});
