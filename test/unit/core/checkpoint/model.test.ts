// A checkpoint made ready and run (src/core/checkpoint/model.ts): the memory budget from shapes
// (refused in a sentence with the most tokens that fit), the five most likely next tokens with
// their softmax p, --max-tokens and the context length.
import { test } from 'node:test';
import { seeded } from '../../../support/random.js';
import assert from 'node:assert/strict';
import { DEFAULT_RUN_BYTES, loadModel, mostTokens, runBytes, runRefusal, runText, topNext } from '../../../../src/core/checkpoint/model.js';
import { namesOf } from '../../../../src/core/checkpoint/weights.js';
import { installProductHelper } from '../../../../src/core/kernels/product-helper.js';
import { readModelConfig } from '../../../../src/core/checkpoint/config.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

// A text of n tokens; like the real tokenizer it stops at `limit` ids, and it keeps the limits it was asked for.
const limits: (number | undefined)[] = [];
const counting = (n: number): Tokenizer => ({
  vocabSize: 40,
  encode: (_text, limit) => {
    limits.push(limit);
    const m = Math.min(n, limit ?? n);
    return { ids: Array.from({ length: m }, (_, i) => i % 40), pieces: Array.from({ length: m }, (_, i) => `p${i}`) };
  },
  decodeOne: (id) => `t${id}`,
});

test('topNext: the five largest logits, most likely first, with their softmax p (ties by id)', () => {
  const logits = Float64Array.from([0, 2, 1, 3, 2, -1, 0.5]);
  const next = topNext(logits, 5, (id) => `#${id}`);
  assert.deepEqual(next.map((t) => t.id), [3, 1, 4, 2, 6]);
  const sum = [...logits].reduce((a, v) => a + Math.exp(v), 0);
  next.forEach((t) => assert.ok(Math.abs(t.p - Math.exp(logits[t.id]) / sum) < 1e-15));
  assert.equal(next[0].token, '#3');
});

test('topNext agrees with a full sort on 200 seeded vectors with many equal logits (ties by the lower id)', () => {
  const rand = seeded(9);
  for (let round = 0; round < 200; round++) {
    const logits = Float64Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.floor(rand() * 6) - 3);
    const sorted = [...logits.keys()].sort((a, b) => logits[b] - logits[a] || a - b).slice(0, 5);
    assert.deepEqual(topNext(logits, 5, String).map((t) => t.id), sorted);
  }
});

test('the budget: bytes grow with n², a refusal says how many tokens fit', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  assert.ok(runBytes(m, 200) > runBytes(m, 100) * 3);
  const budget = runBytes(m, 20);
  assert.equal(runRefusal(m, 20, budget), undefined);
  assert.match(runRefusal(m, 21, budget)!, /^a run of 21 tokens on this gpt2 model needs about .* GB \(.* GB of weights as stored, one layer's activations in float64, the attention it keeps\), over the budget of .* GB: use --max-tokens 20 or fewer$/);
  assert.throws(() => runText(m, counting(21), 'x', { budget }), /use --max-tokens 20 or fewer/);
});

test('runText: the run\'s shape; --max-tokens keeps the first tokens; past the context length without it is refused', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  const r = runText(m, counting(10), 'x');
  assert.deepEqual([r.ids.length, r.attention.length, r.attention[0].length, r.next.length], [10, 2, 4 * 100, 5]);
  assert.deepEqual(r.tokens.slice(0, 2), ['t0', 't1']);
  // Each query's weights sum to 1 and none falls on a later key.
  for (let i = 0; i < 10; i++) {
    const row = r.attention[1].subarray(3 * 100 + i * 10, 3 * 100 + i * 10 + 10);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6);
    for (let j = i + 1; j < 10; j++) assert.equal(row[j], 0);
  }
  limits.length = 0;
  assert.equal(runText(m, counting(40), 'x', { maxTokens: 7 }).ids.length, 7);
  assert.throws(() => runText(m, counting(40), 'x'), /the text is over 32 tokens, more than the model's context length of 32: use --max-tokens/);
  // The tokenizer is asked for only the ids the run can use: 7, then one past the context length.
  assert.deepEqual(limits, [7, 33]);
  assert.throws(() => runText(m, counting(0), 'x'), /no tokens/);
});

