// GPT-2's description (src/core/checkpoint/families/gpt2.ts): its block as data (LayerNorm before
// each half, learned positions, Conv1D matrices [in, out], one fused c_attn for q | k | v, biases on
// every product, gelu_new), its keys (n_embd, n_head, n_inner defaulting to 4 · n_embd, the
// activations it accepts) and its tensors' names and shapes, read through the runner's own readers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gpt2 } from '../../../../../src/core/checkpoint/families/gpt2.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import { GPT2_CONFIG } from '../../../../support/tiny-checkpoint.js';

test('the block: pre-LayerNorm, learned positions, Conv1D, fused q/k/v with biases, gelu_new, sequential', () => {
  assert.deepEqual(gpt2.block, {
    kind: 'sequential', norm: { kind: 'layernorm', placement: 'pre' }, position: 'learned', matrices: 'conv1d', qkv: 'fused',
    bias: { qkv: true, o: true, mlp: true }, mlp: 'gelu-new',
  });
});

test('the keys: causal attention, no RoPE, gelu_pytorch_tanh taken as gelu_new, unscaled scores refused', () => {
  const c = readModelConfig(JSON.stringify({ ...GPT2_CONFIG, activation_function: 'gelu_pytorch_tanh', n_inner: 20 }));
  assert.deepEqual([c.type, c.attention, c.ropeTheta, c.ffn, c.block], ['gpt2', { kind: 'causal' }, 0, 20, gpt2.block]);
  assert.throws(() => readModelConfig(JSON.stringify({ ...GPT2_CONFIG, scale_attn_weights: false })), /^ModelError: config\.json: "scale_attn_weights": false is not supported \(scores are divided by √head_dim\)$/);
});

test('the tensors: c_attn [E, 3E] and c_fc [E, 4E] stored [in, out], every bias, positions [n_positions, E]', () => {
  const { names, shapes } = namesOf(readModelConfig(JSON.stringify(GPT2_CONFIG)), () => false);
  assert.deepEqual(shapes.get('h.0.attn.c_attn.weight'), [16, 48]);
  assert.deepEqual(shapes.get('h.0.attn.c_attn.bias'), [48]);
  assert.deepEqual(shapes.get('h.1.mlp.c_proj.weight'), [64, 16]);
  assert.deepEqual(shapes.get('wpe.weight'), [32, 16]);
  assert.deepEqual([names.layers[0].q, names.layers[0].gate, names.layers[0].fc], [undefined, undefined, 'h.0.mlp.c_fc.weight']);
  assert.equal(shapes.size, 2 + 2 * 12 + 2);
});
