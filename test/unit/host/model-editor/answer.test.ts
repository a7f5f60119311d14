// The model editor's answers to its webview (src/host/model-editor/answer.ts): a big head goes as the
// picture its scan kept (nothing read), a small one whole; a block of exact weights and the rollout
// come from the reader; a message that fails its check is ignored with a warning and reads nothing;
// an answer for options since replaced is dropped; a read that fails becomes the error panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelReader, ReaderError } from '../../../../src/host/model-editor/reader.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ModelView } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { headFloat32, headPicture, headWindow, rolloutOf } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { CountingReader, Gate, LocalReader, LogStandIn, until, WebviewStandIn } from './stand-ins.js';
import { tempDir } from '../../../support/temp-dir.js';

const worker = join(ROOT, 'dist', 'scan-worker.js');
const workers = new WorkerService({ scan: { file: worker } });

/** A document on a file on disk read by real workers, and one booted editor of it, once every head is read. */
async function scanned(path: string) {
  const readers: CountingReader[] = [];
  const log = new LogStandIn();
  const document = new ModelDocument({
    uri: 'file:///m', path, log, helperCount: () => 0,
    newReader: () => { const r = new CountingReader(new ModelReader(workers)); readers.push(r); return r; },
  });
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log });
  await receive(view, { type: 'ready' });
  await until('every head read and posted', () => view.info().scanMs !== undefined && webview.read === view.info().total);
  const asked = (op: string) => readers[0].asked.filter((q) => q.op === op).length;
  return { document, view, webview, log, asked, close: () => { view.dispose(); document.dispose(); } };
}

test('a big head is posted as the picture the scan kept, with no read; windows of exact weights and the rollout come from the reader', async () => {
  const dir = tempDir('attn-answer-');
  const path = join(dir, 'big.safetensors');
  const n = 300; // past WHOLE_HEAD_MAX: a picture (300 a side, no pooling) and windows
  writeSafetensors(path, randomAttention(1, 2, n, 4), 1, 2, n);
  const local = openAttention(path);
  const editor = await scanned(path);
  try {
    await receive(editor.view, { type: 'head', layer: 0, head: 1 });
    const [head] = editor.webview.of('head');
    const expected = headPicture(local, 0, 1);
    assert.equal(head.picture?.res, 300);
    assert.equal(head.max, expected.max);
    assert.ok(Buffer.from(head.picture!.indices).equals(Buffer.from(expected.indices)), 'every pixel');
    assert.equal(editor.asked('picture') + editor.asked('head'), 0, 'the scan\'s picture: nothing read');
    assert.ok(editor.view.info().lastHeadReadMs !== undefined);
    await receive(editor.view, { type: 'window', layer: 0, head: 1, i0: 280, rows: 20, j0: 7, cols: 50 });
    const [window] = editor.webview.of('window');
    assert.deepEqual({ ...window, weights: undefined }, { type: 'window', layer: 0, head: 1, i0: 280, rows: 20, j0: 7, cols: 50, weights: undefined });
    assert.deepEqual(Array.from(window.weights), Array.from(headWindow(local, 0, 1, 280, 20, 7, 50)));
    await receive(editor.view, { type: 'rollout' });
    assert.deepEqual(Array.from(editor.webview.of('rollout')[0].rollout!), Array.from(rolloutOf(local)!));
    assert.deepEqual(editor.webview.problems, []);
    await receive(editor.view, { type: 'painted', view: 'head', items: 1, drawMs: 3 });
    assert.equal(editor.view.info().lastHeadDrawMs, 3);
    assert.ok(editor.view.info().lastHeadMs !== undefined, 'the head\'s paint ends the switch');
  } finally {
    editor.close();
    local.close();
  }
  // A small head goes whole, read on request.
  const small = join(dir, 'small.safetensors');
  writeSafetensors(small, randomAttention(2, 2, 6, 8), 2, 2, 6);
  const smallLocal = openAttention(small);
  const second = await scanned(small);
  try {
    await receive(second.view, { type: 'head', layer: 1, head: 0 });
    assert.deepEqual(Array.from(second.webview.of('head')[0].weights!), Array.from(headFloat32(smallLocal, 1, 0)));
    assert.equal(second.asked('head'), 1);
  } finally {
    second.close();
    smallLocal.close();
  }
});

