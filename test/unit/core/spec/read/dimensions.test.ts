// d_model and the feature names (src/core/spec/read/dimensions.ts): from "features" when given,
// else the width of the first embedding, else of the first inline token embedding, with the
// features then named d0, d1, …; a spec that gives none of them cannot be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { exampleText } from '../../../../support/specs.js';
import { specOf } from '../../../../support/spec-problems.js';

function only(value: unknown) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const ps = readSpec(text).problems.filter((p) => p.severity === 'error');
  assert.equal(ps.length, 1, JSON.stringify(ps));
  return { ...ps[0], at: text.slice(ps[0].span.offset, ps[0].span.offset + ps[0].span.length) };
}

test('"features" given: d_model is their number and they keep their names', () => {
  const spec = specOf({ features: ['is_tech', 'is_watch', 'is_fruit'], embeddings: { apple: [2, 0, 2] }, inputs: [{ tokens: ['apple'] }] });
  assert.equal(spec.dModel, 3);
  assert.deepEqual(spec.features, ['is_tech', 'is_watch', 'is_fruit']);
  assert.equal(spec.featuresGiven, true);
});

test('no "features": d_model is the first embedding\'s width, the features d0 … d(n-1)', () => {
  const spec = specOf({ embeddings: { a: [1, 2, 3, 4], b: [0, 0, 0, 0] }, inputs: [{ tokens: ['a', 'b'] }] });
  assert.equal(spec.dModel, 4);
  assert.deepEqual(spec.features, ['d0', 'd1', 'd2', 'd3']);
  assert.equal(spec.featuresGiven, false);
  // The seed projection's embeddings are 512 wide.
  const seed = readSpec(exampleText('seed-projection-512-64.attn.json')).spec!;
  assert.equal(seed.dModel, 512);
  assert.equal(seed.features[511], 'd511');
});

test('no table of embeddings: d_model is the width of the first inline embedding, past tokens without one', () => {
  const spec = specOf({ inputs: [{ tokens: [{ text: 'a', embedding: [1, 2] }] }, { tokens: [{ text: 'b', embedding: [3, 4] }] }] });
  assert.equal(spec.dModel, 2);
  assert.deepEqual(spec.features, ['d0', 'd1']);
  const laterInput = readSpec(JSON.stringify({ embeddings: {}, inputs: [{ tokens: [{ text: 'c', embedding: [] }] }, { tokens: [{ text: 'a', embedding: [1, 2, 3] }] }] }));
  // The empty one is skipped for the width (and refused on its own as 0 numbers for d_model 3).
  assert.ok(laterInput.problems.every((p) => !/cannot tell d_model/.test(p.message)), JSON.stringify(laterInput.problems));
  assert.ok(laterInput.problems.some((p) => p.path === 'inputs[0].tokens[0].embedding'), JSON.stringify(laterInput.problems));
});

test('nothing to tell d_model from: one error on the whole spec', () => {
  const p = only({ inputs: [{ tokens: ['a'] }] });
  assert.equal(p.path, '');
  assert.equal(p.message, 'cannot tell d_model: give "features" (names of the dimensions) or at least one embedding');
  assert.equal(p.span.offset, 0);
});

test('bad "features" are refused at their place, and nothing else is read against them', () => {
  const empty = only({ features: [], embeddings: { a: [1] }, inputs: [{ tokens: ['a'] }] });
  assert.equal(empty.path, 'features');
  assert.equal(empty.message, 'expected a non-empty list of feature names, got a list of 0');
  assert.equal(only({ features: 'abc', embeddings: { a: [1] }, inputs: [{ tokens: ['a'] }] }).message, 'expected a non-empty list of feature names, got a string "abc"');
  const twice = only({ features: ['x', 'y', 'x'], embeddings: { a: [1, 2, 3] }, inputs: [{ tokens: ['a'] }] });
  assert.equal(twice.path, 'features[2]');
  assert.equal(twice.at, '"x"');
  assert.equal(twice.message, 'feature "x" is named twice');
  const notText = only({ features: ['x', 2], embeddings: { a: [1, 2] }, inputs: [{ tokens: ['a'] }] });
  assert.equal(notText.path, 'features[1]');
});
