// One analysis packed to travel (src/core/result/analyze-wire.ts): the problems as they are, the
// result as a wire message that decodes back to the same numbers, a reference or the spec's story as
// they are; nothing else. A failed analysis is one error at the top of the spec.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../src/core/index.js';
import { failedAnalysis, wireAnalysis } from '../../../../src/core/result/analyze-wire.js';
import { decodeAttention } from '../../../../src/core/result/wire.js';
import { exampleText, SEED_LENS } from '../../../support/specs.js';

test('a computed spec travels as its problems and a wire message that decodes to the same numbers', () => {
  const a = analyze(exampleText('apple-watch-lens.attn.json'));
  assert.ok(a.data);
  const w = wireAnalysis(a);
  assert.deepEqual(Object.keys(w), ['problems', 'wire', 'story']);
  assert.equal(w.problems, a.problems);
  assert.equal(w.story, a.story, "the spec's description, open and next, as they are");
  assert.equal(w.story?.next, 'seed-projection-512-64.attn.json');
  const back = decodeAttention(w.wire!.header, w.wire!.buffer);
  assert.equal(back.dModel, a.data.dModel);
  assert.deepEqual(back.features, a.data.features);
  assert.deepEqual(back.inputs.map((i) => i.tokens), a.data.inputs.map((i) => i.tokens));
  const head = (d: typeof back) => d.inputs[0].heads[0];
  assert.deepEqual(Array.from(head(back).scores.data), Array.from(head(a.data).scores.data));
  assert.deepEqual(Array.from(head(back).weights.data), Array.from(head(a.data).weights.data));
});

test('the seed lens\'s score of watch on apple, 136, survives the trip', () => {
  const a = analyze(JSON.stringify(SEED_LENS));
  const back = decodeAttention(wireAnalysis(a).wire!.header, wireAnalysis(a).wire!.buffer);
  const h = back.inputs[0].heads[0];
  // Tokens apple, orange, watch: the query watch (row 2) on the key apple (column 0).
  assert.equal(h.scores.data[2 * h.scores.cols + 0], 136);
});

test('a spec with errors travels as its problems alone: no wire, no linalg', () => {
  const a = analyze(JSON.stringify({ ...SEED_LENS, scale: -1 }));
  assert.equal(a.data, undefined);
  const w = wireAnalysis(a);
  assert.deepEqual(Object.keys(w), ['problems']);
  assert.equal(w.problems.length, 1);
  assert.equal(w.problems[0].path, 'scale');
});

test('a reference spec travels as its reference, with no wire', () => {
  const a = analyze(JSON.stringify({ attention: { file: 'run1.safetensors', tensor: 'attn' }, tokens: ['The', 'cat'] }));
  const w = wireAnalysis(a);
  assert.deepEqual(Object.keys(w), ['problems', 'reference']);
  assert.equal(w.reference, a.reference);
  assert.equal(w.reference!.file, 'run1.safetensors');
});

test('a failed analysis is one internal error at offset 0 of the spec, for the whole file', () => {
  assert.deepEqual(failedAnalysis('the worker died'), {
    problems: [{ severity: 'error', path: '', message: 'internal error: the worker died', span: { offset: 0, length: 0 } }],
  });
});