test('a message that fails its check is ignored with a warning, and nothing is read', async () => {
  const dir = tempDir('attn-answer-');
  const path = join(dir, 'm.safetensors');
  writeSafetensors(path, randomAttention(2, 2, 6, 8), 2, 2, 6);
  const editor = await scanned(path);
  try {
    const posted = editor.webview.messages.length;
    const before = ['head', 'window', 'rollout', 'pass'].map(editor.asked);
    for (const forged of [
      null, 'ready', { type: 'head', layer: 2, head: 0 }, { type: 'head', layer: 0, head: -1 },
      { type: 'window', layer: 0, head: 0, i0: 4, rows: 4, j0: 0, cols: 1 }, { type: 'export', format: 'gif', view: 'model', data: '' },
      { type: 'painted', view: 'model', items: 'all', drawMs: 1 }, { type: 'forget' },
    ]) await receive(editor.view, forged);
    assert.equal(editor.log.warnings.length, 8);
    assert.ok(editor.log.warnings.every((w) => w.startsWith('model editor: ignored a message from the webview: ')));
    assert.equal(editor.webview.messages.length, posted, 'nothing posted');
    assert.deepEqual(['head', 'window', 'rollout', 'pass'].map(editor.asked), before, 'nothing read');
    assert.equal(editor.view.info().view, undefined, 'a forged paint is not recorded');
  } finally {
    editor.close();
  }
});

test('an answer for options since replaced is dropped (the webview asks again); a read that fails becomes the error panel and is logged', async () => {
  const heads = new Gate();
  const values = randomAttention(1, 2, 4, 2);
  const log = new LogStandIn();
  let fail: Error | undefined;
  const readers: LocalReader[] = [];
  const document = new ModelDocument({
    uri: 'memory:m', path: 'm', log, helperCount: () => 0,
    newReader: () => { const r = new LocalReader(() => memoryAttention(values, 1, 2, 4), { heads }, fail); readers.push(r); return r; },
  });
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log, postEveryMs: 0 });
  try {
    await receive(view, { type: 'ready' });
    await until('every head posted', () => webview.read === 2);
    const asked = receive(view, { type: 'head', layer: 0, head: 1 });
    await until('the head asked of the reader', () => heads.waiting === 1);
    await receive(view, { type: 'softmax' });
    heads.release();
    await asked;
    assert.equal(webview.of('head').length, 0, 'the head read before the softmax is not posted after it');
    await until('the softmax\'s heads posted', () => webview.of('model').length === 2 && webview.read === 2);
    const again = receive(view, { type: 'head', layer: 0, head: 1 });
    await until('the head asked again', () => heads.waiting === 1);
    heads.release();
    await again;
    assert.deepEqual(Array.from(webview.of('head')[0].weights!), Array.from(headFloat32(memoryAttention(values, 1, 2, 4), 0, 1, { softmax: true })));
    assert.deepEqual(webview.problems, []);
  } finally {
    view.dispose();
    document.dispose();
  }

  // A read that fails: the error panel, and a bug is logged (a reader's refusal would not be).
  fail = new Error('the worker lost the file');
  const broken = new ModelDocument({ uri: 'memory:b', path: 'b', log, helperCount: () => 0, newReader: () => new LocalReader(() => memoryAttention(values, 1, 2, 4), {}, fail) });
  const w2 = new WebviewStandIn();
  const v2 = new ModelView(broken, { post: w2.post, log });
  try {
    await receive(v2, { type: 'ready' });
    await until('the model posted', () => w2.read === 2);
    await receive(v2, { type: 'head', layer: 0, head: 0 });
    assert.deepEqual(w2.messages.at(-1), { type: 'error', message: 'the worker lost the file' });
    assert.equal(v2.info().state, 'error');
    assert.equal(log.errors.length, 1);
    assert.match(log.errors[0], /model editor: Error: the worker lost the file/);
    fail = new ReaderError('m: not a model file', true);
    const w3 = new WebviewStandIn();
    const v3 = new ModelView(new ModelDocument({ uri: 'memory:c', path: 'c', log, helperCount: () => 0, newReader: () => new LocalReader(() => memoryAttention(values, 1, 2, 4), {}, fail) }), { post: w3.post, log });
    await receive(v3, { type: 'ready' });
    await until('the model posted', () => w3.read === 2);
    await receive(v3, { type: 'head', layer: 0, head: 0 });
    assert.deepEqual(w3.messages.at(-1), { type: 'error', message: 'm: not a model file' });
    assert.equal(log.errors.length, 1, 'a refusal is not logged');
    v3.dispose();
    v3.document.dispose();
  } finally {
    v2.dispose();
    broken.dispose();
  }
});

test('a head or a window asked for while the file cannot be read is answered with why, not left waiting', async () => {
  const log = new LogStandIn();
  const document = new ModelDocument({ uri: 'memory:spec', path: 'spec', refused: 'spec.attn.json: "model" is not a string', log, newReader: () => { throw new Error('no reader for a refused file'); } });
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log });
  try {
    await receive(view, { type: 'ready' });
    await until('the refusal posted', () => webview.of('error').length === 1);
    await receive(view, { type: 'head', layer: 0, head: 0 });
    await receive(view, { type: 'window', layer: 0, head: 0, i0: 0, rows: 1, j0: 0, cols: 1 });
    assert.deepEqual(webview.of('error').map((m) => m.message), Array(3).fill('spec.attn.json: "model" is not a string'));
    assert.equal(log.warnings.length, 2, 'nothing read for them, as for any message the host cannot check');
  } finally {
    view.dispose();
    document.dispose();
  }
});
