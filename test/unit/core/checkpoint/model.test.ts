// A checkpoint made ready and run (src/core/checkpoint/model.ts): the memory budget from shapes
// (refused in a sentence with the most tokens that fit), the five most likely next tokens with
// their softmax p, --max-tokens and the context length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel, runBytes, runRefusal, runText, topNext } from '../../../../src/core/checkpoint/model.js';
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

test('the budget: bytes grow with n², a refusal says how many tokens fit', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const m = loadModel(configText, tensors);
  assert.ok(runBytes(m, 200) > runBytes(m, 100) * 3);
  const budget = runBytes(m, 20);
  assert.equal(runRefusal(m, 20, budget), undefined);
  assert.match(runRefusal(m, 21, budget)!, /a run of 21 tokens on this gpt2 model needs about .* GB, over the budget of .* GB: use --max-tokens 20 or fewer/);
  assert.throws(() => runText(m, counting(21), 'x', { budget }), /use --max-tokens 20 or fewer/);
});

test('runText: the run\'s shape; --max-tokens keeps the first tokens; past the context length without it is refused', () => {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG);
  const m = loadModel(configText, tensors);
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
