// What a panel knows of the document it shows (src/host/panel/preview.ts): which versions are new (a
// closed and reopened document counts again from 1) and the tokens of the input the user picked.
import '../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { DocumentPreview } from '../../../../src/host/panel/preview.js';
import { asVscode, TextDocument, Uri } from '../../../support/vscode/index.js';
import { exampleText } from '../../../support/specs.js';
import { analyze } from '../../../../src/core/index.js';

const URI = Uri.parse('untitled:a.attn.json');

test('a version older than the one shown is not new, unless the document was closed and reopened', () => {
  const preview = new DocumentPreview(asVscode(URI));
  const shown = asVscode<vscode.TextDocument>(new TextDocument(URI, '{}'));
  preview.shownDocument = shown;
  preview.shownVersion = 5;
  assert.equal(preview.isNew(shown, 4), false);
  assert.equal(preview.isNew(shown, 5), true);
  assert.equal(preview.isNew(asVscode(new TextDocument(URI, '{}')), 1), true, 'another TextDocument: reopened');
});

test('the tokens are those of the input picked, the first when none or a missing one is', () => {
  const preview = new DocumentPreview(asVscode(URI));
  assert.deepEqual(preview.tokensFor(undefined), []);
  preview.data = analyze(exampleText('apple-watch-lens.attn.json')).data;
  const state = (input: number) => ({ documentUri: URI.toString(), view: 'arcs' as const, head: 0, input, token: -1 });
  assert.deepEqual(preview.tokensFor(undefined), ['i', 'love', 'apple', 'watch']);
  assert.deepEqual(preview.tokensFor(state(1)), ['i', 'love', 'orange']);
  assert.deepEqual(preview.tokensFor(state(7)), ['i', 'love', 'apple', 'watch']);
});
