// A file's value quoted in a message (src/core/json/shown.ts): short values as JSON, long ones cut,
// deep ones named, never a stack overflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shown } from '../../../../src/core/json/shown.js';

test('short values as JSON; long strings and values cut with …; one nested too deep to print said so', () => {
  assert.equal(shown('gpt2'), '"gpt2"');
  assert.equal(shown({ a: [1, 2] }), '{"a":[1,2]}');
  assert.equal(shown(undefined), 'undefined');
  assert.equal(shown('x'.repeat(1000)), `"${'x'.repeat(60)}…"`);
  assert.equal(shown(Array.from({ length: 1000 }, () => 7)).length, 121);
  const deep = JSON.parse(`${'['.repeat(200000)}${']'.repeat(200000)}`) as unknown;
  assert.equal(shown(deep), 'a value nested too deep to print');
});
