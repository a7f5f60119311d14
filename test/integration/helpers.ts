// Shared helpers for the integration suite, which runs inside VS Code's extension host.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'attention-lens.attention-lens';
export const PANEL_VIEW_TYPE = 'attentionLens.panel';

/** What the extension's activate() returns, for tests: the host's own types, so they cannot drift. */
import type { AttentionLensApi as TestApi } from '../../src/host/test-api.js';
import type { PanelInfo } from '../../src/host/panel/info.js';

export type { PanelInfo, TestApi };

const seen: Record<string, number | undefined> = {};

/** Figures the suite measured, reported by the runner. */
export function timingsSeen(): Record<string, number | undefined> {
  return { ...seen };
}
export function recordTiming(name: string, ms: number | undefined): void {
  if (ms !== undefined) seen[name] = Math.round(ms * 10) / 10;
}

export function extension(): vscode.Extension<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this VS Code`);
  return ext;
}

export async function api(): Promise<TestApi> {
  const ext = extension();
  const exports = ext.isActive ? ext.exports : await ext.activate();
  assert.ok(exports && typeof exports.panels === 'function' && typeof exports.timings === 'function',
    'activate() must return the test API { panels(), timings() }');
  return exports;
}

export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the runner opens a workspace folder holding copies of examples/');
  return folder.uri.fsPath;
}

/** Text of one of the repository's examples (the runner copied them into the workspace). */
export function exampleText(name: string): string {
  return fs.readFileSync(path.join(workspaceDir(), name), 'utf8');
}

let counter = 0;
/** Writes `text` to a fresh spec file in the workspace and opens it in an editor. */
export async function openFreshSpec(text: string, stem = 'spec', column = vscode.ViewColumn.One): Promise<vscode.TextEditor> {
  const file = path.join(workspaceDir(), `${stem}-${process.pid}-${++counter}.attn.json`);
  fs.writeFileSync(file, text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(doc, { viewColumn: column, preview: false });
}

/** Replaces the whole text of the editor's document (an edit, like typing: the file stays dirty). */
export async function setText(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit was applied');
}

/** Replaces the first occurrence of `from` in the document with `to`. */
export async function replaceOnce(editor: vscode.TextEditor, from: string, to: string): Promise<void> {
  const text = editor.document.getText();
  const at = text.indexOf(from);
  assert.ok(at >= 0, `"${from}" is in the spec`);
  await setText(editor, text.slice(0, at) + to + text.slice(at + from.length));
}

/** Polls until `probe` returns something truthy; fails with `what` (and the last value) after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000, describe?: () => unknown): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const extra = describe ? `; last seen: ${JSON.stringify(describe())}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${extra}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function attnDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'attn');
}

/** The range a JSON value covers, found the way a reader of the text would: `needle` at its first place after `after`. */
export function rangeOf(doc: vscode.TextDocument, needle: string, after = ''): vscode.Range {
  const text = doc.getText();
  const start = text.indexOf(needle, after ? text.indexOf(after) : 0);
  assert.ok(start >= 0, `"${needle}" is in the spec`);
  return new vscode.Range(doc.positionAt(start), doc.positionAt(start + needle.length));
}

export function showRange(r: vscode.Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** Every open tab that is one of our webview panels. */
export function panelTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) =>
    t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(PANEL_VIEW_TYPE));
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await waitFor('all editors to close', () => vscode.window.tabGroups.all.every((g) => g.tabs.length === 0), 5_000);
}

/** The panel the API reports for a document, once it has painted `version` (or later) in `state`. */
export async function panelFor(a: TestApi, doc: vscode.TextDocument, state: PanelInfo['state'],
  opts: { version?: number; timeoutMs?: number; also?: (p: PanelInfo) => boolean } = {}): Promise<PanelInfo> {
  const uri = doc.uri.toString();
  const version = opts.version ?? doc.version;
  return waitFor(`a panel for ${path.basename(doc.uri.fsPath)} v${version} in state "${state}"`,
    () => a.panels().find((p) => p.documentUri === uri && p.version >= version && p.state === state && (!opts.also || opts.also(p))),
    opts.timeoutMs ?? 20_000, () => a.panels());
}
