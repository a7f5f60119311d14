// The spec reader's tests share one small spec and three ways to read a problem: every problem with its
// LINE:COL and the text it points at, the one error a text must have, and a spec that must have none.
import assert from 'node:assert/strict';
import { readSpec } from '../../src/core/spec/read.js';
import { positionAt } from '../../src/core/json/problems.js';

/** Three features, two words, one input: the smallest spec each test adds its one field to. */
export const BASE = {
  features: ['a', 'b', 'c'],
  embeddings: { x: [1, 0, 0], y: [0, 1, 0] },
  inputs: [{ name: 'in', tokens: ['x', 'y'] }],
};

/** Every problem of a spec text, with `where` (its line and column) and `at` (the text its span covers). */
export function problemsOf(text: string) {
  return readSpec(text).problems.map((p) => ({ ...p, where: positionAt(text, p.span.offset), at: text.slice(p.span.offset, p.span.offset + p.span.length) }));
}

/** The one error of a spec text (fails the test unless there is exactly one). */
export function only(text: string) {
  const ps = problemsOf(text).filter((p) => p.severity === 'error');
  assert.equal(ps.length, 1, JSON.stringify(ps));
  return ps[0];
}

/** The spec read from a value that must have no problem at all. */
export function specOf(value: unknown) {
  const { spec, problems } = readSpec(JSON.stringify(value));
  assert.deepEqual(problems, []);
  return spec!;
}
