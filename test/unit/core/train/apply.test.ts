// Apply Learned Weights, without an editor: the edits write the learnt matrices where the head
// had them (or add them), and the edited spec reads back with those matrices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../src/core/spec/read.js';
import { train } from '../../../../src/core/train/descent.js';
import { applyEdits, learnedWeightEdits } from '../../../../src/core/train/apply.js';
import { exampleText } from '../../../support/specs.js';

function close(a: Float64Array, b: Float64Array): void {
  assert.equal(a.length, b.length);
  a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= 5e-6 * Math.max(1, Math.abs(b[i])), `${v} vs ${b[i]}`));
}

test('learn-apple-watch: "identity" W_Q and W_K are replaced by the learnt matrices; the spec reads back and still trains', () => {
  const text = exampleText('learn-apple-watch.attn.json');
  const spec = readSpec(text).spec!;
  const run = train(spec, spec.train!);
  const edits = learnedWeightEdits(text, 0, run.weights, spec.train!.learn);
  assert.ok(Array.isArray(edits));
  const after = applyEdits(text, edits);
  const read = readSpec(after);
  assert.deepEqual(read.problems, []);
  close(read.spec!.heads[0].wq.matrix.data, run.weights.wq.data);
  close(read.spec!.heads[0].wk.matrix.data, run.weights.wk.data);
  assert.equal(read.spec!.heads[0].wv.identity, true, 'W_V was not learnt and is untouched');
  assert.match(after, /"wq": \[\n\s+\[1\.19/);
});

test('a head without "wv" gets one added, and the result parses', () => {
  const text = '{\n  "embeddings": { "a": [1, 0], "b": [0, 1] },\n  "inputs": [{ "tokens": ["a", "b"] }],\n  "heads": [\n    {\n      "name": "h"\n    }\n  ],\n  "train": { "learn": ["wv"], "targets": [{ "query": "b", "output": [2, 2] }], "steps": 20 }\n}\n';
  const spec = readSpec(text).spec!;
  const run = train(spec, spec.train!);
  const edits = learnedWeightEdits(text, 0, run.weights, ['wv']);
  assert.ok(Array.isArray(edits));
  const read = readSpec(applyEdits(text, edits));
  assert.deepEqual(read.problems, []);
  close(read.spec!.heads[0].wv.matrix.data, run.weights.wv.data);
});

test('no "heads" written out: a sentence, not an edit', () => {
  const text = '{ "embeddings": { "a": [1] }, "inputs": [{ "tokens": ["a"] }] }';
  const r = learnedWeightEdits(text, 0, { wq: { rows: 1, cols: 1, data: new Float64Array([1]) }, wk: { rows: 1, cols: 1, data: new Float64Array([1]) }, wv: { rows: 1, cols: 1, data: new Float64Array([1]) } }, ['wq']);
  assert.equal(typeof r, 'string');
});
