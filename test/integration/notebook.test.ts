// A notebook in the real VS Code: examples/attention-in-a-notebook.ipynb (copied into the workspace),
// whose output cell holds the Attention Lens payload saved in the file, opened in the notebook editor
// with no kernel; the extension's renderer draws the grid of its 2 × 4 heads in the output and tells
// the host through the renderer messaging (the hover and the Open in Attention Lens button are
// driven by a person in test/e2e/notebook.e2e.test.ts).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, recordTiming, waitFor, workspaceDir, type TestApi } from './helpers';

suite('Notebook renderer', () => {
  let a: TestApi;
  suiteSetup(async () => { a = await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  test('a saved output of attention_lens.show() is drawn by our renderer: every head painted', async () => {
    const uri = vscode.Uri.file(path.join(workspaceDir(), 'attention-in-a-notebook.ipynb'));
    const before = a.notebookOutputs().length;
    const started = performance.now();
    const notebook = await vscode.workspace.openNotebookDocument(uri);
    await vscode.window.showNotebookDocument(notebook);
    const output = notebook.cellAt(1).outputs[0];
    assert.ok(output.items.some((i) => i.mime === 'application/vnd.attention-lens.v1+json'), 'the output holds our payload');
    const painted = await waitFor('the renderer to paint the grid of 2 × 4 heads', () =>
      a.notebookOutputs().slice(before).find((p) => p.view === 'model' && p.items === 8), 60_000, () => a.notebookOutputs());
    recordTiming('notebookOpenToPaintMs', performance.now() - started);
    assert.equal(painted.items, 8);
    assert.equal(a.notebookOutputs().slice(before).filter((p) => p.view === 'error').length, 0, 'no output refused');
  });
});
