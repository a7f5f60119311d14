import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { softmax, softmaxRow } from '../../../../src/core/attention/softmax.js';
import { assertInDelta } from '../../../support/specs.js';

test('softmax of scores 1000 and 1001 is finite and matches softmax of 0 and 1', () => {
  const big = softmax([1000, 1001]);
  const small = softmax([0, 1]);
  assert.ok(big.every(Number.isFinite));
  assertInDelta(big[0], small[0], 1e-15);
  assertInDelta(big[1], 1 / (1 + Math.exp(-1)), 1e-15);
});

test('a fully masked row gives zeros, not NaN, and reports it', () => {
  const out = new Float64Array(3);
  const ok = softmaxRow(Float64Array.from([1, 2, 3]), out, () => true);
  assert.equal(ok, false);
  assert.deepEqual(Array.from(out), [0, 0, 0]);
});

test('masked keys get weight exactly 0 and the rest still sum to 1', () => {
  const out = new Float64Array(3);
  softmaxRow(Float64Array.from([5, 1, 2]), out, (j) => j === 0);
  assert.equal(out[0], 0);
  assertInDelta(out[1] + out[2], 1, 1e-15);
});

test('softmax weights are in [0, 1], sum to 1, and keep the order of the scores', () => {
  fc.assert(fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 40 }), (scores) => {
    const w = softmax(scores);
    assertInDelta(w.reduce((s, x) => s + x, 0), 1, 1e-9);
    for (let i = 0; i < w.length; i++) {
      assert.ok(w[i] >= 0 && w[i] <= 1);
      for (let j = 0; j < w.length; j++) if (scores[i] > scores[j]) assert.ok(w[i] >= w[j]);
    }
  }));
});

test('adding the same number to every score leaves the weights unchanged', () => {
  fc.assert(fc.property(
    fc.array(fc.double({ min: -100, max: 100, noNaN: true }), { minLength: 1, maxLength: 20 }),
    fc.double({ min: -1000, max: 1000, noNaN: true }),
    (scores, shift) => {
      const a = softmax(scores), b = softmax(scores.map((s) => s + shift));
      a.forEach((v, i) => assertInDelta(v, b[i], 1e-9));
    }));
});
