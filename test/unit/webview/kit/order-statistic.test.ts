// orderStatistic gives what Float64Array's sort puts at index k, and the last element, for arrays of
// every kind: ties, ±0, NaN, negatives, sorted and reversed runs, and the 99th percentile of weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { orderStatistic } from '../../../../webview/kit/order-statistic.js';

function bySort(values: readonly number[], k: number): { kth: number; last: number } {
  const sorted = Float64Array.from(values).sort();
  return { kth: sorted[Math.max(0, Math.min(sorted.length - 1, Math.floor(k)))], last: sorted[sorted.length - 1] };
}

const same = (a: number, b: number) => Object.is(a, b);

test('the k-th value and the last are the sorted array\'s, for arrays with ties, ±0 and NaN', () => {
  const value = fc.oneof(
    fc.constantFrom(0, -0, NaN, 1, -1, Infinity, -Infinity, 0.5),
    fc.double({ noNaN: false }),
    fc.integer({ min: -3, max: 3 }),
  );
  fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 200 }), fc.nat(), (values, seed) => {
    const k = seed % values.length;
    const got = orderStatistic(Float64Array.from(values), k)!;
    const want = bySort(values, k);
    assert.ok(same(got.kth, want.kth), `k ${k} of [${values.join(', ')}]: ${got.kth}, the sort gives ${want.kth}`);
    assert.ok(same(got.last, want.last), `last of [${values.join(', ')}]: ${got.last}, the sort gives ${want.last}`);
  }), { numRuns: 2000 });
});

test('large arrays: sorted, reversed, constant and random weights, at the 99th percentile', () => {
  const n = 100_000;
  let s = 7;
  const random = Array.from({ length: n }, () => ((s = (s * 16807) % 2147483647) / 2147483647) ** 6);
  const cases = {
    random,
    sorted: Array.from({ length: n }, (_, i) => i / n),
    reversed: Array.from({ length: n }, (_, i) => (n - i) / n),
    constant: Array.from({ length: n }, () => 1 / 1024),
    'two values': Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0)),
  };
  for (const [name, values] of Object.entries(cases)) {
    for (const k of [0, Math.floor(n * 0.99), n - 1, n * 2]) {
      const got = orderStatistic(Float64Array.from(values), k)!;
      const want = bySort(values, k);
      assert.ok(same(got.kth, want.kth) && same(got.last, want.last), `${name}, k ${k}`);
    }
  }
  assert.equal(orderStatistic(new Float64Array(0), 0), undefined);
});
