// config.json read into one ModelConfig (src/core/checkpoint/config.ts): GPT-2's and Llama's
// spellings of the sizes, the defaults Hugging Face applies (key/value heads = heads, head_dim =
// hidden / heads, n_inner = 4 · n_embd), and the refusals, each naming config.json and the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockRefusal, readModelConfig, summaryOf } from '../../../../src/core/checkpoint/config.js';
import type { BlockDescription } from '../../../../src/core/checkpoint/families/shared/family.js';
import { familyOf } from '../../../../src/core/checkpoint/families/index.js';
import { GPT2_CONFIG, QWEN2_CONFIG } from '../../../support/tiny-checkpoint.js';

const text = (o: object) => JSON.stringify(o);

test('gpt2: n_embd, n_head, n_layer, n_positions; n_inner 4 · n_embd; tied; biases on q, k, v', () => {
  const c = readModelConfig(text(GPT2_CONFIG));
  assert.deepEqual(summaryOf(c), { type: 'gpt2', layers: 2, heads: 4, kvHeads: 4, dModel: 16, headDim: 4, vocab: 40, contextLength: 32 });
  assert.deepEqual([c.ffn, c.eps, c.tied, c.block.bias.qkv], [64, 1e-5, true, true]);
  assert.equal(readModelConfig(text({ ...GPT2_CONFIG, n_positions: undefined, n_ctx: 77 })).contextLength, 77);
});

test('llama and qwen2: key/value heads default to the heads, head_dim to hidden / heads, RoPE θ 10,000; qwen2 has q/k/v biases', () => {
  const llama = readModelConfig(text({ ...QWEN2_CONFIG, model_type: 'llama', num_key_value_heads: undefined, head_dim: undefined, rope_theta: undefined, tie_word_embeddings: undefined }));
  assert.deepEqual([llama.kvHeads, llama.headDim, llama.ropeTheta, llama.tied, llama.block.bias.qkv, llama.eps], [4, 4, 10000, false, false, 1e-6]);
  const qwen = readModelConfig(text(QWEN2_CONFIG));
  assert.deepEqual([qwen.kvHeads, qwen.headDim, qwen.tied, qwen.block.bias.qkv, qwen.ffn], [2, 6, true, true, 24]);
  assert.equal(readModelConfig(text({ ...QWEN2_CONFIG, rope_scaling: { rope_type: 'default' } })).ropeTheta, 100);
});

test('what cannot be computed right is refused, naming config.json and the key', () => {
  const refusals: [object, RegExp][] = [
    [{ model_type: 't5' }, /config\.json: model_type "t5" is not supported/],
    [{ hidden_size: 4 }, /config\.json: "model_type" is missing/],
    [{ ...GPT2_CONFIG, n_head: undefined }, /config\.json: "n_head" is missing/],
    [{ ...GPT2_CONFIG, n_head: 3 }, /config\.json: "n_embd" 16 is not a multiple of "n_head" 3/],
    [{ ...GPT2_CONFIG, n_layer: 1.5 }, /config\.json: "n_layer" must be a whole number/],
    [{ ...GPT2_CONFIG, activation_function: 'relu' }, /config\.json: "activation_function": "relu" is not supported/],
    [{ ...QWEN2_CONFIG, num_key_value_heads: 3 }, /"num_attention_heads" 4 is not a multiple of "num_key_value_heads" 3/],
    [{ ...QWEN2_CONFIG, rope_scaling: { rope_type: 'llama3', factor: 8 } }, /config\.json: "rope_scaling": .*llama3.* is not supported/],
    [{ ...QWEN2_CONFIG, rope_scaling: { type: 'linear', factor: 2 } }, /"rope_scaling": .* is not supported/],
    [{ ...QWEN2_CONFIG, model_type: 'llama', use_sliding_window: true }, /"use_sliding_window": true is not supported/],
    [{ ...QWEN2_CONFIG, hidden_act: 'gelu' }, /"hidden_act": "gelu" is not supported/],
    [{ ...QWEN2_CONFIG, head_dim: 5 }, /"head_dim" 5 is odd/],
    [{ ...QWEN2_CONFIG, rms_norm_eps: -1 }, /"rms_norm_eps" must be a positive number/],
  ];
  for (const [config, pattern] of refusals) assert.throws(() => readModelConfig(text(config)), pattern, JSON.stringify(config));
  assert.throws(() => readModelConfig('{'), /config\.json: not valid JSON/);
  assert.throws(() => readModelConfig('[]'), /config\.json: expected a JSON object/);
});

