// "Apply Learned Weights" in a real editor: the learnt matrices are written into the spec as one
// edit, the spec then makes watch attend to apple, and one Undo brings the identities back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { analyze } from '../../src/core/index';
import { api, closeAllEditors, exampleText, openFreshSpec, waitFor } from './helpers';

suite('Training', () => {
  suiteSetup(async () => { await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  test('Apply Learned Weights writes W_Q and W_K into the spec as one undoable edit', async () => {
    const original = exampleText('learn-apple-watch.attn.json');
    const editor = await openFreshSpec(original, 'learn');
    const doc = editor.document;
    const before = analyze(original, { json: true }).json!.inputs[0].heads[0].weights[3][2];
    assert.ok(before < 0.1, `watch → apple starts at ${before}`);
    await vscode.commands.executeCommand('attentionLens.applyLearnedWeights');
    await waitFor('the learnt matrices in the spec', () => doc.getText() !== original || undefined, 10_000);
    const after = analyze(doc.getText(), { json: true });
    assert.deepEqual(after.problems, []);
    assert.equal(after.spec!.heads[0].wq.identity, false);
    assert.equal(after.spec!.heads[0].wv.identity, true, 'W_V was not learnt');
    const weight = after.json!.inputs[0].heads[0].weights[3][2];
    assert.ok(weight > 0.9, `watch → apple after applying: ${weight}`);
    // One edit: one Undo restores the spec exactly.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor('Undo to restore the identities', () => doc.getText() === original || undefined, 10_000);
  });
});
