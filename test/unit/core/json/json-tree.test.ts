// The nesting guard: jsonc-parser recurses, and its error recovery must not be a way around the guard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson, MAX_DEPTH } from '../../../../src/core/json/json-tree.js';

test('stray and mismatched closers do not let deep nesting past the guard', () => {
  // Each of these overflowed the stack inside jsonc-parser ("internal error: Maximum call stack size exceeded").
  for (const unit of ['[:1},', '[}"a":},', '[,,},']) {
    const r = parseJson(unit.repeat(20_000));
    assert.equal(r.root, undefined);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0].message, new RegExp(`nested more than ${MAX_DEPTH} levels deep`));
  }
});

test('closers first, then deep nesting: still refused', () => {
  const r = parseJson(']'.repeat(1000) + '['.repeat(100_000));
  assert.ok(r.problems.length > 0);
  assert.ok(r.problems.every((p) => p.span.offset >= 0));
});

test('nesting at the limit is read; one more level is refused at the bracket that passes it', () => {
  assert.equal(parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)).problems.length, 0);
  const r = parseJson('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1));
  assert.equal(r.problems[0].span.offset, MAX_DEPTH);
});
