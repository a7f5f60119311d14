// One model editor of a document (src/host/model-editor/view.ts): the file is opened while its webview
// boots and posted when the webview says 'ready'; an error waits for 'ready' too, and comes again to a
// webview made anew; the softmax moves only the editor that asked to a scan of its own; heads are
// posted at most every so often; the test seam's record follows the webview's paints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelReader } from '../../../../src/host/model-editor/reader.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ModelView, POST_EVERY_MS } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { eachHeadOnce, Gate, LocalReader, LogStandIn, passesOf, settle, until, WebviewStandIn } from './stand-ins.js';
import { tempDir } from '../../../support/temp-dir.js';

const worker = join(ROOT, 'dist', 'scan-worker.js');
const workers = new WorkerService({ scan: { file: worker } });

/** A document over a 2 × 3 × 5 file in memory (`values`), one head a range, its passes held at `gate`. */
function heldDocument(gate: Gate, values = randomAttention(2, 3, 5, 3), helpers = 0) {
  const readers: LocalReader[] = [];
  const log = new LogStandIn();
  const document = new ModelDocument({
    uri: 'memory:m', path: 'm.safetensors', log, weightsPerRange: 25, helperCount: () => helpers,
    newReader: () => { const r = new LocalReader(() => memoryAttention(values, 2, 3, 5), { passes: gate }); readers.push(r); return r; },
  });
  return { document, readers, log };
}

/** Lets every range go until `done()`. */
async function drain(gate: Gate, done: () => boolean): Promise<void> {
  while (!done()) {
    await until('a range asked for, or the end', () => gate.waiting > 0 || done());
    gate.release();
  }
}

test('the file is opened and its first range read while the webview boots; helpers join once it has booted and end with the scan', async () => {
  const gate = new Gate();
  const { document, readers } = heldDocument(gate, undefined, 2);
  const webview = new WebviewStandIn();
  const log = new LogStandIn();
  const view = new ModelView(document, { post: webview.post, log, postEveryMs: 0 });
  try {
    await until('the first range asked for', () => gate.waiting === 1);
    assert.equal(readers.length, 1, 'no helper before the webview has booted');
    assert.deepEqual(readers[0].asked.map((q) => q.op), ['open', 'pass']);
    assert.equal(webview.messages.length, 0, 'nothing posted to a webview that is not ready');
    assert.equal(view.info().state, 'loading');
    assert.equal(view.info().total, 6);
    await receive(view, { type: 'ready' });
    assert.equal(webview.of('model').length, 1, 'the snapshot at once');
    await until('two helpers asking for ranges', () => readers.length === 3 && gate.waiting === 3);
    assert.ok(readers.slice(1).every((r) => r.asked[0].op === 'open'), 'each helper opened the file');
    await drain(gate, () => webview.read === 6 && view.info().scanMs !== undefined);
    assert.deepEqual(passesOf(readers), eachHeadOnce(6));
    assert.ok(readers[1].disposed && readers[2].disposed && !readers[0].disposed, 'the helpers end with the scan');
    assert.deepEqual(webview.problems, []);
    assert.deepEqual(log.errors, []);
  } finally {
    view.dispose();
    document.dispose();
  }
});

