// Bad input gets a clear message at the exact place, never a throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../src/core/spec/read.js';
import { formatProblem } from '../../../../src/core/json/problems.js';
import { BASE, problemsOf, only } from '../../../support/spec-problems.js';

test('a clean spec has no problems', () => {
  const r = readSpec(JSON.stringify(BASE));
  assert.deepEqual(r.problems, []);
  assert.equal(r.spec?.dModel, 3);
});

test('an empty file says it is empty', () => {
  assert.match(only('').message, /empty/);
  assert.match(only('  \n ').message, /empty/);
});

test('malformed JSON is reported at the broken character', () => {
  const text = '{\n  "inputs": [1,\n  2\n';
  const ps = problemsOf(text);
  assert.ok(ps.length >= 1);
  assert.match(ps[0].message, /invalid JSON/);
  assert.ok(ps.every((p) => p.span.offset <= text.length));
});

test('a heads[0].wq with 2 rows for d_model 3 says so at the matrix', () => {
  const text = JSON.stringify({ ...BASE, heads: [{ wq: [[1, 0], [0, 1]] }] }, null, 2);
  const p = only(text);
  assert.equal(p.path, 'heads[0].wq');
  assert.equal(p.message, '2 rows, expected 3 (d_model)');
  assert.equal(p.at, JSON.stringify([[1, 0], [0, 1]], null, 2).replace(/\n/g, '\n      '));
  assert.equal(formatProblem('f.attn.json', text, p).startsWith(`f.attn.json:${p.where.line}:${p.where.column}: heads[0].wq: 2 rows`), true);
});

test('an unknown token is named, placed on its string, and the known words listed', () => {
  const text = JSON.stringify({ ...BASE, inputs: [{ tokens: ['x', 'zebra'] }] }, null, 2);
  const p = only(text);
  assert.equal(p.path, 'inputs[0].tokens[1]');
  assert.equal(p.at, '"zebra"');
  assert.match(p.message, /unknown token "zebra".*known: x, y/);
});

test('a token matches its embedding case-insensitively when the match is unique', () => {
  const r = readSpec(JSON.stringify({ ...BASE, inputs: [{ tokens: ['X', 'y'] }] }));
  assert.deepEqual(r.problems, []);
  assert.deepEqual(Array.from(r.spec!.inputs[0].tokens[0].embedding), [1, 0, 0]);
});

test('ragged rows name the row that differs', () => {
  const text = JSON.stringify({ ...BASE, heads: [{ wq: [[1, 0], [0, 1, 5], [1, 1]] }] });
  const p = only(text);
  assert.equal(p.path, 'heads[0].wq[1]');
  assert.equal(p.at, '[0,1,5]');
  assert.match(p.message, /row 1 has 3 numbers but the other 2 rows have 2/);
});

test('a number added to row 0 is underlined on row 0, not on the rows that agree', () => {
  const text = JSON.stringify({ ...BASE, heads: [{ wq: [[4, 3, 7], [2, 1], [0, 1]], wk: [[1, 1], [1, 1], [4, 2]] }] });
  const p = only(text);
  assert.equal(p.path, 'heads[0].wq[0]');
  assert.equal(p.at, '[4,3,7]');
  assert.equal(p.message, 'row 0 has 3 numbers but the other 2 rows have 2: every row must be as long');
  // Dropped from the last row: that row, and the one it differs from is named when only one agrees.
  const two = only(JSON.stringify({ ...BASE, features: ['a', 'b'], embeddings: { x: [1, 0], y: [0, 1] }, heads: [{ wq: [[1, 0], [1]] }] }));
  assert.equal(two.path, 'heads[0].wq[1]');
  assert.equal(two.message, 'row 1 has 1 number but row 0 has 2: every row must be as long');
});

test('a string where a number belongs is placed on the string', () => {
  const text = JSON.stringify({ ...BASE, embeddings: { x: [1, '0', 0], y: [0, 1, 0] } });
  const p = only(text);
  assert.equal(p.path, 'embeddings.x[1]');
  assert.equal(p.at, '"0"');
  assert.match(p.message, /expected a number, got a string "0"/);
});

test('a number that overflows to Infinity (1e400) is refused where it stands', () => {
  const text = '{"features":["a"],"embeddings":{"x":[1e400]},"inputs":[{"tokens":["x"]}]}';
  const p = only(text);
  assert.equal(p.at, '1e400');
  assert.match(p.message, /overflows to Infinity/);
});

test('wrong embedding length names d_model', () => {
  const p = only(JSON.stringify({ ...BASE, embeddings: { x: [1, 0], y: [0, 1, 0] } }));
  assert.equal(p.path, 'embeddings.x');
  assert.equal(p.message, '2 numbers, expected 3 (d_model, the number of features)');
});

