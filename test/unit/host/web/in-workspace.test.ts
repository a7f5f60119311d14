// Whether a URI lies in a workspace folder on the web (src/host/web/in-workspace.ts): by scheme,
// authority and whole path segments; nothing is in a workspace without folders.
import '../../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { inFolder, inWorkspace } from '../../../../src/host/web/in-workspace.js';
import { asVscode, standIn, Uri } from '../../../support/vscode/index.js';

const u = (s: string) => asVscode<vscode.Uri>(Uri.parse(s));

test('a URI is in a folder when it is the folder or below it, on the same scheme and authority', () => {
  const root = u('vscode-vfs://github/teacher/class');
  assert.equal(inFolder(root, root), true);
  assert.equal(inFolder(root, u('vscode-vfs://github/teacher/class/lessons/run.npy')), true);
  assert.equal(inFolder(u('vscode-vfs://github/teacher/class/'), u('vscode-vfs://github/teacher/class/x')), true);
  assert.equal(inFolder(root, u('vscode-vfs://github/teacher/classic/run.npy')), false, 'a name that only begins as the folder\'s');
  assert.equal(inFolder(root, u('vscode-vfs://gitlab/teacher/class/run.npy')), false, 'another authority');
  assert.equal(inFolder(root, u('file:///teacher/class/run.npy')), false, 'another scheme');
});

test('in the workspace: below any of its folders; outside them, or with no folder open, not', () => {
  standIn.reset();
  assert.equal(inWorkspace(u('file:///w/a/s.attn.json')), false, 'no folder open');
  standIn.documents.setFolders(Uri.parse('file:///w/a'), Uri.parse('file:///w/b'));
  assert.equal(inWorkspace(u('file:///w/a/s.attn.json')), true);
  assert.equal(inWorkspace(u('file:///w/b/m/config.json')), true);
  assert.equal(inWorkspace(u('file:///w/c/s.attn.json')), false);
  standIn.reset();
});
