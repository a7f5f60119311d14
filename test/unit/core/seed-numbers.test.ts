// The seeds' hand-checked numbers, asserted exactly: if these move, the core is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../src/core/index.js';
import { scoreTerms } from '../../../src/core/attention/attention.js';
import { toRows } from '../../../src/core/linalg/matrix.js';
import { fullSizeEstimate } from '../../../src/core/attention/parameters.js';
import { analyzeOk, exampleText, SEED_LENS } from '../../support/specs.js';

test('W_Q turns apple, orange and watch into [8, 8], [0, 3] and [10, 6]', () => {
  const { result } = analyzeOk(SEED_LENS);
  assert.deepEqual(toRows(result.inputs[0].heads[0].q), [[8, 8], [0, 3], [10, 6]]);
});

test('W_K turns apple into [10, 6] and watch into [4, 4]', () => {
  const { result } = analyzeOk(SEED_LENS);
  const k = toRows(result.inputs[0].heads[0].k);
  assert.deepEqual(k[0], [10, 6]);
  assert.deepEqual(k[2], [4, 4]);
});

test('through the lens, watch scores apple 136 and itself 64', () => {
  const { result } = analyzeOk(SEED_LENS);
  const scores = toRows(result.inputs[0].heads[0].scores);
  assert.equal(scores[2][0], 136);
  assert.equal(scores[2][2], 64);
});

test('the terms of q_watch · k_apple are 10·10 and 6·6', () => {
  const { result } = analyzeOk(SEED_LENS);
  assert.deepEqual(scoreTerms(result.inputs[0].heads[0], 2, 0), [{ q: 10, k: 10 }, { q: 6, k: 6 }]);
});

test('the Apple-watch lens example gives the same 136 and 64 and watch attends to apple', () => {
  const a = analyze(exampleText('apple-watch-lens.attn.json'), { json: true });
  assert.ok(a.json);
  const input = a.json.inputs[0];
  const lens = input.heads.find((h) => h.name === 'tech lens');
  assert.ok(lens);
  const watch = input.tokens.indexOf('watch'), apple = input.tokens.indexOf('apple');
  assert.equal(lens.scores[watch][apple], 136);
  assert.equal(lens.scores[watch][watch], 64);
  assert.ok(lens.weights[watch][apple] > 0.99);
});

test('in raw space watch attends mostly to itself', () => {
  const a = analyze(exampleText('apple-watch-raw.attn.json'), { json: true });
  assert.ok(a.json);
  const input = a.json.inputs[0];
  const watch = input.tokens.indexOf('watch');
  const weights = input.heads[0].weights[watch];
  assert.equal(Math.max(...weights), weights[watch]);
  assert.ok(weights[watch] > 0.9);
});

test('the full-size estimate is 512 × 64 × 8 × 6 × 2 = 3,145,728', () => {
  assert.equal(fullSizeEstimate().total, 3145728);
  assert.equal(analyzeOk(SEED_LENS).json.parameters.fullSize.total, 3145728);
});

test('the spec counts its own learnable numbers; identity holds none', () => {
  const { json } = analyzeOk(SEED_LENS);
  assert.deepEqual(json.parameters.heads, [{ name: 'lens', wq: 6, wk: 6, wv: 0 }]);
  assert.equal(json.parameters.total, 12);
});

test('the mouse moves toward animal next to cat and toward tech next to keyboard', () => {
  const a = analyze(exampleText('mouse-two-contexts.attn.json'), { json: true });
  assert.ok(a.json);
  const [cat, keyboard] = a.json.inputs;
  const animal = a.json.features.indexOf('animal'), tech = a.json.features.indexOf('tech');
  const mouseCat = cat.output[cat.tokens.indexOf('mouse')];
  const mouseKey = keyboard.output[keyboard.tokens.indexOf('mouse')];
  // Same input embedding [2, 2, ...] in both sentences; the outputs lean opposite ways.
  assert.deepEqual(cat.embeddings[2], keyboard.embeddings[2]);
  assert.ok(mouseCat[animal] > mouseCat[tech]);
  assert.ok(mouseKey[tech] > mouseKey[animal]);
});

test('the mouse example divides scores by √d_model = 2', () => {
  const a = analyze(exampleText('mouse-two-contexts.attn.json'), { json: true });
  const h = a.json!.inputs[0].heads[0];
  assert.equal(h.divisor, 2);
  assert.equal(h.scaled[2][2], h.scores[2][2] / 2);
});