test('a file the readers refuse: its message is posted once the webview is ready, never before, and again to a webview made anew; not logged', async () => {
  const dir = tempDir('attn-view-');
  const path = join(dir, 'cut.safetensors');
  writeSafetensors(path, randomAttention(1, 1, 4), 1, 1, 4);
  const whole = readFileSync(path);
  writeFileSync(path, whole.subarray(0, whole.length - 8));
  const log = new LogStandIn();
  const document = new ModelDocument({ uri: 'file:///cut.safetensors', path, log, newReader: () => new ModelReader(workers) });
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log });
  try {
    await until('the editor knows the error', () => view.info().state === 'error');
    assert.match(view.info().error ?? '', /cut\.safetensors: .*(truncated|outside)/);
    assert.equal(webview.messages.length, 0, 'not before the webview is ready');
    await receive(view, { type: 'ready' });
    assert.equal(webview.messages.length, 1);
    const [error] = webview.of('error');
    assert.match(error.message, /truncated|outside/);
    await receive(view, { type: 'ready' });
    assert.equal(webview.of('error').length, 2, 'a webview made anew says ready again, and hears the error again');
    await receive(view, { type: 'painted', view: 'error', items: 0, drawMs: 0 });
    assert.equal(view.info().state, 'error', 'the error panel\'s paint leaves the editor in error');
    assert.deepEqual(log.errors, [], 'a reader\'s refusal is the user\'s message, not a bug');
  } finally {
    view.dispose();
    document.dispose();
  }
  // A file not on disk: refused without a worker.
  let made = 0;
  const elsewhere = new ModelDocument({ uri: 'vscode-vfs://x/m.npy', path: '/m.npy', refused: 'vscode-vfs://x/m.npy: Attention Lens reads model files from disk only', log, newReader: () => { made++; return new ModelReader(workers); } });
  const w2 = new WebviewStandIn();
  const v2 = new ModelView(elsewhere, { post: w2.post, log });
  await receive(v2, { type: 'ready' });
  await until('the refusal posted', () => w2.messages.length === 1);
  assert.match(w2.of('error')[0].message, /from disk only/);
  assert.equal(made, 0, 'no worker for a file that cannot be read');
  v2.dispose();
  elsewhere.dispose();
});

test('the softmax moves only the editor that asks to a scan of its own; a second editor that asks joins that scan', async () => {
  const gate = new Gate();
  const scores = randomAttention(2, 3, 5, 11).map((v) => v * 3); // rows sum to 3: scores, not weights
  const { document, readers } = heldDocument(gate, scores);
  const views = [new WebviewStandIn(), new WebviewStandIn()].map((webview) => ({ webview, view: new ModelView(document, { post: webview.post, log: new LogStandIn(), postEveryMs: 0 }) }));
  const [a, b] = views;
  try {
    for (const { view } of views) await receive(view, { type: 'ready' });
    await drain(gate, () => a.webview.read === 6 && b.webview.read === 6);
    assert.equal(a.webview.header?.offRows, 30);
    assert.equal(a.webview.header?.softmaxed, false);
    const heardByB = b.webview.messages.length;
    await receive(a.view, { type: 'softmax' });
    await drain(gate, () => a.webview.of('model').length === 2 && a.webview.read === 6);
    const softmaxed = scanModel(memoryAttention(scores, 2, 3, 5), { softmax: true }).header;
    assert.deepEqual(a.webview.header, softmaxed);
    assert.deepEqual(a.view.options, { softmax: true });
    assert.equal(b.webview.messages.length, heardByB, 'the other editor keeps its own');
    assert.equal(b.webview.header?.softmaxed, false);
    assert.equal(document.scansBegun, 2);
    await receive(b.view, { type: 'softmax' });
    assert.equal(b.webview.of('model').length, 2);
    assert.deepEqual(b.webview.header, softmaxed, 'the second editor gets the softmax\'s scan as it is');
    assert.equal(document.scansBegun, 2, 'no third scan');
    assert.deepEqual(passesOf(readers, {}), eachHeadOnce(6));
    assert.deepEqual(passesOf(readers, { softmax: true }), eachHeadOnce(6));
    for (const { webview } of views) assert.deepEqual(webview.problems, []);
  } finally {
    for (const { view } of views) view.dispose();
    document.dispose();
  }
});

