// Where a JSON path sits in a spec's text (src/core/json/locate.ts): the span of the value at the
// path, so the editor can reveal a token or a matrix cell, and the CLI can print FILE:LINE:COL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locate } from '../../../../src/core/json/locate.js';
import { formatPath } from '../../../../src/core/json/path.js';
import { formatProblem, positionAt } from '../../../../src/core/json/problems.js';

const TEXT = [
  '{',
  '  "embeddings": {',
  '    "apple": [2, 0, 2],',
  '    "two words": [1, 3, 0]',
  '  },',
  '  "heads": [{ "wq": [[4, 3], [2, 1], [0, 1]] }]',
  '}',
].join('\n');

const at = (path: (string | number)[]) => {
  const span = locate(TEXT, path);
  assert.ok(span, formatPath(path));
  return { text: TEXT.slice(span.offset, span.offset + span.length), ...positionAt(TEXT, span.offset) };
};

test('a path gives the span of its value, at its line and column', () => {
  assert.deepEqual(at(['embeddings', 'apple']), { text: '[2, 0, 2]', line: 3, column: 14 });
  assert.deepEqual(at(['embeddings', 'apple', 2]), { text: '2', line: 3, column: 21 });
  assert.deepEqual(at(['embeddings', 'two words', 1]), { text: '3', line: 4, column: 22 });
  assert.deepEqual(at(['heads', 0, 'wq', 1, 0]), { text: '2', line: 6, column: 31 });
  assert.deepEqual(at(['heads', 0, 'wq', 2]), { text: '[0, 1]', line: 6, column: 38 });
  assert.deepEqual(at([]), { text: TEXT, line: 1, column: 1 });
});

test('the span prints as FILE:LINE:COL with the path in the spec\'s notation', () => {
  const path = ['heads', 0, 'wq', 1, 0];
  const span = locate(TEXT, path)!;
  const line = formatProblem('lens.attn.json', TEXT, { severity: 'error', path: formatPath(path), message: 'here', span });
  assert.equal(line, 'lens.attn.json:6:31: heads[0].wq[1][0]: here');
});

test('a path that is not in the text, or that indexes the wrong kind of node, is undefined', () => {
  assert.equal(locate(TEXT, ['embeddings', 'orange']), undefined);
  assert.equal(locate(TEXT, ['embeddings', 'apple', 3]), undefined);
  assert.equal(locate(TEXT, ['heads', 'wq']), undefined);
  assert.equal(locate(TEXT, ['embeddings', 0]), undefined);
  assert.equal(locate(TEXT, ['heads', 0, 'wq', 0, 0, 'x']), undefined);
  assert.equal(locate('', ['heads']), undefined);
  assert.equal(locate('{"a": ', ['b']), undefined);
});
