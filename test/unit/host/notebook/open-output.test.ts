// The host's side of Open in Attention Lens (src/host/notebook/open-output.ts) in the vscode stand-in:
// an open request from the renderer shows the payload in the model views beside the notebook (read by
// the model editor's worker from shared memory: the very weights and tokens, nothing written to disk)
// and answers the request by its id; a second click shows the same panel; a bad payload is refused
// with its reason; an unknown message is ignored; painted reports are kept for the tests.
import '../../../support/vscode/register.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { standIn } from '../../../support/vscode/index.js';
import { NotebookOutputs } from '../../../../src/host/notebook/open-output.js';
import { NOTEBOOK_RENDERER_ID } from '../../../../src/protocol/notebook.js';
import { randomPayload } from '../../../support/payload.js';
import { ROOT } from '../../../support/paths.js';
import { WorkerService } from '../../../../src/host/workers/service.js';

const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const until = async (f: () => boolean) => { for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setTimeout(r, 10)); };
const extension = vscode.Uri.file(ROOT);
const workers = new WorkerService({ scan: { file: join(ROOT, 'dist', 'scan-worker.js') } });
after(() => workers.dispose());

test('open: the payload shown in the model views, read from memory (no file), answered by id; a second click shows the same panel', async () => {
  standIn.reset();
  const outputs = new NotebookOutputs(vscode.Uri.file(dir), extension, workers);
  const { values, payload } = randomPayload(2, 2, 4, 3, { title: 'gpt2 run/1' });
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 4, payload });
  await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 1);
  const [reply] = standIn.renderers.posted(NOTEBOOK_RENDERER_ID) as { type: string; id: number; file: string }[];
  assert.equal(reply.type, 'opened');
  assert.equal(reply.id, 4);
  assert.match(reply.file, /^gpt2-run-1-[0-9a-f]{12}$/);
  const panels = standIn.windows.state.panels.filter((p) => p.viewType === 'attentionLens.notebookOutput');
  assert.equal(panels.length, 1);
  const [panel] = panels;
  assert.equal(panel.title, 'gpt2 run/1');
  assert.match(panel.webview.html, /model-webview\.js/);
  // The page asks, as the model page does: the header, then a head.
  panel.webview.fromPage({ type: 'ready' });
  await until(() => panel.webview.receivedOf('model').length > 0);
  const [model] = panel.webview.receivedOf('model') as { header: { layers: number; heads: number; tokens: number; tokenTexts: string[]; file: string } }[];
  assert.deepEqual([model.header.layers, model.header.heads, model.header.tokens], [2, 2, 4]);
  assert.deepEqual(model.header.tokenTexts, payload.tokens);
  assert.equal(model.header.file, reply.file);
  panel.webview.fromPage({ type: 'head', layer: 1, head: 1 });
  await until(() => panel.webview.receivedOf('head').length > 0);
  const [head] = panel.webview.receivedOf('head') as { weights: Float32Array }[];
  assert.deepEqual(Array.from(head.weights), Array.from(values.subarray(48, 64)));
  assert.deepEqual(outputs.openedOutputs(), [vscode.Uri.joinPath(vscode.Uri.file(dir), 'notebook-outputs', reply.file).toString()]);
  assert.equal(standIn.commands.state.executed.filter((c) => c.command === 'vscode.openWith').length, 0);
  assert.deepEqual(readdirSync(join(dir, 'notebook-outputs')), [], 'nothing written');
  // The same weights again: the same panel, shown again; none more.
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 5, payload });
  await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 2);
  assert.deepEqual(standIn.renderers.posted(NOTEBOOK_RENDERER_ID)[1], { type: 'opened', id: 5, file: reply.file });
  assert.equal(standIn.windows.state.panels.filter((p) => p.viewType === 'attentionLens.notebookOutput').length, 1);
  // Closed, then asked again: a new panel.
  panel.dispose();
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 6, payload });
  await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 3);
  const again = standIn.windows.state.panels.filter((p) => p.viewType === 'attentionLens.notebookOutput');
  assert.equal(again.length, 1);
  assert.notEqual(again[0], panel);
  outputs.dispose();
  assert.equal(standIn.windows.state.panels.filter((p) => p.viewType === 'attentionLens.notebookOutput').length, 0, 'closed with the outputs');
});

