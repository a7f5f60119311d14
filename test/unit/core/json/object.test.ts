// The first check of any untrusted value (src/core/json/object.ts): a plain object is neither null,
// nor an array, nor any primitive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isObject } from '../../../../src/core/json/object.js';

test('objects pass; null, arrays and primitives do not', () => {
  assert.equal(isObject({}), true);
  assert.equal(isObject({ a: 1 }), true);
  assert.equal(isObject(Object.create(null)), true);
  assert.equal(isObject(JSON.parse('{"__proto__": 1}')), true);
  for (const x of [null, undefined, [], [1, 2], 'x', '', 0, 1, NaN, true, false, 10n, Symbol('s'), () => 1]) {
    assert.equal(isObject(x), false, typeof x);
  }
});