test('heads read are posted at most every POST_EVERY_MS, the last at once; the paints are the test seam\'s record', async () => {
  const gate = new Gate();
  const { document } = heldDocument(gate);
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log: new LogStandIn() });
  try {
    await receive(view, { type: 'ready' });
    const started = Date.now();
    for (let k = 0; k < 5; k++) {
      await until(`range ${k} asked for`, () => gate.waiting === 1);
      gate.release(1);
    }
    await until('range 5 asked for', () => gate.waiting === 1);
    await settle();
    if (Date.now() - started < POST_EVERY_MS) assert.equal(webview.of('scanned').length, 0, 'five heads within the interval: not posted yet');
    gate.release();
    await until('the last heads posted', () => webview.read === 6);
    assert.ok(webview.of('scanned').length <= 2, 'the last range is posted at once, with what was held back');
    await receive(view, { type: 'painted', view: 'model', items: 3, drawMs: 4 });
    let info = view.info();
    assert.equal(info.state, 'ready');
    assert.equal(info.items, 3);
    assert.equal(info.lastDrawMs, 4);
    assert.ok(info.firstPaintMs !== undefined && info.fullPaintMs === undefined, 'a paint of some heads is the first, not the full one');
    await receive(view, { type: 'painted', view: 'model', items: 6, drawMs: 5 });
    info = view.info();
    assert.ok(info.fullPaintMs !== undefined && info.fullPaintMs >= info.firstPaintMs!);
    assert.equal(info.read, 6);
    assert.equal(info.total, 6);
    view.show('head', 1, 2);
    assert.deepEqual(webview.messages.at(-1), { type: 'show', view: 'head', layer: 1, head: 2 });
  } finally {
    view.dispose();
    document.dispose();
  }
});

test('a message that comes after its editor closed begins nothing: a late softmax starts no scan and reads nothing, even once the document is closed', async () => {
  const gate = new Gate();
  const { document, readers } = heldDocument(gate);
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log: new LogStandIn(), postEveryMs: 0 });
  const other = new ModelView(document, { post: new WebviewStandIn().post, log: new LogStandIn(), postEveryMs: 0 });
  try {
    await receive(view, { type: 'ready' });
    await drain(gate, () => webview.read === 6);
    const heard = webview.messages.length;
    view.dispose();
    await receive(view, { type: 'softmax' });
    await receive(view, { type: 'ready' });
    await settle();
    gate.release();
    await settle();
    assert.equal(document.scansBegun, 1, 'no scan for an editor that is gone');
    assert.deepEqual(passesOf(readers, { softmax: true }), [], 'nothing read for it');
    assert.equal(webview.messages.length, heard, 'nothing posted to it');
    other.dispose();
    document.dispose();
    await receive(other, { type: 'softmax' });
    await receive(other, { type: 'ready' });
    assert.equal(document.scansBegun, 1);
  } finally {
    view.dispose();
    other.dispose();
    document.dispose();
  }
});

test('a run\'s tiles are computed one at a time, in the order asked; a tile of a head the webview left is dropped, not computed; a failed one does not stop the next', async () => {
  const { document } = heldDocument(new Gate());
  const view = new ModelView(document, { post: new WebviewStandIn().post, log: new LogStandIn(), postEveryMs: 0 });
  try {
    view.headAsked(0, 1);
    const ran: string[] = [];
    let release: () => void = () => {};
    const first = view.inTileTurn(0, 1, () => new Promise<string>((resolve) => { ran.push('a'); release = () => resolve('a'); }));
    const second = view.inTileTurn(0, 1, async () => { ran.push('b'); return 'b'; });
    await until('the first tile under way', () => ran.length === 1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(ran, ['a'], 'the second waits for the first');
    view.headAsked(1, 2);
    const failing = view.inTileTurn(1, 2, async () => { ran.push('x'); throw new Error('refused'); });
    const last = view.inTileTurn(1, 2, async () => { ran.push('d'); return 'd'; });
    release();
    assert.equal(await first, 'a');
    assert.equal(await second, undefined, 'asked for head 0.1, which the webview left');
    await assert.rejects(failing, /refused/);
    assert.equal(await last, 'd');
    assert.deepEqual(ran, ['a', 'x', 'd']);
  } finally {
    view.dispose();
    document.dispose();
  }
});
