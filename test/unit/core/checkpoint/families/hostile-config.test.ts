// Properties over hostile config.json files for every family: each key a family reads set to values
// drawn from what a typo, a bad conversion or an attacker writes (0, −1, 0.5, 1e300, 2^53, "8", true,
// [], null, subnormal and huge numbers, absent), several at once. Whatever they hold, readModelConfig
// either refuses in one sentence beginning "config.json: " and naming a key, or returns a config the
// block computes without a NaN: whole sizes ≥ 1 that divide as the shapes need, a positive finite eps,
// a RoPE whose angle at the last position is finite, a window of whole keys; and a key Hugging Face
// reads as truthy (attention_bias 1, use_sliding_window "true") is refused, never run without.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { ropeTables } from '../../../../../src/core/checkpoint/ops.js';
import { BERT_CONFIG, DISTILBERT_CONFIG, GPT2_CONFIG, QWEN2_CONFIG, QWEN3_CONFIG, ROBERTA_CONFIG } from '../../../../support/tiny-checkpoint.js';
import { ABSENT, changed, readOrRefused } from '../../../../support/hostile-config.js';

const HOSTILE: unknown[] = [ABSENT, null, 0, -1, 0.5, 1, 2, 3, 7, 64, 1e300, 2 ** 53, 5e-324, 1e-310, 1e-300, 1e308, '8', 'true', '', true, false, [], [8], {}, { rope_type: 'default' },
  { rope_type: 'default', rope_theta: 5e-324 }, { rope_theta: 1e6 }, { rope_type: 'yarn', factor: 4 }, { full_attention: { rope_theta: 1e4 } }];

const ROTARY_KEYS = ['hidden_size', 'num_attention_heads', 'num_key_value_heads', 'head_dim', 'intermediate_size', 'num_hidden_layers',
  'max_position_embeddings', 'vocab_size', 'rms_norm_eps', 'rope_theta', 'rope_scaling', 'rope_parameters', 'tie_word_embeddings', 'hidden_act'];
const ENCODER_KEYS = ['hidden_size', 'num_attention_heads', 'num_hidden_layers', 'intermediate_size', 'max_position_embeddings', 'vocab_size',
  'layer_norm_eps', 'hidden_act', 'position_embedding_type', 'is_decoder', 'add_cross_attention', 'tie_word_embeddings'];