test('a bad payload is refused with its reason; unknown messages are ignored; paintings are kept', async () => {
  standIn.reset();
  const outputs = new NotebookOutputs(vscode.Uri.file(dir), extension, workers);
  const { payload } = randomPayload(1, 1, 3);
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 9, payload: { ...payload, tokens: ['a'] } });
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'run', code: 'rm -rf /' });
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'painted', view: 'model', items: 1, drawMs: 2 });
  await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 1);
  assert.deepEqual(standIn.renderers.posted(NOTEBOOK_RENDERER_ID), [{ type: 'refused', id: 9, message: 'an open request whose payload is refused: 1 token(s) for 3 × 3 attention' }]);
  assert.equal(standIn.commands.state.executed.filter((c) => c.command === 'vscode.openWith').length, 0);
  assert.deepEqual(outputs.infos(), [{ view: 'model', items: 1, drawMs: 2 }]);
  outputs.dispose();
});

test('the same values and tokens in another shape are another output: a panel of their own, never the first one shown again', async () => {
  standIn.reset();
  const outputs = new NotebookOutputs(vscode.Uri.file(dir), extension, workers);
  const { payload } = randomPayload(1, 4, 3, 2, { title: 'run' });
  // Before: the name hashed the bytes and tokens only, so [4, 1, 3, 3] (four layers of one head) was
  // named as [1, 4, 3, 3] and its click showed the first panel: four heads of layer 1.
  for (const [id, shape] of [[1, [1, 4, 3, 3]], [2, [4, 1, 3, 3]], [3, [2, 2, 3, 3]]] as const) {
    standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id, payload: { ...payload, shape: [...shape] } });
    await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === id);
  }
  const replies = standIn.renderers.posted(NOTEBOOK_RENDERER_ID) as { type: string; file: string }[];
  assert.deepEqual(replies.map((r) => r.type), ['opened', 'opened', 'opened']);
  assert.equal(new Set(replies.map((r) => r.file)).size, 3);
  const panels = standIn.windows.state.panels.filter((p) => p.viewType === 'attentionLens.notebookOutput');
  assert.equal(panels.length, 3);
  panels[1].webview.fromPage({ type: 'ready' });
  await until(() => panels[1].webview.receivedOf('model').length > 0);
  const [model] = panels[1].webview.receivedOf('model') as { header: { layers: number; heads: number } }[];
  assert.deepEqual([model.header.layers, model.header.heads], [4, 1]);
  outputs.dispose();
});

test('beside a notebook in the second of two groups, the view opens in the first: never a third group', async () => {
  standIn.reset();
  const outputs = new NotebookOutputs(vscode.Uri.file(dir), extension, workers);
  const standInGroups = Object.getOwnPropertyDescriptor(vscode.window, 'tabGroups')!;
  const groups = (columns: number[]) => Object.defineProperty(vscode.window, 'tabGroups', { configurable: true, get: () => ({ all: columns.map((viewColumn) => ({ viewColumn, tabs: [] })) }) });
  const { payload } = randomPayload(1, 1, 3, 1, { title: 'beside' });
  try {
    groups([1, 2]);
    standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 1, payload }, { viewColumn: 2 });
    await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 1);
    const [panel] = standIn.windows.state.panels.filter((p) => p.viewType === 'attentionLens.notebookOutput');
    assert.equal(panel.viewColumn, 1);
    // Asked again: shown where it is, not moved beside (which would make a group).
    standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 2, payload }, { viewColumn: 2 });
    await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 2);
    assert.equal(panel.viewColumn, 1);
  } finally {
    Object.defineProperty(vscode.window, 'tabGroups', standInGroups);
    outputs.dispose();
  }
});
