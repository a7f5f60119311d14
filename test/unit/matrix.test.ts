import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { concatColumns, fromRows, matmul, matmulTransposed, toRows, transpose } from '../../src/core/matrix.js';

test('x · W = y for the seeds\' apple: [2, 0, 2] · W = [8, 8]', () => {
  assert.deepEqual(toRows(matmul(fromRows([[2, 0, 2]]), fromRows([[4, 3], [2, 1], [0, 1]]))), [[8, 8]]);
});

test('matmul and matmulTransposed agree with the textbook formula for every shape, odd ones too', () => {
  const dims = fc.integer({ min: 1, max: 7 });
  fc.assert(fc.property(dims, dims, dims, fc.integer(), (n, k, m, seed) => {
    const a = Array.from({ length: n }, (_, i) => Array.from({ length: k }, (_, t) => ((seed + i * 31 + t * 7) % 11) - 5));
    const b = Array.from({ length: k }, (_, t) => Array.from({ length: m }, (_, j) => ((seed + t * 13 + j * 3) % 9) - 4));
    const expected = a.map((r) => b[0].map((_, j) => r.reduce((s, v, t) => s + v * b[t][j], 0)));
    assert.deepEqual(toRows(matmul(fromRows(a), fromRows(b))), expected);
    // bᵀ written out directly, so this checks matmulTransposed on its own, not through transpose().
    const bT = b[0].map((_, j) => b.map((r) => r[j]));
    assert.deepEqual(toRows(matmulTransposed(fromRows(a), fromRows(bT))), expected);
    assert.deepEqual(toRows(transpose(fromRows(b))), bT);
  }));
});

test('the heads\' outputs are joined side by side', () => {
  assert.deepEqual(toRows(concatColumns([fromRows([[1], [2]]), fromRows([[3, 4], [5, 6]])])), [[1, 3, 4], [2, 5, 6]]);
});
