// The host's side of Open in Attention Lens (src/host/notebook/open-output.ts) in the vscode stand-in:
// an open request from the renderer writes the payload as a .safetensors in global storage (read
// back by our reader: the very weights and tokens), opens the model editor on it and answers the
// request by its id; a second click reuses the file; a bad payload is refused with its reason; an
// unknown message is ignored; painted reports are kept for the tests.
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
import { openAttention } from '../../../../src/core/files/open.js';
import { randomPayload } from '../../../support/payload.js';

const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const until = async (f: () => boolean) => { for (let i = 0; i < 200 && !f(); i++) await new Promise((r) => setTimeout(r, 10)); };

test('open: the payload written, read back, opened in the model editor, answered by id', async () => {
  standIn.reset();
  // The model editor itself is tested in test/unit/host/model-editor: here, what the host asks of it.
  vscode.commands.registerCommand('vscode.openWith', async () => undefined);
  const outputs = new NotebookOutputs(vscode.Uri.file(dir));
  const { values, payload } = randomPayload(2, 2, 4, 3, { title: 'gpt2 run/1' });
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 4, payload });
  await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 1);
  const [reply] = standIn.renderers.posted(NOTEBOOK_RENDERER_ID) as { type: string; id: number; file: string }[];
  assert.equal(reply.type, 'opened');
  assert.equal(reply.id, 4);
  assert.match(reply.file, /^gpt2-run-1-[0-9a-f]{12}\.safetensors$/);
  const written = join(dir, 'notebook-outputs', reply.file);
  const a = openAttention(written);
  assert.deepEqual([a.layers, a.heads, a.n], [2, 2, 4]);
  assert.deepEqual(a.tokens, payload.tokens);
  assert.deepEqual(Array.from(a.head(1, 1)), Array.from(values.subarray(48, 64)));
  a.close();
  const open = standIn.commands.state.executed.find((c) => c.command === 'vscode.openWith');
  assert.ok(open);
  assert.equal((open.args[0] as vscode.Uri).fsPath, written);
  assert.equal(open.args[1], 'attentionLens.model');
  assert.deepEqual(outputs.openedFiles(), [vscode.Uri.file(written).toString()]);
  // The same weights again: the same file, no second copy.
  standIn.renderers.send(NOTEBOOK_RENDERER_ID, { type: 'open', id: 5, payload });
  await until(() => standIn.renderers.posted(NOTEBOOK_RENDERER_ID).length === 2);
  assert.deepEqual(readdirSync(join(dir, 'notebook-outputs')), [reply.file]);
  outputs.dispose();
});

test('a bad payload is refused with its reason; unknown messages are ignored; paintings are kept', async () => {
  standIn.reset();
  const outputs = new NotebookOutputs(vscode.Uri.file(dir));
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
