// The dialogs given to the panels and the model runs (src/host/dialogs.ts): the user's until the test
// API installs others; the proposed ones take the file a save dialog proposes without showing it,
// and show the dialog when it proposes none.
import '../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { InstalledDialogs, proposedDialogs, userDialogs } from '../../../src/host/dialogs.js';
import { asVscode, standIn, Uri } from '../../support/vscode/index.js';

beforeEach(() => standIn.reset());

const proposed = asVscode<vscode.Uri>(Uri.file('/w/a.arcs.svg'));

test("the user's dialogs until others are installed, and again after", async () => {
  const dialogs = new InstalledDialogs();
  standIn.windows.state.save = () => undefined;
  assert.equal(await dialogs.save({ defaultUri: proposed }), undefined, 'the user cancelled');
  assert.equal(standIn.windows.state.saveDialogs.length, 1);
  dialogs.install(proposedDialogs);
  assert.equal((await dialogs.save({ defaultUri: proposed }))?.fsPath, '/w/a.arcs.svg');
  assert.equal(standIn.windows.state.saveDialogs.length, 1, 'no dialog shown');
  dialogs.install(userDialogs);
  await dialogs.save({ defaultUri: proposed });
  assert.equal(standIn.windows.state.saveDialogs.length, 2);
});

test('the proposed dialogs show a dialog that proposes no file', async () => {
  standIn.windows.state.save = () => undefined;
  assert.equal(await proposedDialogs.save({ saveLabel: 'Save' }), undefined);
  assert.equal(standIn.windows.state.saveDialogs.length, 1);
});
