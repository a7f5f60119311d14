// Finding a weight matrix in a result (src/core/result/matrix-info.ts): W_Q, W_K and W_V by their
// head, W_O whatever head is asked (it is shared), and nothing when the spec has no such matrix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMatrix } from '../../../../src/core/result/matrix-info.js';
import { analyzeOk, SEED_LENS } from '../../../support/specs.js';

const TWO_HEADS = {
  ...SEED_LENS,
  heads: [SEED_LENS.heads[0], { name: 'value', wv: [[1], [0], [2]] }],
  wo: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]],
};

test('W_Q, W_K, W_V are found by head: the seed lens\'s W_Q of head 0 is [[4, 3], [2, 1], [0, 1]]', () => {
  const { data } = analyzeOk(TWO_HEADS);
  const wq = findMatrix(data, 'wq', 0)!;
  assert.equal(wq.role, 'wq');
  assert.equal(wq.head, 0);
  assert.deepEqual([wq.rows, wq.cols, wq.identity], [3, 2, false]);
  assert.deepEqual(Array.from(wq.values!.data), [4, 3, 2, 1, 0, 1]);
  const wk = findMatrix(data, 'wk', 0)!;
  assert.deepEqual(Array.from(wk.values!.data), [1, 1, 1, 1, 4, 2]);
  // Head 1's W_V is its own; its W_Q is the identity (omitted in the spec).
  const wv1 = findMatrix(data, 'wv', 1)!;
  assert.deepEqual([wv1.head, wv1.rows, wv1.cols], [1, 3, 1]);
  assert.deepEqual(Array.from(wv1.values!.data), [1, 0, 2]);
  const wq1 = findMatrix(data, 'wq', 1)!;
  assert.deepEqual([wq1.head, wq1.identity, wq1.rows, wq1.cols], [1, true, 3, 3]);
});

test('W_O is shared: the same matrix whatever head is asked, even none', () => {
  const { data } = analyzeOk(TWO_HEADS);
  const wo = findMatrix(data, 'wo', undefined)!;
  assert.equal(wo.role, 'wo');
  assert.deepEqual([wo.rows, wo.cols], [4, 3]);
  assert.equal(findMatrix(data, 'wo', 0), wo);
  assert.equal(findMatrix(data, 'wo', 7), wo);
});

test('a head that does not exist, and a spec with no W_O, find nothing', () => {
  const { data } = analyzeOk(TWO_HEADS);
  assert.equal(findMatrix(data, 'wq', 2), undefined);
  assert.equal(findMatrix(data, 'wk', undefined), undefined);
  assert.equal(findMatrix(analyzeOk(SEED_LENS).data, 'wo', 0), undefined);
});