test('W_O rows must add up to the heads\' d_v', () => {
  const p = only(JSON.stringify({ ...BASE, heads: [{ wv: [[1], [0], [0]] }, {}], wo: [[1], [1]] }));
  assert.equal(p.path, 'wo');
  assert.match(p.message, /2 rows, expected 4 \(the heads' d_v added up: 1 \+ 3\)/);
});

test('absurd nesting is refused without overflowing the stack', () => {
  const depth = 100000;
  const p = only('['.repeat(depth) + ']'.repeat(depth));
  assert.match(p.message, /nested more than 64 levels/);
});

test('a spec over the size cap says big tensors belong in a binary file', () => {
  const r = readSpec(JSON.stringify(BASE), { maxBytes: 10 });
  assert.match(r.problems[0].message, /over the .* limit.*binary file/);
});

test('all problems are collected, not just the first', () => {
  const text = JSON.stringify({ ...BASE, embeddings: { x: [1, 'a', 0], y: [0, 1] }, scale: -1, mask: 'x' });
  const errors = readSpec(text).problems.filter((p) => p.severity === 'error');
  assert.deepEqual(errors.map((p) => p.path).sort(), ['embeddings.x[1]', 'embeddings.y', 'mask', 'scale']);
});

test('an unknown property is a warning on its key', () => {
  const text = JSON.stringify({ ...BASE, head: [] });
  const r = readSpec(text);
  assert.ok(r.spec);
  assert.equal(r.problems.length, 1);
  assert.equal(r.problems[0].severity, 'warning');
  assert.equal(text.slice(r.problems[0].span.offset, r.problems[0].span.offset + r.problems[0].span.length), '"head"');
});

test('tokens may carry inline embeddings and then need no table', () => {
  const r = readSpec(JSON.stringify({ inputs: [{ tokens: [{ text: 'a', embedding: [1, 2] }, { text: 'b', embedding: [0, 1] }] }] }));
  assert.deepEqual(r.problems, []);
  assert.equal(r.spec?.dModel, 2);
  assert.equal(r.spec?.inputs[0].tokens[1].inline, true);
});

test('a top level that is not an object is refused', () => {
  assert.match(only('[1, 2]').message, /expected a JSON object/);
  assert.match(only('42').message, /expected a JSON object/);
});

test('missing inputs is an error', () => {
  assert.match(only(JSON.stringify({ features: ['a'], embeddings: { x: [1] } })).message, /missing "inputs"/);
});

test('an input mask must be n × n of 0 and 1', () => {
  const p = only(JSON.stringify({ ...BASE, inputs: [{ tokens: ['x', 'y'], mask: [[1, 2], [1, 1]] }] }));
  assert.equal(p.path, 'inputs[0].mask[0][1]');
});

test('a spec that would take billions of multiply-adds is refused up front', () => {
  // 2,048 tokens of d_model 256 with the identity head: within the cell limit, but ~2.5e9 multiply-adds.
  const tokens = Array.from({ length: 2048 }, () => 'x');
  const p = only(JSON.stringify({ embeddings: { x: Array.from({ length: 256 }, () => 1) }, inputs: [{ tokens }] }));
  assert.match(p.message, /billion multiply-adds/);
});

test('a broken embedding does not hide an unrelated unknown token', () => {
  const text = JSON.stringify({ ...BASE, embeddings: { x: [1, '0', 0], y: [0, 1, 0] }, inputs: [{ tokens: ['x', 'zebra'] }] });
  const paths = readSpec(text).problems.map((p) => p.path);
  assert.deepEqual(paths, ['embeddings.x[1]', 'inputs[0].tokens[1]']);
});

test('a byte-order mark at the start is read as white space', () => {
  const r = readSpec('\uFEFF' + JSON.stringify(BASE));
  assert.deepEqual(r.problems, []);
});

test('counts read as English: "1 row", not "1 rows"', () => {
  assert.equal(only(JSON.stringify({ ...BASE, heads: [{ wq: [[1, 0]] }] })).message, '1 row, expected 3 (d_model)');
});

test('too many attention cells (tokens² × heads) is refused before any memory is taken', () => {
  const tokens = Array.from({ length: 1100 }, () => 'x');
  const p = only(JSON.stringify({ features: ['a'], embeddings: { x: [1] }, inputs: [{ tokens }], heads: [{}, {}, {}, {}] }));
  assert.match(p.message, /4,840,000 attention cells .* over the 4,194,304 limit/);
});