test('the budget counts the weights as stored: Qwen2.5-0.5B in BF16 (0.99 GB) fits 3 GiB in the editor, 512 tokens kept', () => {
  // Qwen/Qwen2.5-0.5B's config.json sizes; tensors of those shapes in BF16 with no bytes behind them
  // (the estimate reads shapes alone). Counted as float64 matrices it needed 3.4 GB before a token.
  const config = {
    model_type: 'qwen2', hidden_size: 896, intermediate_size: 4864, num_hidden_layers: 24, num_attention_heads: 14, num_key_value_heads: 2,
    max_position_embeddings: 32768, vocab_size: 151936, tie_word_embeddings: true, rope_theta: 1000000, rms_norm_eps: 1e-6,
  };
  const none = memorySource('model.safetensors', new Uint8Array(0));
  const { shapes } = namesOf(readModelConfig(JSON.stringify(config)), () => false);
  const tensors = new Map<string, TensorRef>([...shapes].map(([name, shape]) => [name, { name, dtype: 'BF16', shape, source: none, offset: 0 }]));
  for (const precision of ['f32', 'f64'] as const) {
    const m = loadModel(JSON.stringify(config), tensors, { keep: true, precision });
    assert.ok(Math.abs(m.elements.bytes.total - 0.988e9) < 0.01e9, `${m.elements.bytes.total} bytes`);
    if (precision === 'f64') continue;
    assert.ok(runBytes(m, 512) <= DEFAULT_RUN_BYTES, `${runBytes(m, 512)} bytes at 512 tokens`);
    assert.ok(mostTokens(m, DEFAULT_RUN_BYTES) >= 512);
    // The weights alone are a third of the budget; the rest is mostly attention (this run's and the kept one's).
    assert.ok(runBytes(m, 1) < m.elements.bytes.total * 1.01 + 50e6);
  }
});

test('a preloading model reads every weight before the pass, where holding them all fits the budget; the numbers are a lazy run\'s', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const lazy = loadModel(configText, tensors), first = loadModel(configText, tensors, { preload: true });
  const a = runText(lazy, counting(9), 'x'), b = runText(first, counting(9), 'x');
  assert.deepEqual(b.attention, a.attention);
  assert.deepEqual(b.next, a.next);
  // Every tensor read once, before the pass, and held: the stored bytes of all of them.
  assert.equal(first.weights.bytes, first.elements.bytes.total);
  const read = first.weights.decoded;
  runText(first, counting(9), 'x');
  assert.equal(first.weights.decoded, read, 'a second run reads nothing again');
  assert.equal(a.timings.loadMs, 0);
  assert.ok(b.timings.loadMs >= 0);
  // A budget that fits the run but not every weight held at once: read as the pass asks, as before.
  const tight = loadModel(configText, tensors, { preload: true });
  const need = runBytes(lazy, 9), all = runBytes({ ...lazy, keep: true }, 9);
  assert.ok(need < all, `${need} < ${all}`);
  const c = runText(tight, counting(9), 'x', { budget: need });
  assert.deepEqual(c.attention, a.attention);
  assert.ok(tight.weights.bytes < tight.elements.bytes.total, `${tight.weights.bytes} held of ${tight.elements.bytes.total}`);
  assert.equal(c.timings.loadMs, 0);
});

test('a preloading float32 run starts the product\'s other threads before it reads the weights; a float64 one does not', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const calls: string[] = [];
  installProductHelper({ product: () => false, prepare: () => calls.push('prepare') });
  try {
    runText(loadModel(configText, tensors, { preload: true }), counting(5), 'x');
    assert.deepEqual(calls, ['prepare']);
    runText(loadModel(configText, tensors, { preload: true, precision: 'f64' }), counting(5), 'x');
    runText(loadModel(configText, tensors), counting(5), 'x');
    assert.deepEqual(calls, ['prepare']);
  } finally {
    installProductHelper(undefined);
  }
});
