// `npm start` support (src/host/panel/start.ts) in the vscode stand-in: ATTN_SHOW_ON_START names a spec
// (absolute, or relative to the first workspace folder) that activation opens in column one and shows;
// nothing when the window is restoring Attention panels or when a relative path has no folder.
import '../../../support/vscode/register.js';
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { SHOW_ON_START_ENV, showOnStart, startUri } from '../../../../src/host/panel/start.js';
import { asVscode, standIn, TabInputWebview, Uri, ViewColumn, window } from '../../../support/vscode/index.js';
import { examplesInTemp } from '../../../support/host-fixture.js';

beforeEach(() => standIn.reset());
afterEach(() => { delete process.env[SHOW_ON_START_ENV]; });

test('startUri: an absolute path as is, a relative one in the folder, none without a folder', () => {
  assert.equal(startUri('/specs/a.attn.json', undefined)?.toString(), 'file:///specs/a.attn.json');
  assert.equal(startUri('examples/a.attn.json', asVscode(Uri.file('/work')))?.toString(), 'file:///work/examples/a.attn.json');
  assert.equal(startUri('examples/a.attn.json', undefined), undefined);
});

test('a relative ATTN_SHOW_ON_START is opened in column one and shown', async () => {
  const { folder, uris: [uri] } = examplesInTemp('apple-watch-lens.attn.json');
  standIn.documents.setFolders(Uri.file(folder));
  process.env[SHOW_ON_START_ENV] = ' apple-watch-lens.attn.json ';
  const shown: string[] = [];
  await showOnStart(async (u: vscode.Uri) => { shown.push(u.toString()); });
  assert.deepEqual(shown, [uri.toString()]);
  assert.equal(window.activeTextEditor?.document.uri.toString(), uri.toString());
  assert.equal(window.activeTextEditor?.viewColumn, ViewColumn.One);
});

test('nothing is shown while the window restores an Attention panel, or for a relative path without a folder', async () => {
  const shown: string[] = [];
  const show = async (u: vscode.Uri) => { shown.push(u.toString()); };
  process.env[SHOW_ON_START_ENV] = 'apple-watch-lens.attn.json';
  await showOnStart(show);
  assert.ok(standIn.windows.state.log.some((l) => l.level === 'warn' && /is relative but no folder is open/.test(l.text)));
  standIn.windows.state.tabs.push({ input: new TabInputWebview('mainThreadWebview-attentionLens.panel') });
  process.env[SHOW_ON_START_ENV] = '/anywhere/a.attn.json';
  await showOnStart(show);
  assert.deepEqual(shown, []);
  assert.equal(window.activeTextEditor, undefined);
});
