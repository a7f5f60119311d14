// Largest and smallest of many numbers without spreading them into Math.max (src/core/linalg/extent.ts):
// non-finite values are skipped, the fallback answers when no finite value is left, and a list far
// past the engine's argument limit is read without overflowing the stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extentOf, maxOf, minOf } from '../../../../src/core/linalg/extent.js';

const id = (v: number) => v;

test('maxOf and minOf give the largest and smallest finite f(item)', () => {
  assert.equal(maxOf([3, -1, 7, 2], id), 7);
  assert.equal(minOf([3, -1, 7, 2], id), -1);
  assert.equal(maxOf([{ w: 0.25 }, { w: 0.75 }, { w: 0.5 }], (t) => t.w), 0.75);
  assert.equal(minOf([{ w: 0.25 }, { w: 0.75 }, { w: 0.5 }], (t) => t.w), 0.25);
  assert.equal(maxOf([-5, -2, -9], id), -2);
  assert.equal(minOf([-5, -2, -9], id), -9);
  // Any iterable, read once.
  function* values() { yield 4; yield 10; yield -3; }
  assert.equal(maxOf(values(), id), 10);
  assert.equal(minOf(values(), id), -3);
});

test('NaN and ±Infinity are skipped, not returned', () => {
  assert.equal(maxOf([1, Infinity, NaN, 2], id), 2);
  assert.equal(minOf([1, -Infinity, NaN, 2], id), 1);
  assert.deepEqual(extentOf([NaN, 5, -Infinity, -2, Infinity]), [-2, 5]);
});

test('with no finite value the fallback answers: 0, or the one given', () => {
  assert.equal(maxOf([], id), 0);
  assert.equal(minOf([], id), 0);
  assert.equal(maxOf([NaN, Infinity], id, 1), 1);
  assert.equal(minOf([NaN, -Infinity], id, -4), -4);
  assert.deepEqual(extentOf([]), [0, 0]);
  assert.deepEqual(extentOf([NaN, Infinity, -Infinity], [0, 1]), [0, 1]);
  // One finite value: it is both ends.
  assert.deepEqual(extentOf([NaN, 3]), [3, 3]);
  // The fallback is used only when nothing finite was seen, even if it is larger or smaller.
  assert.equal(maxOf([-7], id, 100), -7);
  assert.equal(minOf([7], id, -100), 7);
});

test('a million values (past the argument limit of Math.max(...values)) are read without a stack overflow', () => {
  const n = 1_000_000;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = Math.sin(i);
  values[123_456] = 2;
  values[654_321] = -3;
  assert.throws(() => Math.max(...values), RangeError);
  assert.equal(maxOf(values, id), 2);
  assert.equal(minOf(values, id), -3);
  assert.deepEqual(extentOf(values), [-3, 2]);
});
