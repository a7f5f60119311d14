// "Show it in the spec": the host's reveal (src/host/spec-editor/reveal.ts, the function the panel calls on a
// webview 'reveal' message) run against the real editor. The message path itself (a click in the
// webview, messages for another document, bogus messages) is driven from the browser in test/e2e.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { revealInSpec } from '../../src/host/spec-editor/reveal';
import { api, closeAllEditors, exampleText, openFreshSpec, PANEL_VIEW_TYPE, panelFor, rangeOf, showRange, waitFor } from './helpers';

/** The selection of the visible editor showing `doc` (it need not have focus: a reveal from the panel keeps focus there). */
function selectionIn(doc: vscode.TextDocument): vscode.Selection | undefined {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === doc.uri.toString())?.selection;
}

/** True when keyboard focus is on the Attention Lens panel's tab. */
function panelHasFocus(): boolean {
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  return !!tab && tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(PANEL_VIEW_TYPE);
}

async function expectSelection(doc: vscode.TextDocument, expected: vscode.Range, what: string): Promise<void> {
  await waitFor(`${what}: selection ${showRange(expected)}`, () => {
    const s = selectionIn(doc);
    return s && s.start.isEqual(expected.start) && s.end.isEqual(expected.end);
  }, 5_000, () => { const s = selectionIn(doc); return s ? showRange(s) : vscode.window.activeTextEditor?.document.uri.toString(); });
}

suite('Reveal in the spec', () => {
  suiteSetup(async () => { await api(); await closeAllEditors(); });
  teardown(closeAllEditors);

  test('a token selects that token of that input, with its quotes', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'reveal-token');
    const doc = editor.document;
    // Move the cursor away first, so the selection can only come from the reveal.
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await revealInSpec(doc.uri, { kind: 'token', input: 0, token: 2 }, vscode.ViewColumn.Two);
    await expectSelection(doc, rangeOf(doc, '"apple"', '"I love Apple watch"'), 'input 0, token 3 ("apple")');
    // The second input's third token is "orange", not the first input's.
    await revealInSpec(doc.uri, { kind: 'token', input: 1, token: 2 }, vscode.ViewColumn.Two);
    await expectSelection(doc, rangeOf(doc, '"orange"', '"I love orange"'), 'input 1, token 3 ("orange")');
  });

  test('a matrix cell selects its number; a position puts the cursor there', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'reveal-matrix');
    const doc = editor.document;
    await revealInSpec(doc.uri, { kind: 'matrix', role: 'wk', head: 1, row: 2, col: 0 }, vscode.ViewColumn.Two);
    const text = doc.getText();
    const at = text.indexOf('[4, 2]', text.indexOf('"wk": [[1, 1]')) + 1;
    await expectSelection(doc, new vscode.Range(doc.positionAt(at), doc.positionAt(at + 1)), 'W_K of "tech lens", row 3, column 1 (the 4)');

    await revealInSpec(doc.uri, { kind: 'position', line: 3, column: 5 }, vscode.ViewColumn.Two);
    const p = new vscode.Position(2, 4);
    await expectSelection(doc, new vscode.Range(p, p), 'line 3, column 5');
  });

  test('a spec that is not open comes up in the first column when the panel is in the second', async () => {
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'reveal-closed');
    const doc = editor.document;
    await closeAllEditors();
    await revealInSpec(doc.uri, { kind: 'token', input: 0, token: 3 }, vscode.ViewColumn.Two);
    await expectSelection(doc, rangeOf(doc, '"watch"]').with({ end: rangeOf(doc, '"watch"]').end.translate(0, -1) }), 'token 4 ("watch")');
    assert.equal(vscode.window.visibleTextEditors.find((e) => e.document === doc)?.viewColumn, vscode.ViewColumn.One);
  });

  test('a token revealed from the focused panel is selected in the spec while focus stays in the panel', async () => {
    // Before: focus moved into the editor with "apple" selected, and the next Tab replaced it.
    const editor = await openFreshSpec(exampleText('apple-watch-lens.attn.json'), 'reveal-focus');
    const doc = editor.document;
    await vscode.commands.executeCommand('attentionLens.show');
    await panelFor(await api(), doc, 'ready');
    // Show Attention leaves focus in the editor; the user moves into the panel (column 2) to explore.
    await vscode.commands.executeCommand('workbench.action.focusSecondEditorGroup');
    await waitFor('the panel to have focus', () => panelHasFocus(), 10_000, () => vscode.window.tabGroups.activeTabGroup.activeTab?.label);
    await revealInSpec(doc.uri, { kind: 'token', input: 0, token: 2 }, vscode.ViewColumn.Two);
    await expectSelection(doc, rangeOf(doc, '"apple"', '"I love Apple watch"'), 'token 3 ("apple")');
    assert.ok(panelHasFocus(), `focus moved to ${vscode.window.tabGroups.activeTabGroup.activeTab?.label}`);
    // A problem's position is different: the user wants to fix it, so the editor takes focus.
    await revealInSpec(doc.uri, { kind: 'position', line: 2, column: 3 }, vscode.ViewColumn.Two);
    await waitFor('the editor to take focus for a problem', () => vscode.window.activeTextEditor?.document === doc, 5_000);
  });
});
