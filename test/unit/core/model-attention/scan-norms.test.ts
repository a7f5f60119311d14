// The header of a scan of value-weighted norms (headerOf with options.norms): it says it is of norms,
// and has no warning of rows that do not sum to 1 or are all zero (norms are no distributions, and a
// head whose values write nothing has rows of zeros), where the same pass of weights warns of both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headerOf, passOverRange, shapeOf } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention } from '../../../support/model-fixture.js';

// One layer of two heads over 2 tokens: head 1's rows sum to 3 and 0.5, head 2's are zero.
const a = memoryAttention(new Float32Array([1, 0, 0.25, 0.25, 0, 0, 0, 0]), 1, 2, 2);

test('a norms header has no "sum to 1" nor "all zero" warning; the weights\' has both', () => {
  const shape = shapeOf(a), pass = passOverRange(a, 0, 2);
  const weights = headerOf(shape, pass, {});
  assert.equal(weights.norms, undefined);
  assert.ok(weights.offRows > 0);
  assert.ok(weights.warnings.some((w) => /do not sum to 1/.test(w)) && weights.warnings.some((w) => /all zero/.test(w)), weights.warnings.join(' | '));
  const norms = headerOf(shape, pass, { norms: true });
  assert.equal(norms.norms, true);
  assert.equal(norms.offRows, 0, 'no "Apply softmax" offered');
  assert.deepEqual(norms.warnings, []);
  assert.deepEqual(norms.stats, weights.stats);
});
