// A model spec in VS Code: { "model": <a tiny GPT-2 folder the test writes>, "text" } → Show Attention
// runs the model in the run's worker and paints every head's grid; an edit of the text runs it again
// and the views show the new tokens; a model that is nowhere is a problem on "model" and a line in the view.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, recordTiming, replaceOnce, waitFor, workspaceDir, type TestApi } from './helpers';
import { GPT2_CONFIG } from '../support/tiny-checkpoint';
import { writeTinyGpt2 } from '../support/tiny-folder';

const L = GPT2_CONFIG.n_layer, H = GPT2_CONFIG.n_head;

suite('Model run', () => {
  let a: TestApi;
  suiteSetup(async () => { a = await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  async function openSpec(model: string, text: string): Promise<{ uri: vscode.Uri; editor: vscode.TextEditor }> {
    const uri = vscode.Uri.file(path.join(workspaceDir(), `run-${process.pid}-${Math.random().toString(36).slice(2, 8)}.attn.json`));
    fs.writeFileSync(uri.fsPath, JSON.stringify({ model, text }, null, 2));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    return { uri, editor };
  }

  test('Show Attention on a model spec paints the grid of the run, and an edit runs it again', async () => {
    const folder = `models-${process.pid}`;
    writeTinyGpt2(path.join(workspaceDir(), folder, 'tiny-gpt2'));
    const { uri, editor } = await openSpec(`${folder}/tiny-gpt2`, 'The cat sat on the mat. The cat');
    const started = performance.now();
    a.resetStall();
    await vscode.commands.executeCommand('attentionLens.show', uri);
    const mine = () => a.modelEditors().filter((e) => e.uri === uri.toString());
    const first = await waitFor('the run\'s grid with every head', () => mine().find((e) => e.state === 'ready' && e.view === 'model' && e.items === L * H && e.runs === 1 && e.read === L * H), 30_000, mine);
    recordTiming('modelRunOpenToPaintMs', performance.now() - started);
    recordTiming('modelRunMaxHostStallMs', a.maxStallMs());
    assert.equal(first.next?.length, 5, 'five next tokens');
    assert.equal(first.runError, undefined);
    await replaceOnce(editor, 'The cat sat on the mat. The cat', 'The cat');
    // Wait for the grid's items too: the info can say 'ready' with the new tokens a moment before the
    // webview reports the heads it drew (a clean-clone CI run saw items 0 there).
    const second = await waitFor('the second run, painted', () => mine().find((e) => e.runs === 2 && e.state === 'ready' && e.view === 'model' && e.read === L * H && e.items === L * H && e.tokens?.join('') === 'The cat'), 30_000, mine);
    assert.equal(second.items, L * H);
    // The next-token view draws the run's five tokens as bars.
    a.showModel(uri.toString(), 'next', 0, 0);
    const next = await waitFor('the next-token view', () => mine().find((e) => e.view === 'next'), 20_000, mine);
    assert.equal(next.items, 5);
  });

  test('a model that is nowhere: a problem on "model" and the reason in the view, not a blank panel', async () => {
    const { uri } = await openSpec(`nowhere-${process.pid}`, 'The cat');
    await vscode.commands.executeCommand('attentionLens.show', uri);
    const info = await waitFor('the view\'s error', () => a.modelEditors().find((e) => e.uri === uri.toString() && e.state === 'error' && e.view === 'error'), 30_000);
    assert.match(info.error ?? '', /no folder .* beside the spec/);
    const problems = await waitFor('the problem on "model"', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => x.source === 'Attention Lens');
      return d.length > 0 ? d : undefined;
    });
    assert.match(problems[0].message, /^model: no folder/);
    assert.equal(problems[0].range.start.line, 1, 'on the "model" line');
  });
});
