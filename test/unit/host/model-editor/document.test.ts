// The model document (src/host/model-editor/document.ts): every editor of one file is a view of one
// document, so the file is scanned once however many editors show it. Counted at the readers: each
// range of heads is asked for once. Editors that join mid-scan or after it get what was read, then the
// rest; an editor that closes leaves the scan to the others; the document's closing ends the workers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelReader } from '../../../../src/host/model-editor/reader.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ModelView } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { thumbnailIndices } from '../../../../src/core/model-attention/data.js';
import { memoryAttention, randomAttention, writeSafetensors } from '../../../support/model-fixture.js';
import { ROOT } from '../../../support/paths.js';
import { npyBytes, npyDict, zipOf } from '../../../support/tensor-files.js';
import { CountingReader, eachHeadOnce, Gate, LocalReader, LogStandIn, passesOf, settle, until, WebviewStandIn } from './stand-ins.js';
import { tempDir } from '../../../support/temp-dir.js';

const worker = join(ROOT, 'dist', 'scan-worker.js');
const workers = new WorkerService({ scan: { file: worker } });

/** An editor of `document` with a webview that has booted (posted every head as it comes). */
async function editor(document: ModelDocument): Promise<{ view: ModelView; webview: WebviewStandIn }> {
  const webview = new WebviewStandIn();
  const view = new ModelView(document, { post: webview.post, log: new LogStandIn(), postEveryMs: 0 });
  await receive(view, { type: 'ready' });
  return { view, webview };
}

test('two editors of one file share one scan: each range of heads is read once and both get every head; a third editor after the scan gets all of it with no read', async () => {
  const dir = tempDir('attn-document-');
  const path = join(dir, 'm.safetensors');
  const values = randomAttention(3, 2, 6, 5);
  values[4] = 0.9; // a row off 1: the warning must reach every editor
  writeSafetensors(path, values, 3, 2, 6, ['a', 'b', 'a', 'b', 'c', 'a']);
  const local = openAttention(path);
  const expected = scanModel(local);
  const readers: CountingReader[] = [];
  const log = new LogStandIn();
  // 36 weights a range: one head each, six ranges; one helper joins once a webview has booted.
  const document = new ModelDocument({
    uri: 'file:///m.safetensors', path, log, weightsPerRange: 36, helperCount: () => 1,
    newReader: () => { const r = new CountingReader(new ModelReader(workers)); readers.push(r); return r; },
  });
  try {
    const a = await editor(document);
    const b = await editor(document);
    await until('both editors have every head', () => a.webview.read === 6 && b.webview.read === 6 && a.view.info().scanMs !== undefined);
    for (const { webview } of [a, b]) {
      assert.deepEqual(webview.problems, [], 'every message passes the webview\'s check');
      assert.deepEqual(webview.header, expected.header, 'the header the webview put together is the one-thread pass\'s');
      assert.deepEqual(webview.thumbnails, thumbnailIndices(expected.thumbnails, 6));
      assert.equal(webview.of('model').length, 1, 'one snapshot, then the heads as they came');
    }
    assert.equal(expected.header.offRows, 1);
    assert.deepEqual(passesOf(readers), eachHeadOnce(6), 'every head asked for once, by one reader or the other');
    assert.equal(document.scansBegun, 1);
    assert.equal(readers.length, 2, 'the document\'s reader and one helper');
    assert.ok(readers[1].disposed && !readers[0].disposed, 'the helper ends with the scan; the document keeps its reader');
    assert.deepEqual(a.view.info(), { ...b.view.info(), readyMs: a.view.info().readyMs }, 'the two editors report the same scan');
    assert.equal(a.view.info().read, 6);
    assert.equal(a.view.info().scans, 1);

    const c = await editor(document);
    assert.equal(c.webview.messages.length, 1);
    assert.equal(c.webview.of('model').length, 1);
    assert.deepEqual(c.webview.header, expected.header, 'the third editor gets the whole result at once');
    assert.deepEqual(c.webview.thumbnails, thumbnailIndices(expected.thumbnails, 6));
    await settle();
    assert.deepEqual(passesOf(readers), eachHeadOnce(6), 'and nothing is read again');
    assert.equal(document.scansBegun, 1);
    assert.equal(readers.length, 2);
    assert.deepEqual(log.errors, []);
    for (const e of [a, b, c]) e.view.dispose();
  } finally {
    document.dispose();
    local.close();
  }
  assert.ok(readers.every((r) => r.disposed), 'closing the document ends every worker');
});

