// "Show Attention" opens the panel beside the spec; the webview paints the result and follows edits.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, exampleText, openFreshSpec, panelFor, panelTabs, recordTiming, replaceOnce, waitFor, workspaceDir, type TestApi } from './helpers';

const TOKENS = '"tokens": ["i", "love", "apple", "watch"]';

function hasAll(tokens: string[], expected: string[]): boolean {
  return expected.every((t) => tokens.includes(t));
}

suite('Panel', () => {
  let a: TestApi;
  /** Makes `doc` the active editor, runs Show Attention, and waits for the painted panel. */
  async function showFrom(doc: vscode.TextDocument, opts: Parameters<typeof panelFor>[3] = {}) {
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    await vscode.commands.executeCommand('attentionLens.show');
    return panelFor(a, doc, 'ready', opts);
  }
  suiteSetup(async () => { a = await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  test('Show Attention opens the panel beside the editor and the webview paints every token', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(workspaceDir(), 'apple-watch-lens.attn.json'));
    const editor = await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
    const started = performance.now();
    await vscode.commands.executeCommand('attentionLens.show');
    const tab = await waitFor('a webview tab of type attentionLens.panel', () => panelTabs()[0], 10_000);
    assert.equal(tab.group.viewColumn, vscode.ViewColumn.Two, 'the panel opens beside the spec (column 2)');
    assert.equal(editor.viewColumn, vscode.ViewColumn.One, 'the spec stays where it was');
    const panel = await panelFor(a, doc, 'ready', { also: (p) => hasAll(p.tokens, ['i', 'love', 'apple', 'watch']) });
    recordTiming('showToReadyFromTestMs', performance.now() - started);
    assert.ok(panel.view.length > 0, 'the panel reports which view it drew');
    const t = a.timings();
    assert.ok(t.lastShowToPaintMs !== undefined && t.lastShowToPaintMs >= 0, `timings().lastShowToPaintMs is set, got ${t.lastShowToPaintMs}`);
    recordTiming('showToPaintMs', t.lastShowToPaintMs);
  });

  test('running Show Attention again for the same spec does not open a second panel', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(workspaceDir(), 'apple-watch-lens.attn.json'));
    await showFrom(doc);
    await showFrom(doc);
    assert.equal(panelTabs().length, 1);
  });

  test('the panel follows edits to the spec', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'follow');
    const doc = editor.document;
    await vscode.commands.executeCommand('attentionLens.show');
    await panelFor(a, doc, 'ready', { also: (p) => hasAll(p.tokens, ['apple', 'watch']) });

    await replaceOnce(editor, TOKENS, '"tokens": ["i", "love", "orange", "watch"]');
    const after = await panelFor(a, doc, 'ready', { version: doc.version, also: (p) => p.tokens.includes('orange') });
    assert.ok(!after.tokens.includes('apple'), `"apple" is gone from the picture: ${after.tokens.join(' ')}`);
    assert.ok(after.version >= doc.version);
    // A toy spec redraws in milliseconds, so the panel waits far less than the 300 ms cap after an edit.
    const t = a.timings();
    assert.ok(t.lastUpdateDelayMs !== undefined && t.lastUpdateDelayMs >= 25 && t.lastUpdateDelayMs <= 100, `waited ${t.lastUpdateDelayMs} ms`);
    assert.ok(t.lastEditToPaintMs !== undefined && t.lastEditToPaintMs > 0);
    recordTiming('editToPaintMs', t.lastEditToPaintMs);
  });

  test('a broken spec puts the panel in its error state, and fixing it brings the picture back', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'error-state');
    const doc = editor.document;
    await vscode.commands.executeCommand('attentionLens.show');
    await panelFor(a, doc, 'ready');

    await replaceOnce(editor, '"watch"]', '"wtch"]');
    await panelFor(a, doc, 'error', { version: doc.version });
    await replaceOnce(editor, '"wtch"]', '"watch"]');
    const back = await panelFor(a, doc, 'ready', { version: doc.version });
    assert.ok(hasAll(back.tokens, ['i', 'love', 'apple', 'watch']));
  });

  test('the panel shows the spec that is active when the command runs', async () => {
    const mouse = await vscode.workspace.openTextDocument(path.join(workspaceDir(), 'mouse-two-contexts.attn.json'));
    const expected: string[] = JSON.parse(mouse.getText()).inputs[0].tokens.map((t: string | { text: string }) => (typeof t === 'string' ? t : t.text));
    const apple = await vscode.workspace.openTextDocument(path.join(workspaceDir(), 'apple-watch-lens.attn.json'));
    await showFrom(apple);

    const panel = await showFrom(mouse, { also: (p) => hasAll(p.tokens, expected) });
    assert.equal(panel.documentUri, mouse.uri.toString());
  });
});
