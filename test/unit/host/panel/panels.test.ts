// All Attention panels (src/host/panel/panels.ts) in the vscode stand-in: Show Attention opens one panel
// beside the spec and reuses it; two panels on one document (restored after a reload) share one
// analysis per version, with the diagnostics too; an unlocked panel follows the active spec and a
// locked one stays; a restored panel with an unusable state falls back to the active spec or closes;
// Show Attention on a file that is not a spec warns, and with no spec open it asks which one.
import '../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { PanelManager } from '../../../../src/host/panel/panels.js';
import { PANEL_VIEW_TYPE, type PanelContext } from '../../../../src/host/panel/panel.js';
import { SpecDiagnostics } from '../../../../src/host/spec-editor/diagnostics.js';
import type { AnalysisCache } from '../../../../src/host/analysis/cache.js';
import { asVscode, standIn, Uri, ViewColumn, window, workspace, type WebviewPanel } from '../../../support/vscode/index.js';
import { countingCache, examplesInTemp, settle, until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { withGroups } from '../../../support/editor-groups.js';
import { referencedFile } from '../../../../src/host/panel/reference.js';

beforeEach(() => standIn.reset());

function manager(cache: AnalysisCache): PanelManager {
  const context: PanelContext = { extensionUri: asVscode(Uri.file(ROOT)), cache, timings: { activateMs: 0 }, referencedFile };
  return new PanelManager(context);
}

const panelsOpen = () => standIn.windows.state.panels.filter((p) => p.viewType === PANEL_VIEW_TYPE);

async function showInEditor(uri: Uri) {
  return window.showTextDocument(await workspace.openTextDocument(uri), { viewColumn: ViewColumn.One });
}

test('Show Attention on a spec in the second of two groups opens the panel in the first, not in a third', async () => {
  const { uris: [uri] } = examplesInTemp('apple-watch-lens.attn.json');
  const panels = manager(countingCache().cache);
  const restore = withGroups([1, 2]);
  try {
    await window.showTextDocument(await workspace.openTextDocument(uri), { viewColumn: ViewColumn.Two });
    assert.ok(await panels.show());
    assert.deepEqual(panelsOpen().map((p) => p.viewColumn), [ViewColumn.One]);
  } finally {
    restore();
    panels.dispose();
  }
});

test('Show Attention opens one panel beside the spec, and shows it again rather than a second', async () => {
  const { uris: [uri] } = examplesInTemp('apple-watch-lens.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  await showInEditor(uri);
  const shown = await panels.show();
  assert.ok(shown);
  assert.equal(panelsOpen().length, 1);
  const [webviewPanel] = panelsOpen();
  assert.equal(webviewPanel.viewColumn, ViewColumn.Two, 'beside the editor in column one');
  assert.equal(webviewPanel.title, 'Attention: apple-watch-lens.attn.json');
  assert.equal(webviewPanel.options.enableScripts, true);
  assert.deepEqual(webviewPanel.options.localResourceRoots?.map((r) => r.path), [`${ROOT}/dist`, `${ROOT}/media`]);
  assert.equal(await panels.show(asVscode(uri)), shown);
  assert.equal(panelsOpen().length, 1);
  assert.equal(standIn.commands.state.context.get('attentionLens.panelLocked'), false);
  panels.dispose();
});

test('two panels on one document share one analysis per version, with the diagnostics', async () => {
  const { uris: [uri] } = examplesInTemp('apple-watch-lens.attn.json');
  const { cache, analyst } = countingCache();
  const panels = manager(cache);
  const diagnostics = new SpecDiagnostics(cache);
  const state = (view: string) => ({ documentUri: uri.toString(), view, head: 0, input: 0, token: -1 });
  const pages = [await standIn.windows.restore(PANEL_VIEW_TYPE, state('arcs')), await standIn.windows.restore(PANEL_VIEW_TYPE, state('matrix'))];
  await until('both panels showing version 1', () => panels.infos().every((p) => p.version === 1) && panels.infos().length === 2);
  for (const p of pages) p.webview.fromPage({ type: 'ready' });
  const [a, b] = pages.map((p) => p.webview.receivedOf('render'));
  assert.equal(a.length, 1);
  assert.deepEqual(a, b, 'the same result in both');
  assert.deepEqual(panels.infos().map((p) => p.view), ['arcs', 'matrix'], 'each restored with its own view');
  const document = await workspace.openTextDocument(uri);
  standIn.documents.type(document, document.getText().replace('"scale": "none"', '"scale": "sqrt_dk"'));
  await until('both panels rendering version 2', () => pages.every((p) => p.webview.receivedOf('render').length === 2));
  await until('the diagnostics of version 2', () => analyst.reads >= 2);
  await settle(300);
  assert.equal(analyst.reads, 2, 'two versions, two analyses, for two panels and the diagnostics');
  diagnostics.dispose();
  panels.dispose();
  assert.equal(panelsOpen().length, 0, 'the manager closed its panels');
});

test('an unlocked panel follows the active spec; a locked one stays, and Show Attention on another spec opens a second panel', async () => {
  const { uris: [apple, heads] } = examplesInTemp('apple-watch-lens.attn.json', 'multi-head-causal.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  await showInEditor(apple);
  const panel = (await panels.show())!;
  await showInEditor(heads);
  assert.equal(panel.uri.toString(), heads.toString(), 'followed the editor');
  await showInEditor(apple);
  panels.toggleLock();
  assert.equal(panel.isLocked, true);
  assert.equal(panelsOpen()[0].title, '[Locked] Attention: apple-watch-lens.attn.json');
  assert.equal(standIn.commands.state.context.get('attentionLens.panelLocked'), true);
  await showInEditor(heads);
  assert.equal(panel.uri.toString(), apple.toString(), 'a locked panel stays on its spec');
  // Show Attention on the other spec: the locked panel stays, a second panel opens for it.
  const second = (await panels.show(asVscode(heads)))!;
  assert.notEqual(second, panel);
  assert.equal(panelsOpen().length, 2);
  panels.dispose();
});

test('unlocking a panel shows the spec of the active editor', async () => {
  const { uris: [apple, heads] } = examplesInTemp('apple-watch-lens.attn.json', 'multi-head-causal.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  await showInEditor(apple);
  const panel = (await panels.show())!;
  panels.toggleLock();
  await showInEditor(heads);
  assert.equal(panel.uri.toString(), apple.toString());
  panels.toggleLock();
  assert.equal(panel.isLocked, false);
  assert.equal(panel.uri.toString(), heads.toString());
  await until('the unlocked panel showing the other spec', () => panels.infos()[0].documentUri === heads.toString() && panels.infos()[0].version === 1);
  panels.dispose();
});

test('a restored panel whose state is unusable shows the active spec, or closes when there is none', async () => {
  const { uris: [uri] } = examplesInTemp('apple-watch-lens.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  const lost = await standIn.windows.restore(PANEL_VIEW_TYPE, { documentUri: 42 });
  assert.equal(lost.disposed, true);
  assert.deepEqual(panels.infos(), []);
  assert.ok(standIn.windows.state.log.some((l) => l.level === 'warn' && /without a usable saved state/.test(l.text)));
  await showInEditor(uri);
  const found = await standIn.windows.restore(PANEL_VIEW_TYPE, { documentUri: 'file:///notes.txt', view: 'arcs', head: 0, input: 0, token: -1 });
  assert.equal(found.disposed, false);
  assert.deepEqual(panels.infos().map((p) => p.documentUri), [uri.toString()]);
  panels.dispose();
});

test('Show Attention on a file that is not a spec warns and opens nothing', async () => {
  const { cache } = countingCache();
  const panels = manager(cache);
  assert.equal(await panels.show(asVscode(Uri.file('/models/gpt2.npz'))), undefined);
  assert.deepEqual(panelsOpen(), []);
  assert.deepEqual(standIn.windows.state.messages, [{ severity: 'warning', message: 'Attention Lens: Show Attention works on *.attn.json files.' }]);
  panels.dispose();
});

test('with no spec open, Show Attention asks which of the workspace\'s specs, sorted, and shows the one picked', async () => {
  const { folder, uris } = examplesInTemp('mouse-two-contexts.attn.json', 'apple-watch-lens.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  standIn.documents.setFolders(Uri.file(folder));
  let offered: string[] = [];
  standIn.windows.state.pick = (items) => {
    offered = (items as { label: string }[]).map((i) => i.label);
    return items[1];
  };
  const panel = await panels.show();
  assert.deepEqual(offered, ['apple-watch-lens.attn.json', 'mouse-two-contexts.attn.json']);
  assert.equal(panel?.uri.toString(), uris[0].toString());
  standIn.windows.state.pick = () => undefined;
  panels.dispose();
  standIn.documents.setFolders();
  assert.equal(await manager(cache).show(), undefined);
  assert.deepEqual(standIn.windows.state.messages.at(-1), { severity: 'information', message: 'Attention Lens: open a *.attn.json spec to show its attention.' });
});

test('a panel the user closes leaves the list, and Toggle Lock with none open says so', async () => {
  const { uris: [uri] } = examplesInTemp('apple-watch-lens.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  await panels.show(asVscode(uri));
  assert.equal(panels.infos().length, 1);
  (panelsOpen()[0] as WebviewPanel).dispose();
  assert.deepEqual(panels.infos(), []);
  panels.toggleLock();
  assert.deepEqual(standIn.windows.state.messages, [{ severity: 'information', message: 'Attention Lens: no Attention panel is open.' }]);
  assert.equal(panels.currentSpec()?.toString(), undefined);
  panels.dispose();
  assert.equal(standIn.windows.state.serializers.has(PANEL_VIEW_TYPE), false, 'dispose unregistered the serializer');
});

test('Show Attention on a spec that references a model file opens the model editor, focused, and no panel', async () => {
  const { folder } = examplesInTemp();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(`${folder}/run.npy`, 'not read here');
  writeFileSync(`${folder}/ref.attn.json`, JSON.stringify({ attention: { file: 'run.npy' }, tokens: ['a', 'b'] }));
  const spec = Uri.file(`${folder}/ref.attn.json`);
  const { cache } = countingCache();
  const opened: { file: string; open: unknown; show: unknown }[] = [];
  const context: PanelContext = {
    extensionUri: asVscode(Uri.file(ROOT)), cache, timings: { activateMs: 0 }, referencedFile,
    openModel: async (file, open, show) => { opened.push({ file: file.fsPath, open, show }); },
  };
  const panels = new PanelManager(context);
  await showInEditor(spec);
  assert.equal(await panels.show(), undefined, 'no panel');
  assert.equal(panelsOpen().length, 0, 'no empty panel with its tabs');
  assert.deepEqual(opened, [{ file: `${folder}/run.npy`, open: { tokens: ['a', 'b'] }, show: { focus: true } }]);
  // A reference whose file is missing is a problem to list: then the panel opens and says so.
  writeFileSync(`${folder}/gone.attn.json`, JSON.stringify({ attention: { file: 'gone.npy' } }));
  const listed = await panels.show(asVscode(Uri.file(`${folder}/gone.attn.json`)));
  assert.ok(listed, 'a panel lists why the file cannot be opened');
  assert.equal(opened.length, 1);
  panels.dispose();
});

test('"Next" opens the next spec in the spec\'s column and moves the panel that asked, even a locked one', async () => {
  const { uris: [raw, lens] } = examplesInTemp('apple-watch-raw.attn.json', 'apple-watch-lens.attn.json');
  const { cache } = countingCache();
  const panels = manager(cache);
  await showInEditor(raw);
  const panel = (await panels.show())!;
  panels.toggleLock();
  await panels.openNext(asVscode(lens), panel);
  assert.equal(window.activeTextEditor?.document.uri.toString(), lens.toString());
  assert.equal(window.activeTextEditor?.viewColumn, ViewColumn.One);
  assert.equal(panel.uri.toString(), lens.toString());
  assert.equal(panelsOpen().length, 1);
  panels.dispose();
});
