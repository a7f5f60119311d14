// A key written twice in one object (src/core/spec/read/duplicates.ts): each repeat is an error on
// the repeated key, with the path to it and the line of the first, at any depth; the same key in
// two different objects is no repeat.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { BASE, problemsOf, only, specOf } from '../../../../support/spec-problems.js';

// Moved from test/unit/core/spec/read.test.ts, every assertion kept.
test('a key written twice is an error on the second one, naming the line of the first', () => {
  const text = '{\n  "features": ["a", "b", "c"],\n  "embeddings": { "x": [1, 0, 0] },\n  "inputs": [{ "tokens": ["x"] }],\n  "scale": "none",\n  "scale": 2\n}';
  const p = only(text);
  assert.equal(p.path, 'scale');
  assert.equal(p.where.line, 6);
  assert.match(p.message, /"scale" is written twice \(also at line 5\)/);
});

test('a repeat inside an array element or a nested object is placed on its own key, with its path', () => {
  const text = '{\n  "features": ["a", "b", "c"],\n  "embeddings": {\n    "x": [1, 0, 0],\n    "x": [0, 1, 0]\n  },\n  "inputs": [{ "tokens": ["x"], "tokens": ["x", "x"] }]\n}';
  // Both are found, in whichever order the walk meets them.
  const ps = problemsOf(text).sort((p, q) => p.path.localeCompare(q.path));
  assert.deepEqual(ps.map((p) => [p.severity, p.path, p.at, p.where.line, p.where.column]), [
    ['error', 'embeddings.x', '"x"', 5, 5],
    ['error', 'inputs[0].tokens', '"tokens"', 7, 33],
  ]);
  assert.match(ps[0].message, /^"x" is written twice \(also at line 4\): keep one, since JSON readers disagree on which wins$/);
  assert.match(ps[1].message, /^"tokens" is written twice \(also at line 7\)/);
  assert.equal(readSpec(text).spec, undefined);
});

test('a key written three times gives two errors, each naming the first one\'s line', () => {
  const text = '{\n"features": ["a"],\n"embeddings": { "x": [1] },\n"inputs": [{ "tokens": ["x"] }],\n"mask": "none",\n"mask": "none",\n"mask": "none"\n}';
  const ps = problemsOf(text).sort((p, q) => p.where.line - q.where.line);
  assert.deepEqual(ps.map((p) => [p.path, p.where.line]), [['mask', 6], ['mask', 7]]);
  assert.ok(ps.every((p) => /\(also at line 5\)/.test(p.message)));
});

test('the same key in different objects, and a key named like a value, are no repeat', () => {
  const spec = specOf({ ...BASE, embeddings: { x: [1, 0, 0], y: [0, 1, 0] }, heads: [{ name: 'wq', wq: 'identity' }, { name: 'h', wq: 'identity' }] });
  assert.equal(spec.heads.length, 2);
});

test('a long repeated key is quoted clipped to 40 characters', () => {
  const key = 'k'.repeat(100);
  const text = `{"features": ["a"], "embeddings": {"${key}": [1], "${key}": [1]}, "inputs": [{"tokens": ["x"]}]}`;
  const p = problemsOf(text).find((q) => /written twice/.test(q.message))!;
  assert.equal(p.message, `"${'k'.repeat(40)}…" is written twice (also at line 1): keep one, since JSON readers disagree on which wins`);
});