test('a config value quoted in a refusal is cut short, and one nested too deep to print is said so, not a stack overflow', () => {
  // Before: "n_embd" of 200,000 nested lists ended attn run with "internal error: Maximum call stack size
  // exceeded" (exit 3), and a 3,000,000-character "n_embd" string was printed whole: a 3 MB line.
  const deep = `{"model_type":"gpt2","n_embd":${'['.repeat(200000)}${']'.repeat(200000)}}`;
  assert.throws(() => readModelConfig(deep), /^ModelError: config\.json: "n_embd" must be a whole number from 1 to 16777216, got a value nested too deep to print$/);
  const long = JSON.stringify({ model_type: 'gpt2', n_embd: 'x'.repeat(3_000_000) });
  assert.throws(() => readModelConfig(long), (e: Error) => e.message.length < 300 && /got "x{60}…"$/.test(e.message));
  const type = JSON.stringify({ model_type: 'y'.repeat(3_000_000) });
  assert.throws(() => readModelConfig(type), (e: Error) => e.message.length < 300 && /model_type "y{60}…" is not supported/.test(e.message));
  const scaling = JSON.stringify({ model_type: 'llama', hidden_size: 8, num_attention_heads: 2, rope_scaling: { rope_type: 'llama3', factor: 8 } });
  assert.throws(() => readModelConfig(scaling), /"rope_scaling": \{"rope_type":"llama3","factor":8\} is not supported/);
});

test('a description the block does not compute is refused by the config reader, before any tensor is loaded', () => {
  const c = readModelConfig(text(QWEN2_CONFIG));
  assert.equal(blockRefusal(c), undefined);
  // Parallel blocks, post norms, bidirectional attention and softcaps are computed.
  assert.equal(blockRefusal({ ...c, block: { ...c.block, kind: 'parallel' } }), undefined);
  assert.equal(blockRefusal({ ...c, block: { ...c.block, norm: { kind: 'layernorm', placement: 'post' } }, attention: { kind: 'bidirectional' } }), undefined);
  assert.equal(blockRefusal({ ...c, softcap: { final: 30 } }), undefined);
  assert.equal(blockRefusal({ ...c, block: { ...c.block, norm: { kind: 'layernorm', placement: 'sandwich' } } }), 'the qwen2 block has sandwich norms of kind layernorm; attn computes sandwich RMSNorms');
  // A parallel block has one norm of x for both branches: no post-norm form of it exists to compute.
  assert.equal(blockRefusal({ ...c, block: { ...c.block, kind: 'parallel', norm: { kind: 'layernorm', placement: 'post' } } }), 'the qwen2 block is parallel with its norms post; attn computes parallel blocks pre-norm only');
  assert.equal(blockRefusal({ ...c, softcap: { attention: 0 } }), 'the qwen2 model\'s attention softcap 0 is not a positive number');
  // A family whose description has such a kind: its config.json is refused by the reader, named.
  const family = familyOf('qwen2') as { block: BlockDescription };
  const block = family.block;
  family.block = { ...block, kind: 'parallel', norm: { kind: 'rmsnorm', placement: 'sandwich' } };
  try {
    assert.throws(() => readModelConfig(text(QWEN2_CONFIG)), /^ModelError: config\.json: the qwen2 block is parallel with its norms sandwich; attn computes parallel blocks pre-norm only/);
  } finally {
    family.block = block;
  }
});