const FAMILIES: { base: Record<string, unknown>; keys: string[] }[] = [
  { base: GPT2_CONFIG, keys: ['n_embd', 'n_head', 'n_layer', 'n_positions', 'n_ctx', 'vocab_size', 'n_inner', 'layer_norm_epsilon', 'scale_attn_weights', 'scale_attn_by_inverse_layer_idx', 'activation_function'] },
  { base: { ...QWEN2_CONFIG, model_type: 'llama' }, keys: [...ROTARY_KEYS, 'attention_bias', 'mlp_bias'] },
  { base: QWEN2_CONFIG, keys: [...ROTARY_KEYS, 'use_sliding_window', 'max_window_layers'] },
  { base: QWEN3_CONFIG, keys: [...ROTARY_KEYS, 'attention_bias', 'use_sliding_window', 'sliding_window', 'max_window_layers'] },
  { base: { ...QWEN2_CONFIG, model_type: 'mistral', sliding_window: 4 }, keys: [...ROTARY_KEYS, 'sliding_window', 'use_sliding_window', 'max_window_layers'] },
  { base: BERT_CONFIG, keys: [...ENCODER_KEYS, 'type_vocab_size'] },
  { base: ROBERTA_CONFIG, keys: [...ENCODER_KEYS, 'type_vocab_size', 'pad_token_id'] },
  { base: DISTILBERT_CONFIG, keys: ['dim', 'n_heads', 'n_layers', 'hidden_dim', 'max_position_embeddings', 'vocab_size', 'activation', 'tie_word_embeddings'] },
];
/** The flags Hugging Face's modelling code tests for truth, and the value the block computes. */
const COMPUTED_FLAG: Record<string, Record<string, boolean>> = {
  gpt2: { scale_attn_weights: true, scale_attn_by_inverse_layer_idx: false },
  llama: { attention_bias: false, mlp_bias: false },
  qwen3: { attention_bias: false },
  bert: { is_decoder: false, add_cross_attention: false },
  roberta: { is_decoder: false, add_cross_attention: false },
};
const truthy = (v: unknown) => v !== ABSENT && v !== null && v !== 0 && v !== '' && v !== false && !(Array.isArray(v) && v.length === 0) && !(typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

const configs = fc.integer({ min: 0, max: FAMILIES.length - 1 }).chain((f) => fc.record({
  family: fc.constant(f),
  changes: fc.array(fc.tuple(fc.constantFrom(...FAMILIES[f].keys), fc.constantFrom(...HOSTILE)), { minLength: 1, maxLength: 3 }),
}));

const whole = (v: number) => Number.isInteger(v) && v >= 1;

test('hostile config.json values: a one-sentence refusal naming config.json and a key, or a config that computes without NaN', () => {
  fc.assert(fc.property(configs, ({ family, changes }) => {
    const json = changed(FAMILIES[family].base, changes);
    const c = readOrRefused(json, /^config\.json: (model_type |"[a-z_]+")/);
    if (!c) return;
    for (const [key, computes] of Object.entries(COMPUTED_FLAG[c.type] ?? {})) {
      // null is read as absent (the default), as every reader of config.json here reads it.
      if (key in json && json[key] !== null) assert.equal(truthy(json[key]), computes, `${key}: ${JSON.stringify(json[key])} is run as ${computes}`);
    }
    for (const size of [c.layers, c.heads, c.kvHeads, c.dModel, c.headDim, c.vocab, c.contextLength, c.ffn]) assert.ok(whole(size), JSON.stringify(c));
    assert.equal(c.heads % c.kvHeads, 0);
    assert.ok(c.eps > 0 && Number.isFinite(c.eps));
    if (c.attention.kind === 'sliding') assert.ok(whole(c.attention.window));
    if (c.paddingIdx !== undefined) assert.ok(Number.isInteger(c.paddingIdx) && c.paddingIdx >= 0);
    if (c.tokenTypes !== undefined) assert.ok(whole(c.tokenTypes));
    if (c.block.position === 'rope') {
      assert.equal(c.headDim % 2, 0);
      // The last position's angles are the largest: finite there, finite everywhere.
      const { cos, sin } = ropeTables(c.contextLength, c.headDim, c.ropeTheta, c.contextLength - 1);
      for (const v of [...cos, ...sin]) assert.ok(Number.isFinite(v), `rope_theta ${c.ropeTheta}, head_dim ${c.headDim}`);
    }
  }), { seed: 20261127, numRuns: 3000 });
});

test('a rope_theta whose frequencies overflow is refused naming config.json and the key; a null head_dim or a list model_type is said as it is', () => {
  const rotary = { ...QWEN2_CONFIG, head_dim: 64 };
  // Before: 1 / 5e-324^(62/64) is Infinity, position 0 × Infinity is NaN, and attn run printed null weights with exit 0.
  for (const theta of [5e-324, 1e-320]) {
    assert.throws(() => readModelConfig(JSON.stringify({ ...rotary, rope_theta: theta })), /^ModelError: config\.json: "rope_theta": [0-9.e+-]+ is not supported \(RoPE's angle .* overflows at head_dim 64 and 32 positions\)$/);
  }
  assert.equal(readModelConfig(JSON.stringify({ ...rotary, rope_theta: 1e-300 })).ropeTheta, 1e-300);
  // Before: "head_dim" 5.333333333333333 is odd (a head_dim the config never gave).
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, num_attention_heads: 3, num_key_value_heads: 3, head_dim: null })),
    /^ModelError: config\.json: "hidden_size" 16 is not a multiple of "num_attention_heads" 3 \(and no "head_dim" is given\)$/);
  // Before: "model_type" is missing.
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, model_type: ['qwen2'] })), /^ModelError: config\.json: "model_type" must be a string \(.*\), got \["qwen2"\]$/);
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, model_type: name })), /is not supported \(attn runs/);
  }
  // Before: a truthy non-boolean ran without what it asks for.
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, use_sliding_window: 'true' })), /"use_sliding_window" must be true or false, got "true"/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, model_type: 'llama', attention_bias: 1 })), /"attention_bias" must be true or false, got 1/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...GPT2_CONFIG, scale_attn_weights: 0 })), /"scale_attn_weights" must be true or false, got 0/);
});

test('transformers 5\'s rope_parameters: its rope_theta is the base, a scaled rope_type or per-layer-type parameters are refused, two θ that disagree are refused', () => {
  const read = (extra: object) => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, rope_theta: undefined, ...extra }));
  // Before: rope_parameters was not read, so a Qwen2.5 saved by transformers 5 (θ 1,000,000 there,
  // and no rope_theta beside it) ran with θ 10,000, and a Llama 3.1 with plain RoPE: numbers that
  // only look right.
  assert.equal(read({ rope_parameters: { rope_type: 'default', rope_theta: 1000000 } }).ropeTheta, 1000000);
  assert.equal(read({ rope_parameters: { rope_theta: 500 } }).ropeTheta, 500);
  assert.equal(read({ rope_parameters: { rope_type: 'default' } }).ropeTheta, 10000);
  assert.equal(read({ rope_theta: 300, rope_parameters: { rope_type: 'default', rope_theta: 300 } }).ropeTheta, 300);
  assert.throws(() => read({ rope_parameters: { rope_type: 'llama3', rope_theta: 500000, factor: 8 } }), /^ModelError: config\.json: "rope_parameters": \{"rope_type":"llama3".* is not supported \(attn applies plain RoPE/);
  assert.throws(() => read({ rope_parameters: { full_attention: { rope_type: 'default', rope_theta: 1e6 }, sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } }), /"rope_parameters": .* is not supported \(attn reads one/);
  assert.throws(() => read({ rope_parameters: 'default' }), /"rope_parameters": "default" is not supported/);
  assert.throws(() => read({ rope_theta: 100, rope_parameters: { rope_theta: 1e6 } }), /^ModelError: config\.json: "rope_theta" 100 and "rope_parameters"'s rope_theta 1000000 disagree/);
  assert.throws(() => read({ rope_parameters: { rope_theta: -1 } }), /^ModelError: config\.json: "rope_parameters": "rope_theta" must be a positive number, got -1$/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, head_dim: 64, rope_theta: undefined, rope_parameters: { rope_theta: 5e-324 } })), /"rope_theta": 5e-324 is not supported \(RoPE's angle/);
});
