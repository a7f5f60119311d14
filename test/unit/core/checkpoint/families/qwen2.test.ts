// Qwen2's description (src/core/checkpoint/families/qwen2.ts): Llama's block with biases on q, k
// and v only, the bias tensors it therefore reads, and its sliding window (use_sliding_window)
// refused, since the block computes one attention kind for every layer and Qwen2 slides only on
// some. attention_bias and mlp_bias are not Qwen2 keys (its modelling code fixes the biases), so
// they change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { qwen2 } from '../../../../../src/core/checkpoint/families/qwen2.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import { QWEN2_CONFIG } from '../../../../support/tiny-checkpoint.js';

test('the block: pre-RMSNorm, RoPE, nn.Linear, separate q/k/v with biases (o and the MLP without), SwiGLU', () => {
  assert.deepEqual(qwen2.block, {
    kind: 'sequential', norm: { kind: 'rmsnorm', placement: 'pre' }, position: 'rope', matrices: 'linear', qkv: 'separate',
    bias: { qkv: true, o: false, mlp: false }, mlp: 'swiglu',
  });
});

test('the keys: q/k/v biases whatever attention_bias says; use_sliding_window refused', () => {
  const c = readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, attention_bias: false }));
  assert.deepEqual([c.type, c.block.bias.qkv, c.attention, c.tied], ['qwen2', true, { kind: 'causal' }, true]);
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, use_sliding_window: true, sliding_window: 8 })), /^ModelError: config\.json: "use_sliding_window": true is not supported \(attn computes full causal attention\)$/);
});

test('the tensors: biases on q, k and v with their widths, none on o or the MLP; the head tied', () => {
  const { names, shapes } = namesOf(readModelConfig(JSON.stringify(QWEN2_CONFIG)), () => false);
  assert.deepEqual([shapes.get('model.layers.1.self_attn.q_proj.bias'), shapes.get('model.layers.1.self_attn.v_proj.bias')], [[24], [12]]);
  assert.deepEqual([...shapes.keys()].filter((n) => n.endsWith('.bias')).length, 2 * 3);
  assert.equal(names.head, 'model.embed_tokens.weight');
  assert.equal(shapes.has('lm_head.weight'), false);
});
