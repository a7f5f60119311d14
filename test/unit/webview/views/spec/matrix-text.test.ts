// The words of the matrix view (src: webview/views/spec/matrix-text.ts): a cell's hover text writes
// the dot product term by term (q_watch · k_apple = 10·10 + 6·6 = 136 in the apple-watch lens),
// |q||k| cos θ, the scaling and the weight; a masked cell says so; the value a cell is coloured by
// in each mode, and the mean of a block of cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../../src/core/index.js';
import { blockMeanText, cellLines, divisorText, meanBlock, value } from '../../../../../webview/views/spec/matrix-text.js';
import { analyzeOk, exampleText, SEED_LENS } from '../../../../support/specs.js';

const lens = analyze(exampleText('apple-watch-lens.attn.json')).data!;

test('apple-watch-lens, head "tech lens", watch → apple: 10·10 + 6·6 = 136, |q| = |k| = √136, θ = 0, weight 1', () => {
  const input = lens.inputs[0];
  assert.deepEqual(input.tokens, ['i', 'love', 'apple', 'watch']);
  const lines = cellLines(lens, input, 1, 3, 2);
  assert.equal(lines[0], 'watch → apple (query 4, key 3) · head "tech lens"');
  assert.equal(lines[1], 'q_watch · k_apple = 10·10 + 6·6 = 136');
  // q_watch = k_apple = (10, 6): |q| = |k| = √136 ≈ 11.66, and they point the same way.
  assert.equal(Math.sqrt(136).toFixed(2), '11.66');
  assert.equal(lines[2], '= |q||k| cos θ = 11.66 · 11.66 · 1.000 (θ = 0°)');
  assert.equal(lines[3], 'scaled: 136 ÷ 1 (no scaling) = 136');
  // watch's row of scores is (…, 136, 64): e^(64 − 136) is below 1e-31, so the weight is 1 at four digits.
  assert.equal(lines[4], 'weight: 1 (softmax of row "watch")');
  assert.equal(lines.length, 5);
  // The same cell's score, as the matrix colours it in each mode; watch on itself scores 64.
  assert.equal(value(input.heads[1], 'scores', 3, 2), 136);
  assert.equal(value(input.heads[1], 'scores', 3, 3), 64);
  assert.equal(value(input.heads[1], 'scaled', 3, 2), 136);
  assert.equal(value(input.heads[1], 'cosine', 3, 2), 1);
  assert.ok(Math.abs(value(input.heads[1], 'weights', 3, 2)! - 1) < 1e-12);
});

test('the divisor as written: √d_k with its value, "1 (no scaling)", or the spec\'s number', () => {
  assert.equal(divisorText(lens, lens.inputs[0].heads[1]), '1 (no scaling)');
  const sqrt = analyzeOk({ ...SEED_LENS, scale: 'sqrt_dk' }).data;
  assert.equal(divisorText(sqrt, sqrt.inputs[0].heads[0]), '√2 ≈ 1.414');
  const scaled = analyzeOk({ ...SEED_LENS, scale: 4 }).data;
  assert.equal(divisorText(scaled, scaled.inputs[0].heads[0]), '4');
  // The seed lens, watch → apple, scaled by √2: 136 / √2 ≈ 96.167.
  assert.equal(cellLines(sqrt, sqrt.inputs[0], 0, 2, 0)[3], 'scaled: 136 ÷ √2 ≈ 1.414 = 96.167');
});

test('a masked cell says it is masked, has no value in any mode, and a block of masked cells has no mean', () => {
  const causal = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const input = causal.inputs[0];
  const head = input.heads[0];
  assert.deepEqual(cellLines(causal, input, 0, 0, 1), [
    `${input.tokens[0]} → ${input.tokens[1]} (query 1, key 2) · head "${head.name}"`,
    `masked: "${input.tokens[0]}" may not attend to "${input.tokens[1]}", weight 0`,
  ]);
  for (const mode of ['scores', 'scaled', 'weights', 'cosine'] as const) assert.equal(value(head, mode, 0, 1), null, mode);
  // Queries 0–1 see only keys 0–1: the 2 × 2 block of queries 0–1 and keys 2–3 is all masked.
  assert.equal(meanBlock(head, 'weights', 0, 2, 2, input.tokens.length), null);
  assert.notEqual(meanBlock(head, 'weights', 0, 1, 2, input.tokens.length), null);
  assert.equal(blockMeanText('weight', null), 'mean weight: none, the mask hides every pair in this block');
});

test('a block\'s mean is over its unmasked pairs only, clipped at the edge of the matrix', () => {
  const causal = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const head = causal.inputs[0].heads[0];
  const n = causal.inputs[0].tokens.length;
  // Queries 0–1 × keys 0–1 under the causal mask: (0,0), (1,0), (1,1); the weights of query 1 add up to 1 on keys 0 and 1.
  const w = (i: number, j: number) => head.weights.data[i * n + j];
  assert.ok(Math.abs(meanBlock(head, 'weights', 0, 0, 2, n)! - (w(0, 0) + w(1, 0) + w(1, 1)) / 3) < 1e-15);
  assert.ok(Math.abs(meanBlock(head, 'weights', 0, 0, 2, n)! - 2 / 3) < 1e-12);
  // A block past the last row and column holds only the cell (n−1, n−1).
  assert.equal(meanBlock(head, 'scores', n - 1, n - 1, 4, n), value(head, 'scores', n - 1, n - 1));
  assert.equal(blockMeanText('score', 2 / 3), 'mean score: 0.667');
});
