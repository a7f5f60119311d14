// Spans of the core as editor ranges (src/host/spec-editor/ranges.ts): offset and length become a
// start and an end position of the document, across lines.
import '../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { spanToRange } from '../../../../src/host/spec-editor/ranges.js';
import { asVscode, Range, TextDocument, Uri } from '../../../support/vscode/index.js';

test('a span across a line break becomes the range from its first to past its last character', () => {
  const document = new TextDocument(Uri.parse('untitled:a.attn.json'), '{\r\n  "wq": [[1, 2],\n  [3, 4]]\n}');
  const text = document.getText();
  const offset = text.indexOf('[[');
  const range = spanToRange(asVscode<vscode.TextDocument>(document), { offset, length: text.indexOf(']]') + 2 - offset });
  assert.deepEqual([range.start.line, range.start.character, range.end.line, range.end.character], [1, 8, 2, 9]);
  assert.equal(document.getText(asVscode<Range>(range)), '[[1, 2],\n  [3, 4]]');
});
