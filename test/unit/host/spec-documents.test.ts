// Which documents are specs (src/host/spec-documents.ts): *.attn.json in any scheme and any case, and a
// URI's file name.
import '../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseName, isSpecDocument, isSpecUri } from '../../../src/host/spec-documents.js';
import { asVscode, TextDocument, Uri } from '../../support/vscode/index.js';

test('*.attn.json in any scheme and case is a spec; .json and .attn.json.bak are not', () => {
  for (const s of ['file:///w/a.attn.json', 'untitled:Untitled-1.ATTN.JSON', 'vscode-remote://ssh-remote+box/w/b.Attn.Json']) assert.equal(isSpecUri(asVscode(Uri.parse(s))), true, s);
  for (const s of ['file:///w/a.json', 'file:///w/a.attn.json.bak', 'file:///w/attn.json']) assert.equal(isSpecUri(asVscode(Uri.parse(s))), false, s);
  assert.equal(isSpecDocument(asVscode(new TextDocument(Uri.file('/w/x.attn.json'), '{}'))), true);
  assert.equal(baseName(asVscode(Uri.file('/w/deep/x.attn.json'))), 'x.attn.json');
});
