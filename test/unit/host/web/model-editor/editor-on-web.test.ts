// The model editor as the web build registers it (the desktop's editor.ts with web-files.ts): Open
// Model Attention on a file of any scheme workspace.fs reads opens it, its page gets the header the
// desktop's gets for the same file and every head is read, on the host's thread (no Worker here); a
// file over the size limit shows, in the editor, the one line naming it, its size and the limit.
// A spec's reference opens the file within the spec's workspace folder only (reference.ts).
import '../../../../support/vscode/register.js';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { MODEL_VIEW_TYPE, ModelEditorProvider } from '../../../../../src/host/model-editor/editor.js';
import { diskModelFiles } from '../../../../../src/host/model-editor/disk-files.js';
import { MAX_WEB_MODEL_FILE_BYTES, webModelFiles } from '../../../../../src/host/web/model-editor/web-files.js';
import { webReferencedFile } from '../../../../../src/host/web/model-editor/reference.js';
import { distScripts, WorkerService } from '../../../../../src/host/workers/service.js';
import type { ModelFiles } from '../../../../../src/host/model-editor/model-files.js';
import type { ModelHeader } from '../../../../../src/core/model-attention/data.js';
import { asVscode, commands, extensionContext, standIn, Uri, type WebviewPanel } from '../../../../support/vscode/index.js';
import { randomAttention, writeSafetensors } from '../../../../support/model-fixture.js';
import { until } from '../../../../support/host-fixture.js';
import { ROOT } from '../../../../support/paths.js';
import { tempDir } from '../../../../support/temp-dir.js';

beforeEach(() => standIn.reset());

function register(files: (extensionUri: vscode.Uri) => ModelFiles) {
  const context = extensionContext(ROOT);
  const provider = ModelEditorProvider.register(asVscode<vscode.ExtensionContext>(context), files(asVscode<vscode.Uri>(context.extensionUri)));
  return { provider, dispose: () => { for (const s of context.subscriptions) s.dispose(); } };
}

const editors = () => standIn.windows.state.panels.filter((p) => p.viewType === MODEL_VIEW_TYPE);

async function headerOf(panel: WebviewPanel): Promise<ModelHeader> {
  panel.webview.fromPage({ type: 'ready' });
  await until('the model message', () => panel.webview.receivedOf('model').length > 0);
  return panel.webview.receivedOf('model')[0].header as ModelHeader;
}

/** Opens `uri` in the model editor registered with `files`: the header its page gets, a head it answers, and every head read. */
async function shown(files: (extensionUri: vscode.Uri) => ModelFiles, uri: Uri) {
  const { provider, dispose } = register(files);
  try {
    await commands.executeCommand('attentionLens.openModel', uri);
    const [panel] = editors();
    const header = await headerOf(panel);
    await until('every head read', () => provider.infos()[0]?.read === header.layers * header.heads);
    panel.webview.fromPage({ type: 'head', layer: 1, head: 2 });
    await until('the head', () => panel.webview.receivedOf('head').length > 0);
    const head = panel.webview.receivedOf('head')[0];
    panel.dispose();
    return { header, head: Array.from(head.weights as Float32Array) };
  } finally {
    dispose();
    standIn.reset();
  }
}

test('the web\'s model editor shows a file as the desktop\'s does: the same header and head, number for number', async () => {
  const path = join(tempDir('attn-web-editor-'), 'm.safetensors');
  writeSafetensors(path, randomAttention(2, 3, 5, 7), 2, 3, 5, ['the', 'cat', 'sat', 'on', 'it']);
  const onWeb = await shown((extensionUri) => webModelFiles(extensionUri, false), Uri.file(path));
  const workers = new WorkerService(distScripts(join(ROOT, 'dist')));
  try {
    const onDisk = await shown(() => diskModelFiles(workers), Uri.file(path));
    assert.deepEqual(onWeb.header, onDisk.header);
    assert.deepEqual(onWeb.head, onDisk.head);
    assert.deepEqual([onWeb.header.layers, onWeb.header.heads, onWeb.header.tokens], [2, 3, 5]);
    assert.equal(onWeb.head.length, 25);
  } finally {
    workers.dispose();
  }
});

test('a file over the limit: the editor shows one line with its name, its size and the limit', async () => {
  const path = join(tempDir('attn-web-editor-'), 'huge.safetensors');
  writeFileSync(path, '');
  truncateSync(path, MAX_WEB_MODEL_FILE_BYTES + 3 * 2 ** 20);
  const { provider, dispose } = register((extensionUri) => webModelFiles(extensionUri, false));
  try {
    await commands.executeCommand('attentionLens.openModel', Uri.file(path));
    const [panel] = editors();
    panel.webview.fromPage({ type: 'ready' });
    await until('the error', () => panel.webview.receivedOf('error').length === 1);
    const message = String(panel.webview.receivedOf('error')[0].message);
    assert.equal(message, `${path}: 515.0 MiB, over the 512.0 MiB the model editor reads into memory in VS Code for the Web; open it in VS Code on the desktop, which reads it from disk at offsets`);
    assert.equal(provider.infos()[0].state, 'error');
    panel.dispose();
  } finally {
    dispose();
  }
});

test('a spec\'s attention file opens beside it within its workspace folder; absolute, "..", outside a folder: one line each', () => {
  const root = Uri.parse('vscode-vfs://github/teacher/class');
  standIn.documents.setFolders(root);
  const spec = Uri.joinPath(root, 'lessons', 'run.attn.json');
  const file = webReferencedFile(asVscode<vscode.Uri>(spec), { file: 'out/run.safetensors' });
  assert.equal(String(file), 'vscode-vfs://github/teacher/class/lessons/out/run.safetensors');
  assert.equal(webReferencedFile(asVscode<vscode.Uri>(spec), { file: '/etc/passwd' }), '/etc/passwd: give a path relative to the spec\'s folder, not an absolute one');
  assert.match(String(webReferencedFile(asVscode<vscode.Uri>(spec), { file: '../../x.npy' })), /^\.\.\/\.\.\/x\.npy: the file must be in the spec's folder or below it/);
  const elsewhere = Uri.parse('vscode-vfs://github/someone/else/run.attn.json');
  assert.equal(webReferencedFile(asVscode<vscode.Uri>(elsewhere), { file: 'run.npy' }), 'run.npy: this spec is not in a folder of the workspace, so the model editor does not open files beside it here');
  // A folder whose name begins as the workspace's: not inside it.
  standIn.documents.setFolders(Uri.joinPath(root, 'lessons', 'a'));
  assert.equal(webReferencedFile(asVscode<vscode.Uri>(Uri.joinPath(root, 'lessons', 'ab', 's.attn.json')), { file: 'r.npy' }), 'r.npy: this spec is not in a folder of the workspace, so the model editor does not open files beside it here');
});
