// The model editor: a small .safetensors opened with "Open With… Attention Lens" (and the explorer's
// command) paints its layers × heads grid in the webview; a truncated file shows the error panel; two
// editors of one file (two editor groups) are views of one document, which scans the file once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, recordTiming, waitFor, workspaceDir, type TestApi } from './helpers';
import { randomAttention, writeSafetensors } from '../support/model-fixture';

const L = 4, H = 6, N = 128;

suite('Model editor', () => {
  let a: TestApi;
  suiteSetup(async () => { a = await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  function fileIn(name: string): vscode.Uri {
    return vscode.Uri.file(path.join(workspaceDir(), `${name}-${process.pid}.safetensors`));
  }

  test('Open With… Attention Lens paints the grid of every head', async () => {
    const uri = fileIn('model');
    writeSafetensors(uri.fsPath, randomAttention(L, H, N), L, H, N, Array.from({ length: N }, (_, i) => `t${i}`));
    const started = performance.now();
    a.resetStall();
    await vscode.commands.executeCommand('vscode.openWith', uri, 'attentionLens.model');
    // The grid is painted at once and fills in as the heads are read: wait for the paint with all of them.
    const info = await waitFor('the model editor painted every head', () => a.modelEditors().find((e) => e.uri === uri.toString() && e.state === 'ready' && e.view === 'model' && e.items === L * H), 20_000);
    recordTiming('modelOpenToPaintFromTestMs', performance.now() - started);
    recordTiming('modelFirstPaintMs', info.firstPaintMs);
    recordTiming('modelFullPaintMs', info.fullPaintMs);
    recordTiming('modelScanMs', info.scanMs);
    assert.equal(info.read, L * H);
    assert.equal(info.total, L * H);
    // The file is read in a worker thread: the host's own thread should not stall for the scan.
    recordTiming('modelOpenMaxHostStallMs', a.maxStallMs());
    assert.equal(info.items, L * H, 'one thumbnail per head');
    // A head asked for (as a click or the keyboard does): read in the worker, posted, drawn.
    a.showModel(uri.toString(), 'head', 3, 5);
    const head = await waitFor('the head view of layer 3 head 5', () => a.modelEditors().find((e) => e.uri === uri.toString() && e.view === 'head' && e.lastHeadMs !== undefined), 20_000);
    assert.equal(head.items, 1, 'one bitmap (128 tokens is past the SVG cells)');
    recordTiming('modelHeadSwitchMs', head.lastHeadMs);
  });

  test('two editors of one file, in two editor groups, share one scan and both paint every head', async () => {
    const uri = fileIn('shared');
    writeSafetensors(uri.fsPath, randomAttention(L, H, N, 3), L, H, N);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'attentionLens.model');
    await vscode.commands.executeCommand('vscode.openWith', uri, 'attentionLens.model', vscode.ViewColumn.Beside);
    const mine = () => a.modelEditors().filter((e) => e.uri === uri.toString());
    const both = await waitFor('two model editors of the file, each painted every head', () => {
      const painted = mine().filter((e) => e.state === 'ready' && e.view === 'model' && e.items === L * H);
      return painted.length === 2 ? painted : undefined;
    }, 20_000, mine);
    for (const info of both) {
      assert.equal(info.read, L * H);
      assert.equal(info.scans, 1, 'the file is scanned once for both editors');
    }
  });

  test('the explorer command opens it too; a truncated file shows the readers\' message', async () => {
    const uri = fileIn('cut');
    writeSafetensors(uri.fsPath, randomAttention(1, 1, 4), 1, 1, 4);
    const whole = fs.readFileSync(uri.fsPath);
    fs.writeFileSync(uri.fsPath, whole.subarray(0, whole.length - 8));
    await vscode.commands.executeCommand('attentionLens.openModel', uri);
    const info = await waitFor('the model editor shows an error', () => a.modelEditors().find((e) => e.uri === uri.toString() && e.state === 'error' && e.view === 'error'), 20_000);
    assert.match(info.error ?? '', /truncated|outside/);
  });

  test('Show Attention on a spec that references a file opens the model editor on it, with the spec\'s tokens', async () => {
    const uri = fileIn('referenced');
    writeSafetensors(uri.fsPath, randomAttention(1, 2, 4), 1, 2, 4);
    const spec = vscode.Uri.file(path.join(workspaceDir(), `reference-${process.pid}.attn.json`));
    fs.writeFileSync(spec.fsPath, JSON.stringify({ attention: { file: path.basename(uri.fsPath) }, tokens: ['the', 'cat', 'sat', 'down'] }, null, 2));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(spec));
    await vscode.commands.executeCommand('attentionLens.show', spec);
    const info = await waitFor('the model editor on the referenced file, every head read', () => a.modelEditors().find((e) => e.uri === uri.toString() && e.state === 'ready' && e.read === e.total && e.fullPaintMs !== undefined), 30_000);
    assert.deepEqual(info.tokens, ['the', 'cat', 'sat', 'down']);
    assert.equal(info.items, 2, 'its two heads');
  });
});
