// What the Heads view's overlap means (src/core/linalg/subspaces.ts): an overlap of 1 is the same
// subspace only when the two have one dimension; a 2-D plane inside R³ is "inside", not "the same".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containment, rankOf, verdictText } from '../../../../src/core/linalg/subspaces.js';

test('rankOf counts the singular values above numpy\'s tolerance', () => {
  assert.equal(rankOf([1, 1, 1], 3, 3), 3);
  assert.equal(rankOf([5.4, 1.2], 3, 2), 2);
  assert.equal(rankOf([2, 1e-17], 3, 2), 1);
  assert.equal(rankOf([], 3, 0), 0);
});

test('"raw" (3-D) and "tech lens" (2-D) at overlap 1: the lens lies inside raw, raw is two thirds inside the lens, not the same', () => {
  const c = containment(1, 3, 2);
  assert.equal(c.verdict, 'b inside a');
  assert.equal(c.bInA, 1);
  assert.ok(Math.abs(c.aInB - 2 / 3) < 1e-12);
  assert.equal(verdictText(c, 'raw', 'tech lens', 3, 2), '"tech lens"\'s 2-D subspace lies inside "raw"\'s 3-D: not the same subspace');
});

test('equal dimensions at overlap 1 are the same subspace; 0 is orthogonal; in between is partly shared', () => {
  assert.equal(containment(1, 2, 2).verdict, 'same');
  assert.equal(containment(1 - 1e-15, 2, 2).verdict, 'same', 'an SVD\'s last digits do not matter');
  assert.equal(containment(0, 2, 2).verdict, 'orthogonal');
  const half = containment(0.5, 2, 2);
  assert.equal(half.verdict, 'partly shared');
  assert.equal(half.shared, 1);
  assert.equal(verdictText(half, 'a', 'b', 2, 2), '"a" and "b" share about 1 of their 2-D and 2-D dimensions');
  assert.equal(containment(1, 2, 3).verdict, 'a inside b');
});
