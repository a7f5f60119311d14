// The heads (src/core/spec/read/heads.ts): W_Q, W_K, W_V as a matrix, "identity" or omitted (the
// identity), a head's default name, W_K as wide as W_Q (d_k), and the scale and the mask: each
// problem at its own path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { exampleText } from '../../../../support/specs.js';
import { BASE, only, specOf } from '../../../../support/spec-problems.js';

// Moved from test/unit/core/spec/read.test.ts, every assertion kept.
test('W_K must be as wide as W_Q', () => {
  const p = only(JSON.stringify({ ...BASE, heads: [{ wq: [[1, 0], [0, 1], [1, 1]], wk: [[1], [0], [1]] }] }));
  assert.equal(p.path, 'heads[0].wk');
  assert.match(p.message, /1 column, expected 2 \(d_k/);
});

test('a non-positive scale and an unknown mask are refused', () => {
  assert.match(only(JSON.stringify({ ...BASE, scale: 0 })).message, /scale must be positive/);
  assert.match(only(JSON.stringify({ ...BASE, scale: -2 })).message, /scale must be positive/);
  assert.match(only(JSON.stringify({ ...BASE, scale: 'sqrt' })).message, /unknown scale "sqrt"/);
  const m = only(JSON.stringify({ ...BASE, mask: 'future' }));
  assert.equal(m.path, 'mask');
  assert.match(m.message, /unknown mask "future": expected "none" or "causal"/);
});

test('a missing W_K next to a narrow W_Q says W_K defaults to the identity', () => {
  const p = only(JSON.stringify({ ...BASE, heads: [{ wq: [[1], [0], [0]] }] }));
  assert.equal(p.path, 'heads[0].wk');
  assert.match(p.message, /W_K is missing, so it is the identity \(3 wide\), but W_Q is 1 wide/);
});

test('no "heads": one head, Q = K = V = input, with identity W_Q, W_K, W_V of d_model', () => {
  const spec = specOf(BASE);
  assert.equal(spec.headsGiven, false);
  assert.equal(spec.heads.length, 1);
  const h = spec.heads[0];
  assert.equal(h.name, 'Q = K = V = input');
  for (const w of [h.wq, h.wk, h.wv]) {
    assert.equal(w.identity, true);
    assert.deepEqual([w.matrix.rows, w.matrix.cols], [3, 3]);
    assert.deepEqual(Array.from(w.matrix.data), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  }
});

test('heads as written: a name or "head N", a matrix, "identity", and omitted roles as the identity', () => {
  const spec = specOf({ ...BASE, heads: [{ name: 'lens', wq: [[4, 3], [2, 1], [0, 1]], wk: [[1, 1], [1, 1], [4, 2]], wv: 'identity' }, { wv: [[1], [0], [2]] }] });
  assert.equal(spec.headsGiven, true);
  assert.deepEqual(spec.heads.map((h) => h.name), ['lens', 'head 2']);
  const [lens, second] = spec.heads;
  assert.deepEqual(Array.from(lens.wq.matrix.data), [4, 3, 2, 1, 0, 1]);
  assert.equal(lens.wq.identity, false);
  assert.equal(lens.wv.identity, true);
  assert.deepEqual([lens.wv.matrix.rows, lens.wv.matrix.cols], [3, 3]);
  assert.equal(second.wq.identity, true);
  assert.deepEqual([second.wv.matrix.rows, second.wv.matrix.cols], [3, 1]);
});

test('the scale: √d_k by default, "none", or a positive number with its place', () => {
  assert.deepEqual(specOf(BASE).scale, { kind: 'sqrt_dk' });
  assert.deepEqual(specOf({ ...BASE, scale: 'sqrt_dk' }).scale, { kind: 'sqrt_dk' });
  assert.deepEqual(specOf({ ...BASE, scale: 'none' }).scale, { kind: 'none' });
  const text = JSON.stringify({ ...BASE, scale: 0.5 });
  const scale = readSpec(text).spec!.scale;
  assert.equal(scale.kind, 'number');
  assert.equal(scale.kind === 'number' && scale.value, 0.5);
  assert.equal(scale.kind === 'number' && text.slice(scale.span!.offset, scale.span!.offset + scale.span!.length), '0.5');
  assert.equal(only(JSON.stringify({ ...BASE, scale: true })).path, 'scale');
});

test('the mask: none by default, "none" or "causal"; anything else is named', () => {
  assert.equal(specOf(BASE).mask, 'none');
  assert.equal(specOf({ ...BASE, mask: 'causal' }).mask, 'causal');
  assert.equal(only(JSON.stringify({ ...BASE, mask: 1 })).message, 'unknown mask the number 1: expected "none" or "causal"');
});

test('bad heads are refused at their path', () => {
  const cases: [unknown, string, string][] = [
    [[], 'heads', 'expected a non-empty list of heads, got a list of 0'],
    [{}, 'heads', 'expected a non-empty list of heads, got an object'],
    [[{}, 3], 'heads[1]', ''],
    [[{ wq: 'identiti' }], 'heads[0].wq', 'expected a matrix, "identity", { "init", "shape" } or { "file" }, got a string "identiti"'],
    [[{ name: 7 }], 'heads[0].name', ''],
  ];
  for (const [heads, path, message] of cases) {
    const p = only(JSON.stringify({ ...BASE, heads }));
    assert.equal(p.path, path, JSON.stringify(heads));
    if (message) assert.equal(p.message, message);
  }
});

test('W_K written out but narrower than W_Q is placed on W_K and says d_k', () => {
  const text = JSON.stringify({ ...BASE, heads: [{ wq: [[1, 0], [0, 1], [1, 1]], wk: [[1], [0], [1]] }] });
  const p = only(text);
  assert.equal(p.at, '[[1],[0],[1]]');
  assert.equal(p.message, '1 column, expected 2 (d_k: W_Q and W_K must be as wide, since scores are q · k)');
});

test('the seed projection 512 → 64: W_Q, W_K, W_V are generated 512 × 64, d_model 512', () => {
  const { spec, problems } = readSpec(exampleText('seed-projection-512-64.attn.json'));
  assert.deepEqual(problems, []);
  assert.equal(spec!.dModel, 512);
  const h = spec!.heads[0];
  assert.equal(h.name, '512 → 64');
  for (const w of [h.wq, h.wk, h.wv]) assert.deepEqual([w.matrix.rows, w.matrix.cols, w.identity], [512, 64, false]);
});
