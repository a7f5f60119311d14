// The project's words (src/core/vocabulary.ts): the roles are listed once, and every list of a head's
// matrices (the spec reader, the analysis, the training, the result, the views) is taken from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HEAD_ROLES, ROLE_PRODUCT, ROLE_SYMBOL, ROLE_VECTOR, ROLES } from '../../../src/core/vocabulary.js';
import { readSpec } from '../../../src/core/spec/read.js';
import { targetAtPath } from '../../../src/core/spec/spec-target.js';

test('a head\'s roles are the roles but the shared W_O, in the same order, and every role has its symbol, product and vector name', () => {
  assert.deepEqual([...ROLES], ['wq', 'wk', 'wv', 'wo']);
  assert.deepEqual([...HEAD_ROLES], ROLES.filter((r) => r !== 'wo'));
  assert.deepEqual(ROLES.map((r) => ROLE_SYMBOL[r]), ['W_Q', 'W_K', 'W_V', 'W_O']);
  assert.deepEqual(ROLES.map((r) => ROLE_PRODUCT[r]), ['query', 'key', 'value', 'output']);
  assert.deepEqual(ROLES.map((r) => ROLE_VECTOR[r]), ['q', 'k', 'v', 'output']);
});

test('the spec reader and the hover targets know a head by exactly the head roles', () => {
  for (const role of HEAD_ROLES) {
    assert.deepEqual(targetAtPath(['heads', 0, role, 1, 0]), { kind: 'matrix', role, head: 0, row: 1, col: 0 });
    const { problems } = readSpec(JSON.stringify({ embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ [role]: [[1, 0], [0, 1]] }] }));
    assert.deepEqual(problems.filter((p) => p.severity === 'error'), [], role);
  }
  assert.equal(targetAtPath(['heads', 0, 'wo', 1, 0]), undefined, 'W_O is not a head\'s');
  const { problems } = readSpec(JSON.stringify({ embeddings: { a: [1, 0] }, inputs: [{ tokens: ['a'] }], heads: [{ wo: [[1, 0], [0, 1]] }] }));
  assert.deepEqual(problems.map((p) => p.message), ['unknown property "wo" (ignored); expected one of name, wq, wk, wv'], 'a head\'s "wo" is an unknown key');
});
