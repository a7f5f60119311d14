// Which specs are the extension's own examples (src/host/examples/examples.ts), where their copies go,
// and free names for new files.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { examplesCopyFolder, freeName, isExampleSpec } from '../../../../src/host/examples/examples.js';
import { asVscode, standIn, Uri } from '../../../support/vscode/index.js';
import { examplesInTemp } from '../../../support/host-fixture.js';

beforeEach(() => standIn.reset());
const ext = asVscode<vscode.Uri>(Uri.file('/ext'));
const u = (s: string) => asVscode<vscode.Uri>(Uri.parse(s));

test('an example is a file in <extension>/examples/, nothing else', () => {
  assert.equal(isExampleSpec(u('file:///ext/examples/a.attn.json'), ext), true);
  assert.equal(isExampleSpec(u('file:///ext/examples/sub/a.attn.json'), ext), true);
  for (const not of ['file:///ext/examplesx/a.attn.json', 'file:///ext/a.attn.json', 'file:///ext/examples/../a.attn.json', 'untitled:/ext/examples/a.attn.json', 'file:///ext/examples']) {
    assert.equal(isExampleSpec(u(not), ext), false, not);
  }
});

test('on the web the extension is no file: an example is still one below its examples folder, by URI', () => {
  const web = u('https://ext.example.net/attention-lens/0.1.0');
  assert.equal(isExampleSpec(u('https://ext.example.net/attention-lens/0.1.0/examples/a.attn.json'), web), true);
  for (const not of ['https://ext.example.net/attention-lens/0.1.0/examplesx/a.attn.json', 'https://other.example.net/attention-lens/0.1.0/examples/a.attn.json',
    'vscode-vfs://github/attention-lens/0.1.0/examples/a.attn.json', 'https://ext.example.net/attention-lens/0.1.0/examples/']) {
    assert.equal(isExampleSpec(u(not), web), false, not);
  }
});

test('a Windows path is an example whatever the case of its letters, as path.relative has it there', () => {
  const win = u('file:///c%3A/Users/me/ext');
  assert.equal(isExampleSpec(u('file:///C%3A/users/ME/ext/Examples/a.attn.json'), win), true);
  assert.equal(isExampleSpec(u('file:///C%3A/users/ME/ext/Examples2/a.attn.json'), win), false);
});

test('copies go to the workspace folder, else the extension storage', async () => {
  standIn.documents.setFolders(Uri.file('/ws'));
  assert.equal(examplesCopyFolder(undefined)?.fsPath, '/ws/attention-lens-examples');
  standIn.documents.setFolders();
  assert.equal(examplesCopyFolder(asVscode(Uri.file('/store')))?.fsPath, '/store/examples');
  assert.equal(examplesCopyFolder(undefined), undefined);
  const { folder } = examplesInTemp();
  writeFileSync(`${folder}/a.learned.attn.json`, '');
  assert.equal((await freeName(asVscode(Uri.file(folder)), 'a.learned', '.attn.json')).fsPath, `${folder}/a.learned-2.attn.json`);
});