/** A document over a 2 × 3 × 5 file in memory, its passes held at `gate`, one head a range. */
function heldDocument(gate: Gate, options: { helpers?: number; values?: Float32Array } = {}) {
  const values = options.values ?? randomAttention(2, 3, 5, 7);
  const readers: LocalReader[] = [];
  const log = new LogStandIn();
  const document = new ModelDocument({
    uri: 'memory:m', path: 'm.safetensors', log, weightsPerRange: 25, helperCount: () => options.helpers ?? 0,
    newReader: () => {
      const r = new LocalReader((open) => memoryAttention(values, 2, 3, 5, open?.tokens ?? ['t0', 't1', 't2', 't3', 't4']), { passes: gate });
      readers.push(r);
      return r;
    },
  });
  return { document, readers, log, values };
}

test('an editor that opens mid-scan gets the heads read so far, then the rest as they come; nothing is read twice', async () => {
  const gate = new Gate();
  const { document, readers, values } = heldDocument(gate);
  const expected = scanModel(memoryAttention(values, 2, 3, 5, ['t0', 't1', 't2', 't3', 't4']));
  try {
    const a = await editor(document);
    for (let k = 0; k < 2; k++) {
      await until(`range ${k} asked for`, () => gate.waiting === 1);
      gate.release(1);
    }
    await until('the first editor has two heads', () => a.webview.read === 2);
    const b = await editor(document);
    assert.equal(b.webview.messages.length, 1);
    assert.equal(b.webview.of('model')[0].header.stats.length, 2, 'the snapshot holds the two heads read');
    while (a.webview.read < 6 || b.webview.read < 6) {
      await until('a range asked for, or every head posted', () => gate.waiting > 0 || (a.webview.read === 6 && b.webview.read === 6));
      gate.release();
    }
    assert.deepEqual(b.webview.of('scanned')[0]?.from, 2, 'the later editor\'s heads follow on from its snapshot');
    for (const { webview } of [a, b]) {
      assert.deepEqual(webview.problems, []);
      assert.deepEqual(webview.header, expected.header);
    }
    assert.deepEqual(passesOf(readers), eachHeadOnce(6));
    assert.equal(document.scansBegun, 1);
  } finally {
    document.dispose();
  }
});

test('closing one editor leaves the scan to the other; closing the document mid-scan stops asking and ends the workers', async () => {
  const gate = new Gate();
  const { document, readers } = heldDocument(gate);
  const a = await editor(document);
  const b = await editor(document);
  await until('range 0 asked for', () => gate.waiting === 1);
  gate.release(1);
  await until('both have a head', () => a.webview.read === 1 && b.webview.read === 1);
  a.view.dispose();
  const heardByA = a.webview.messages.length;
  while (b.webview.read < 6) {
    await until('a range asked for, or every head posted', () => gate.waiting > 0 || b.webview.read === 6);
    gate.release();
  }
  assert.equal(a.webview.messages.length, heardByA, 'a closed editor is posted nothing');
  assert.deepEqual(passesOf(readers), eachHeadOnce(6), 'the scan went on for the other editor, every head once');
  b.view.dispose();
  document.dispose();
  assert.ok(readers.every((r) => r.disposed));

  // Mid-scan: the range under way ends, no other is asked for.
  const gate2 = new Gate();
  const second = heldDocument(gate2);
  const c = await editor(second.document);
  await until('range 0 asked for', () => gate2.waiting === 1);
  gate2.release(1);
  await until('range 1 asked for', () => gate2.waiting === 1);
  second.document.dispose();
  assert.ok(second.readers.every((r) => r.disposed), 'the document\'s closing ends its reader');
  gate2.release();
  await settle();
  assert.deepEqual(passesOf(second.readers), [[0, 1], [1, 2]], 'no range asked for after the document closed');
  assert.equal(c.webview.read, 1, 'and nothing more posted');
  c.view.dispose();
});

