// The model editor's glue to VS Code (src/host/model-editor/editor.ts, webview.ts) in the vscode
// stand-in, with the real reader worker (dist/scan-worker.js: run `node scripts/build.mjs` first): Open
// Model Attention opens the custom editor on a .safetensors file, whose page gets the file's header
// after 'ready'; two editors of one file share one document and one scan; a spec's reference opens the
// editor beside with the spec's tokens; a file not on disk is refused; a forged message is dropped.
import '../../../support/vscode/register.js';
import { test, beforeEach, mock } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { MODEL_VIEW_TYPE, ModelEditorProvider } from '../../../../src/host/model-editor/editor.js';
import { distScripts, WorkerService } from '../../../../src/host/workers/service.js';
import { diskModelFiles } from '../../../../src/host/model-editor/disk-files.js';
import { SILENT_RELOAD_MS, SILENT_RELOADS } from '../../../../src/host/model-editor/webview.js';
import type { ModelHeader } from '../../../../src/core/model-attention/data.js';
import { asVscode, commands, extensionContext, standIn, Uri, ViewColumn, window, type WebviewPanel } from '../../../support/vscode/index.js';
import { randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { settle, until } from '../../../support/host-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { withGroups } from '../../../support/editor-groups.js';

beforeEach(() => standIn.reset());

/** A 2-layer, 3-head safetensors file of 5 tokens in a fresh folder (with its tokens, or none). */
function modelFile(tokens: string[] | null = ['the', 'cat', 'sat', 'on', 'it']): Uri {
  const path = join(tempDir('attn-model-editor-'), 'm.safetensors');
  writeSafetensors(path, randomAttention(2, 3, 5, 7), 2, 3, 5, tokens ?? undefined);
  return Uri.file(path);
}

function register() {
  const context = extensionContext(ROOT);
  const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
  const provider = ModelEditorProvider.register(asVscode<vscode.ExtensionContext>(context), diskModelFiles(workers));
  return { context, provider, dispose: () => { for (const s of context.subscriptions) s.dispose(); workers.dispose(); } };
}

const editors = () => standIn.windows.state.panels.filter((p) => p.viewType === MODEL_VIEW_TYPE);

async function headerOf(panel: WebviewPanel): Promise<ModelHeader> {
  panel.webview.fromPage({ type: 'ready' });
  await until('the model message', () => panel.webview.receivedOf('model').length > 0);
  return panel.webview.receivedOf('model')[0].header as ModelHeader;
}

test("Open Model Attention opens the editor on the file; its page gets the file's header after ready", async () => {
  const { provider, dispose } = register();
  const uri = modelFile();
  await commands.executeCommand('attentionLens.openModel', uri);
  const [panel] = editors();
  assert.ok(panel, 'an editor opened');
  assert.equal(panel.webview.options.enableScripts, true);
  assert.deepEqual(panel.webview.options.localResourceRoots?.map((r) => r.path), [`${ROOT}/dist`, `${ROOT}/media`]);
  assert.ok(panel.webview.html.includes('/dist/model-webview.js"'));
  const header = await headerOf(panel);
  assert.deepEqual([header.layers, header.heads, header.tokens], [2, 3, 5]);
  assert.deepEqual(header.tokenTexts, ['the', 'cat', 'sat', 'on', 'it']);
  await until('every head read', () => provider.infos()[0]?.read === 6);
  assert.equal(provider.infos()[0].uri, uri.toString());
  panel.dispose();
  assert.deepEqual(provider.infos(), [], 'a closed editor leaves the list');
  dispose();
});

test('Open Model Attention with no file says to choose one', async () => {
  const { dispose } = register();
  await commands.executeCommand('attentionLens.openModel');
  assert.deepEqual(editors(), []);
  assert.deepEqual(standIn.windows.state.messages, [{ severity: 'information', message: 'Attention Lens: open or choose a .safetensors, .npy or .npz file in the explorer.' }]);
  dispose();
});

test('Open Model Attention without a file opens the active tab\'s (VS Code\'s binary page on a .safetensors is no text editor)', async () => {
  const { dispose } = register();
  const uri = modelFile();
  // The binary page's tab: a text tab on the file, with no text editor behind it.
  const tabs = mock.getter(window, 'tabGroups', () => ({ all: [], activeTabGroup: { activeTab: { input: { uri } } } }));
  try {
    await commands.executeCommand('attentionLens.openModel');
    assert.equal(editors().length, 1, 'the editor opened on the active tab\'s file');
    assert.deepEqual(standIn.windows.state.messages, []);
    editors()[0].dispose();
  } finally {
    tabs.mock.restore();
  }
  dispose();
});

test('two editors of one file share one document: one scan for both', async () => {
  const { provider, dispose } = register();
  const uri = modelFile();
  await commands.executeCommand('vscode.openWith', uri, MODEL_VIEW_TYPE);
  await commands.executeCommand('vscode.openWith', uri, MODEL_VIEW_TYPE, ViewColumn.Two);
  const [a, b] = editors();
  // The same file's shape in both. The statistics stream in after the header ('scanned'), so a page
  // that said 'ready' before the scan ended has fewer of them in its header: those are not compared.
  const shapeOf = ({ stats: _s, offRows: _o, warnings: _w, ...shape }: ModelHeader) => shape;
  assert.deepEqual(shapeOf(await headerOf(a)), shapeOf(await headerOf(b)));
  await until('both editors with every head', () => provider.infos().length === 2 && provider.infos().every((i) => i.read === 6));
  assert.deepEqual(provider.infos().map((i) => i.scans), [1, 1], 'one scan, shared');
  a.dispose();
  b.dispose();
  assert.equal(standIn.windows.state.customDocuments.size, 0, 'the document closed with its last editor');
  dispose();
});

test("a spec's reference opens the editor beside the spec with the spec's tokens (the file has none)", async () => {
  const { provider, dispose } = register();
  const uri = modelFile(null);
  const spec = standIn.documents.open(Uri.parse('untitled:model.attn.json'), '{}');
  await window.showTextDocument(spec, { viewColumn: ViewColumn.One });
  await provider.openReference(asVscode(uri), { tokens: ['a', 'b', 'c', 'd', 'e'] });
  const [panel] = editors();
  assert.equal(panel.viewColumn, ViewColumn.Two, 'beside the spec in column one');
  assert.deepEqual((await headerOf(panel)).tokenTexts, ['a', 'b', 'c', 'd', 'e']);
  panel.dispose();
  dispose();
});

test("a spec's reference from the second of two groups opens the editor in the first, beside the spec's editor: never a third group", async () => {
  const { provider, dispose } = register();
  const restore = withGroups([1, 2]);
  try {
    const spec = standIn.documents.open(Uri.parse('untitled:model.attn.json'), '{}');
    await window.showTextDocument(spec, { viewColumn: ViewColumn.Two });
    await provider.openReference(asVscode(modelFile()), {});
    // The panel's button: the page has the focus, and the spec named is in column one.
    const other = standIn.documents.open(Uri.parse('untitled:other.attn.json'), '{}');
    await window.showTextDocument(other, { viewColumn: ViewColumn.One });
    standIn.windows.focus(undefined);
    await provider.openReference(asVscode(modelFile()), {}, { focus: true, beside: asVscode(other.uri) });
    assert.deepEqual(editors().map((p) => p.viewColumn), [ViewColumn.One, ViewColumn.Two]);
    for (const p of editors()) p.dispose();
  } finally {
    restore();
    dispose();
  }
});

test('a model file that is not on disk is refused; a forged message from the page is dropped and logged', async () => {
  const { dispose } = register();
  await commands.executeCommand('vscode.openWith', Uri.parse('vscode-remote://ssh-remote+box/models/m.npy'), MODEL_VIEW_TYPE);
  const [panel] = editors();
  panel.webview.fromPage({ type: 'ready' });
  await until('the error', () => panel.webview.receivedOf('error').length === 1);
  assert.match(String(panel.webview.receivedOf('error')[0].message), /reads model files from disk only \(this one is on vscode-remote\)/);
  panel.webview.fromPage({ type: 'head', layer: 99, head: -1 });
  await settle();
  assert.ok(standIn.windows.state.log.some((l) => l.level === 'warn' && /model editor: ignored a message from the webview/.test(l.text)));
  assert.equal(panel.webview.receivedOf('head').length, 0);
  panel.dispose();
  dispose();
});

test('a shown webview that says nothing gets its page again, a few times at most; a hidden one or one heard from is left alone', async () => {
  mock.timers.enable({ apis: ['setInterval'] });
  try {
    const { dispose } = register();
    const uri = modelFile();
    await commands.executeCommand('vscode.openWith', uri, MODEL_VIEW_TYPE);
    await commands.executeCommand('vscode.openWith', uri, MODEL_VIEW_TYPE, ViewColumn.Two);
    const [silent, heard] = editors();
    const pages = [silent.webview.html];
    heard.webview.fromPage({ type: 'ready' });
    const heardPage = heard.webview.html;
    for (let i = 0; i < SILENT_RELOADS + 3; i++) {
      mock.timers.tick(SILENT_RELOAD_MS);
      pages.push(silent.webview.html);
    }
    assert.equal(new Set(pages).size, SILENT_RELOADS + 1, 'the page set anew (a new nonce) each time, SILENT_RELOADS times in all');
    assert.match(pages[1], /<script nonce=/);
    assert.equal(heard.webview.html, heardPage, 'a webview that spoke keeps its page');
    assert.equal(standIn.windows.state.log.filter((l) => l.level === 'warn' && /said nothing in 4000 ms; loading its page again/.test(l.text)).length, SILENT_RELOADS);
    await commands.executeCommand('vscode.openWith', uri, MODEL_VIEW_TYPE, ViewColumn.Three);
    const hidden = editors()[2];
    hidden.hide();
    const hiddenPage = hidden.webview.html;
    mock.timers.tick(SILENT_RELOAD_MS * 3);
    assert.equal(hidden.webview.html, hiddenPage, 'a hidden webview runs nothing: its silence is not a fault');
    for (const p of editors()) p.dispose();
    dispose();
  } finally {
    mock.timers.reset();
  }
});
