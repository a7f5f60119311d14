// Where Export proposes to write (src/host/panel/save-dialog.ts): beside a spec of the user's, in the
// workspace folder for one of the extension's examples or a spec not on disk; the dialog is asked
// through the Dialogs given (the user's), unless the test API installed ones that take the proposal.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { askExportTarget, proposedExport } from '../../../../src/host/panel/save-dialog.js';
import { InstalledDialogs, proposedDialogs } from '../../../../src/host/dialogs.js';
import { asVscode, standIn, Uri } from '../../../support/vscode/index.js';
import { ROOT } from '../../../support/paths.js';

let dialogs = new InstalledDialogs();
beforeEach(() => { standIn.reset(); dialogs = new InstalledDialogs(); });

const EXT = asVscode<import('vscode').Uri>(Uri.file(ROOT));

test('beside the spec, or in the workspace folder for an example or an unsaved spec', () => {
  standIn.documents.setFolders(Uri.file('/work/ws'));
  assert.equal(proposedExport(asVscode(Uri.file('/work/ws/specs/a.attn.json')), 'matrix', 'svg', EXT).fsPath, '/work/ws/specs/a.matrix.svg');
  assert.equal(proposedExport(asVscode(Uri.file(`${ROOT}/examples/apple-watch-lens.attn.json`)), 'arcs', 'png', EXT).fsPath, '/work/ws/apple-watch-lens.arcs.png');
  assert.equal(proposedExport(asVscode(Uri.parse('untitled:b.attn.json')), 'arcs', 'svg', EXT).fsPath, '/work/ws/b.arcs.svg');
  standIn.documents.setFolders();
  assert.equal(proposedExport(asVscode(Uri.file(`${ROOT}/examples/apple-watch-lens.attn.json`)), 'arcs', 'svg', EXT).fsPath,
    `${ROOT}/examples/apple-watch-lens.arcs.svg`, 'with no folder open the dialog still proposes a name; the user picks the folder');
});

test("the dialog is shown with the proposal; the test seam's 'default' takes it without a dialog", async () => {
  const spec = asVscode<import('vscode').Uri>(Uri.file('/w/a.attn.json'));
  standIn.windows.state.save = () => undefined;
  assert.equal(await askExportTarget(spec, 'arcs', 'svg', EXT, dialogs), undefined, 'cancelled');
  assert.equal(standIn.windows.state.saveDialogs.length, 1);
  dialogs.install(proposedDialogs);
  assert.equal((await askExportTarget(spec, 'arcs', 'svg', EXT, dialogs))?.fsPath, '/w/a.arcs.svg');
  assert.equal(standIn.windows.state.saveDialogs.length, 1, 'no second dialog');
});
