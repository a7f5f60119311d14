// The first non-finite number of a computed result (src/core/attention/overflow.ts): which input,
// which head (none for W_O), which intermediate, which query row, and the value itself; entries the
// mask hid (-Infinity on purpose in the scaled scores) are not overflows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findOverflow } from '../../../../src/core/attention/overflow.js';
import { computeAttention } from '../../../../src/core/attention/attention.js';
import { readSpec } from '../../../../src/core/spec/read.js';
import { analyze } from '../../../../src/core/index.js';
import { SEED_LENS } from '../../../support/specs.js';

function resultOf(value: unknown) {
  const { spec, problems } = readSpec(JSON.stringify(value));
  assert.deepEqual(problems, []);
  return computeAttention(spec!);
}

test('a result with finite numbers has no overflow, even with the causal mask\'s -Infinity scaled scores', () => {
  assert.equal(findOverflow(resultOf(SEED_LENS)), undefined);
  const causal = resultOf({ ...SEED_LENS, mask: 'causal' });
  assert.ok(causal.inputs[0].heads[0].scaled.data.includes(-Infinity), 'the mask hides keys with -Infinity');
  assert.equal(findOverflow(causal), undefined);
});

test('scores of 1e200 · 1e200 overflow: the first non-finite entry is named with its input, head, row and value', () => {
  // q = k = x; the scores are [[1, 1e200], [1e200, 1e400 = Infinity]]: the first Infinity is in row 1.
  const r = resultOf({ embeddings: { a: [1], b: [1e200] }, inputs: [{ tokens: ['a', 'b'] }], scale: 'none' });
  assert.deepEqual(findOverflow(r), { input: 0, head: 0, what: 'scores', row: 1, value: Infinity });
});

test('the intermediates are looked at in order q, k, v, scores, scaled: the earliest one is named', () => {
  // W_Q = 1e300 on an embedding of 1e10: q itself is 1e310 = Infinity, before any score.
  const q = resultOf({ embeddings: { a: [1e10] }, inputs: [{ tokens: ['a'] }], heads: [{ wq: [[1e300]] }] });
  assert.deepEqual(findOverflow(q), { input: 0, head: 0, what: 'q', row: 0, value: Infinity });
  const v = resultOf({ embeddings: { a: [1e10] }, inputs: [{ tokens: ['a'] }], heads: [{ wv: [[-1e300]] }] });
  assert.deepEqual(findOverflow(v), { input: 0, head: 0, what: 'v', row: 0, value: -Infinity });
  // Finite scores of 1e10 divided by a scale of 1e-300: the scaled scores overflow.
  const scaled = resultOf({ embeddings: { a: [1e5] }, inputs: [{ tokens: ['a'] }], scale: 1e-300 });
  assert.deepEqual(findOverflow(scaled), { input: 0, head: 0, what: 'scaled', row: 0, value: Infinity });
});

test('the second head of the second input is placed as input 1, head 1, when everything before it is finite', () => {
  const r = resultOf({
    embeddings: { zero: [0], one: [1] },
    inputs: [{ tokens: ['zero'] }, { tokens: ['zero', 'one'] }],
    heads: [{ name: 'plain' }, { name: 'loud', wq: [[1e300]], wk: [[1e300]] }],
    scale: 'none',
  });
  // Input 1, head "loud": q = k = [0, 1e300]; scores [[0, 0], [0, 1e600 = Infinity]].
  assert.deepEqual(findOverflow(r), { input: 1, head: 1, what: 'scores', row: 1, value: Infinity });
  // analyze turns it into an error placed on that head.
  const a = analyze(JSON.stringify({
    embeddings: { zero: [0], one: [1] },
    inputs: [{ tokens: ['zero'] }, { tokens: ['zero', 'one'] }],
    heads: [{ name: 'plain' }, { name: 'loud', wq: [[1e300]], wk: [[1e300]] }],
    scale: 'none',
  }));
  assert.equal(a.data, undefined);
  assert.equal(a.problems.length, 1);
  assert.equal(a.problems[0].path, 'heads[1]');
  assert.equal(a.problems[0].message, 'the numbers grow too large to compute: scores of "one" in head "loud" overflows past the largest number (±1.8e308); use smaller embeddings or weights');
});

test('an overflow in W_O has no head: it is the "W_O output"', () => {
  const r = resultOf({ embeddings: { a: [1e10] }, inputs: [{ tokens: ['a'] }], wo: [[1e300]] });
  const o = findOverflow(r);
  assert.deepEqual(o, { input: 0, what: 'W_O output', row: 0, value: Infinity });
  assert.equal('head' in o!, false);
});

test('a value whose ‖v W_O‖ passes the largest double while the output does not is named on its head and key', () => {
  // v = [1.5e308, 1.5e308] through W_O = I: the output is finite, its norm √2 · 1.5e308 is not.
  const spec = {
    embeddings: { a: [1, 1], b: [1.5e308, 1.5e308] }, inputs: [{ tokens: ['a', 'b'] }],
    heads: [{ name: 'wide', wq: [[0], [0]], wk: [[0], [0]] }], wo: [[1, 0], [0, 1]], mask: 'causal',
  };
  const r = resultOf(spec);
  assert.ok(r.inputs[0].output.data.every(Number.isFinite), 'the output itself is finite');
  assert.deepEqual(findOverflow(r), { input: 0, head: 0, what: '‖v W_O‖', row: 1, value: Infinity });
  const a = analyze(JSON.stringify(spec));
  assert.equal(a.data, undefined);
  assert.equal(a.problems[0].message, 'the numbers grow too large to compute: ‖v W_O‖ of "b" in head "wide" overflows past the largest number (±1.8e308); use smaller embeddings or weights');
});
