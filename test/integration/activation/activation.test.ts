// Activation is caused by opening a spec: in a workspace without specs the extension is idle
// until a *.attn.json from outside the workspace is opened; then it activates and checks it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { attnDiagnostics, extension, recordTiming, waitFor } from '../helpers';

suite('Activation (a workspace without specs)', () => {
  test('the workspace holds no spec, and the extension has not activated', async () => {
    const specs = await vscode.workspace.findFiles('**/*.attn.json');
    assert.deepEqual(specs.map((u) => u.fsPath), [], 'this run opens a workspace without specs');
    assert.equal(extension().isActive, false, 'nothing has asked for the extension yet');
    // What will activate it: a JSON language document (*.attn.json files are JSON).
    const events: string[] = extension().packageJSON.activationEvents;
    assert.ok(events.includes('onLanguage:json'), `activationEvents: ${events.join(', ')}`);
  });

  test('opening a spec from outside the workspace activates it, and the spec gets its diagnostics', async () => {
    assert.equal(extension().isActive, false);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-outside-'));
    const file = path.join(dir, 'outside.attn.json');
    fs.writeFileSync(file, JSON.stringify({ embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ name: 'x', tokens: ['a', 'bb'] }] }, null, 2));
    try {
      const started = performance.now();
      const doc = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(doc);
      assert.equal(doc.languageId, 'json');
      await waitFor('the extension to activate', () => extension().isActive, 20_000);
      recordTiming('openOutsideSpecToActiveMs', performance.now() - started);
      const errors = await waitFor('attn diagnostics on outside.attn.json', () => {
        const d = attnDiagnostics(doc.uri);
        return d.length ? d : undefined;
      }, 15_000);
      assert.ok(errors.some((d) => /unknown token "bb"/.test(d.message)), errors.map((d) => d.message).join(' | '));
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an untitled spec (not saved yet) is checked too', async () => {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('untitled:draft.attn.json'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '{ "embeddings": { "a": [1, 0] }, "inputs": [{ "name": "x", "tokens": ["zz"] }] }'));
    // (The empty document it starts as is reported first: "the file is empty".)
    const errors = await waitFor('the unknown token to be reported on the untitled spec', () => {
      const d = attnDiagnostics(doc.uri);
      return d.some((x) => /unknown token "zz"/.test(x.message)) ? d : undefined;
    }, 15_000, () => [doc.languageId, vscode.languages.getDiagnostics(doc.uri).map((d) => `${d.source}: ${d.message}`)]);
    const zz = errors.find((d) => /unknown token "zz"/.test(d.message))!;
    assert.equal(doc.getText(zz.range), '"zz"', 'marked on the token');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
