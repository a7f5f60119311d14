// Positions of problems: every line ending editors know, a BOM that editors hide, and linear cost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex, positionAt, formatProblem } from '../../../../src/core/json/problems.js';
import { readSpec } from '../../../../src/core/spec/read.js';

test('a CR-only file puts each problem on its own line, as editors count lines', () => {
  const text = '{\r"embeddings": {"x": [1, "a"]},\r"inputs": [{"tokens": ["x"]}]\r}';
  const problems = readSpec(text).problems;
  assert.equal(problems.length, 1);
  assert.deepEqual(positionAt(text, problems[0].span.offset), { line: 2, column: 25 });
});

test('CRLF counts as one line break, not two', () => {
  const index = new LineIndex('a\r\nb\r\nc');
  assert.deepEqual(index.positionAt(3), { line: 2, column: 1 });
  assert.deepEqual(index.positionAt(6), { line: 3, column: 1 });
});

test('a UTF-8 byte-order mark does not shift the columns of line 1', () => {
  const text = '\ufeff{"inputs": 3}';
  const at = text.indexOf('3');
  assert.deepEqual(positionAt(text, at), { line: 1, column: at });
  assert.deepEqual(positionAt(text.slice(1), at - 1), { line: 1, column: at });
});

test('100,000 problems are formatted from one index: linear, not one scan of the text per problem', () => {
  // The old positionAt scanned from the start for each problem: this took minutes.
  const lines = 100_000;
  const text = 'x\n'.repeat(lines);
  const index = new LineIndex(text);
  let sum = 0;
  for (let k = 0; k < lines; k++) sum += index.positionAt(k * 2).line;
  assert.equal(sum, (lines * (lines + 1)) / 2);
  const p = { severity: 'error' as const, path: 'a', message: 'm', span: { offset: text.length - 2, length: 1 } };
  assert.equal(formatProblem('f', text, p), `f:${lines}:1: a: m`);
});
