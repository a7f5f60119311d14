// How many learnable numbers a spec holds (src/core/attention/parameters.ts): identity matrices hold
// none, but a matrix the "train" section learns counts in full, identity or not (the
// summary of learn-apple-watch and learn-value said "learnable numbers 0", in the lessons on learning).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../src/core/index.js';
import { summaryItems } from '../../../../webview/views/spec/summary.js';
import { exampleText } from '../../../support/specs.js';

test('learn-apple-watch learns W_Q and W_K (3 × 3 each, identity at first): 18 learnable numbers, not 0', () => {
  const p = analyze(exampleText('learn-apple-watch.attn.json')).data!.parameters;
  assert.deepEqual(p.heads.map((h) => [h.wq, h.wk, h.wv]), [[9, 9, 0]]);
  assert.equal(p.total, 18);
  const item = summaryItems(analyze(exampleText('learn-apple-watch.attn.json')).data!, 0).find((i) => i.label === 'learnable numbers')!;
  assert.equal(item.value, '18');
});

test('learn-value learns W_V alone: 9 learnable numbers', () => {
  const p = analyze(exampleText('learn-value.attn.json')).data!.parameters;
  assert.deepEqual(p.heads.map((h) => [h.wq, h.wk, h.wv]), [[0, 0, 9]]);
  assert.equal(p.total, 9);
});

test('without "train", identity matrices still hold none and written ones count: apple-watch-lens\'s tech lens is 3 × 2 three times', () => {
  const p = analyze(exampleText('apple-watch-lens.attn.json')).data!.parameters;
  assert.deepEqual(p.heads.map((h) => [h.wq, h.wk, h.wv]), [[0, 0, 0], [6, 6, 6]]);
  assert.equal(p.total, 18);
});