test('a spec that names other tokens for an open file opens it anew: every editor gets the model again, with them', async () => {
  const gate = new Gate();
  const { document, readers } = heldDocument(gate);
  try {
    const a = await editor(document);
    const b = await editor(document);
    gate.release();
    while (a.webview.read < 6 || b.webview.read < 6) {
      await until('a range asked for, or every head posted', () => gate.waiting > 0 || (a.webview.read === 6 && b.webview.read === 6));
      gate.release();
    }
    assert.deepEqual(a.webview.header?.tokenTexts, ['t0', 't1', 't2', 't3', 't4']);
    document.reopen(undefined);
    assert.equal(document.scansBegun, 1, 'the same options: nothing opened again');
    const tokens = ['the', 'cat', 'sat', 'on', 'mats'];
    document.reopen({ tokens });
    while (a.webview.of('model').length < 2 || b.webview.of('model').length < 2 || a.webview.read < 6 || b.webview.read < 6) {
      await until('a range asked for, or every head posted anew', () => gate.waiting > 0 || (a.webview.of('model').length === 2 && b.webview.of('model').length === 2 && a.webview.read === 6 && b.webview.read === 6));
      gate.release();
    }
    for (const { webview, view } of [a, b]) {
      assert.deepEqual(webview.problems, []);
      assert.deepEqual(webview.header?.tokenTexts, tokens);
      assert.deepEqual(view.info().tokens, tokens);
    }
    assert.equal(document.scansBegun, 2);
    assert.deepEqual(passesOf(readers), [...eachHeadOnce(6), ...eachHeadOnce(6)].sort((x, y) => x[0] - y[0]), 'one scan before, one after');
    assert.equal(readers.length, 1);
    assert.equal(readers[0].asked.filter((q) => q.op === 'open').length, 2, 'the document\'s worker opened the file again');
  } finally {
    document.dispose();
  }
});

test('a file read from deflated .npz members is scanned by its one reader (helpers would each inflate it again); the same file stored takes helpers', async () => {
  const dir = tempDir('attn-document-');
  const values = randomAttention(2, 2, 8, 9);
  const npy = npyBytes(npyDict('<f4', [2, 2, 8, 8]), Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  const counts: Record<string, number> = {};
  for (const deflate of [true, false]) {
    const path = join(dir, deflate ? 'deflated.npz' : 'stored.npz');
    writeFileSync(path, zipOf([{ name: 'attention.npy', data: npy, deflate }]));
    const readers: CountingReader[] = [];
    // 64 weights a range: one head each, four ranges; up to three helpers may join.
    const document = new ModelDocument({
      uri: `file:///${path}`, path, log: new LogStandIn(), weightsPerRange: 64, helperCount: () => 3,
      newReader: () => { const r = new CountingReader(new ModelReader(workers)); readers.push(r); return r; },
    });
    try {
      const a = await editor(document);
      await until('every head is read', () => a.webview.read === 4 && a.view.info().scanMs !== undefined);
      assert.deepEqual(passesOf(readers), eachHeadOnce(4));
      a.view.dispose();
    } finally {
      document.dispose();
    }
    counts[deflate ? 'deflated' : 'stored'] = readers.length;
  }
  assert.equal(counts.deflated, 1, 'no helper inflates a second copy of the member');
  assert.ok(counts.stored > 1, `a stored member is read at offsets, so helpers join (${counts.stored} readers)`);
});
