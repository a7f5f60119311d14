import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { softmax, softmaxInto, softmaxRow } from '../../../../src/core/attention/softmax.js';
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

/** The row softmax as it was written out before there was one kernel: the contract softmaxInto keeps. */
function reference(scores: readonly number[], divisor: number, masked: readonly boolean[]): { weights: number[]; logSumExp: number } {
  let max = -Infinity;
  for (let j = 0; j < scores.length; j++) if (!masked[j] && scores[j] / divisor > max) max = scores[j] / divisor;
  if (max === -Infinity) return { weights: scores.map(() => 0), logSumExp: -Infinity };
  const e = scores.map((s, j) => (masked[j] ? 0 : Math.exp(s / divisor - max)));
  let sum = 0;
  for (const x of e) sum += x;
  return { weights: e.map((x) => x / sum), logSumExp: max + Math.log(sum) };
}

/** Equal as numbers, −0 and +0 apart, every NaN equal to every NaN (the sign bit of a NaN is not a value). */
const sameNumber = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

const score = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, 1e308, -1e308, 0, -0) },
);

test('softmaxInto is the written-out row softmax for any scores, divisor, mask and offsets, NaN and ±Infinity included, and returns the log-sum-exp', () => {
  fc.assert(fc.property(
    fc.array(fc.tuple(score, fc.boolean()), { minLength: 1, maxLength: 24 }),
    fc.constantFrom(1, 8, Math.sqrt(3), 0.7, 1e-300),
    fc.nat(5), fc.nat(5), fc.nat(5),
    (row, divisor, at, outAt, maskAt) => {
      const n = row.length;
      const scores = new Float64Array(at + n), out = new Float64Array(outAt + n + 2).fill(7), mask = new Uint8Array(maskAt + n);
      row.forEach(([s, m], j) => { scores[at + j] = s; mask[maskAt + j] = m ? 1 : 0; });
      const expected = reference(row.map(([s]) => s), divisor, row.map(([, m]) => m));
      const logSumExp = softmaxInto(scores, at, n, out, outAt, divisor, mask, maskAt);
      assert.ok(sameNumber(logSumExp, expected.logSumExp), `log-sum-exp ${logSumExp}, expected ${expected.logSumExp}`);
      for (let j = 0; j < n; j++) assert.ok(sameNumber(out[outAt + j], expected.weights[j]), `weight ${j}: ${out[outAt + j]}, expected ${expected.weights[j]}`);
      for (let j = 0; j < outAt; j++) assert.equal(out[j], 7, 'nothing written before the row');
      assert.deepEqual(Array.from(out.subarray(outAt + n)), [7, 7], 'nothing written after the row');
      // In place (out = scores) and without a mask (every byte 0) give the same numbers.
      const inPlace = scores.slice();
      softmaxInto(inPlace, at, n, inPlace, at, divisor, mask, maskAt);
      for (let j = 0; j < n; j++) assert.ok(sameNumber(inPlace[at + j], out[outAt + j]), `in place, weight ${j}`);
      const unmasked = reference(row.map(([s]) => s), divisor, row.map(() => false)).weights;
      const noMask = new Float64Array(n);
      softmaxInto(scores, at, n, noMask, 0, divisor);
      for (let j = 0; j < n; j++) assert.ok(sameNumber(noMask[j], unmasked[j]), `no mask, weight ${j}`);
    }), { numRuns: 2000 });
});

test('the log-sum-exp says how a row came out: −Infinity for a row with no key to weigh (all zeros), NaN for an overflowed row (all NaN)', () => {
  const out = new Float64Array(3).fill(5);
  assert.equal(softmaxInto(Float64Array.from([1, 2, 3]), 0, 3, out, 0, 1, Uint8Array.from([1, 1, 1])), -Infinity);
  assert.deepEqual(Array.from(out), [0, 0, 0]);
  assert.equal(softmaxInto(Float64Array.from([-Infinity, NaN, -Infinity]), 0, 3, out.fill(5), 0), -Infinity, 'NaN is never a row\'s max');
  assert.deepEqual(Array.from(out), [0, 0, 0]);
  assert.ok(Number.isNaN(softmaxInto(Float64Array.from([Infinity, 1, 2]), 0, 3, out, 0, 1, Uint8Array.from([0, 0, 1]))));
  assert.ok(Array.from(out).every(Number.isNaN), 'the masked weight too');
  assertInDelta(softmaxInto(Float64Array.from([2, 4]), 0, 2, out, 0, 2), Math.log(Math.exp(1) + Math.exp(2)), 1e-15);
});
