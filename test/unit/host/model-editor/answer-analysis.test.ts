// The model editor's answers to the norms switch and to heads to ablate (src/host/model-editor/answer.ts):
// a model run's editor moves to the scan of the norms (its own scan, beside the weights') and back,
// and hands the heads to ablate to its owner; a file's editor has neither: the switch is ignored with
// a warning and nothing is read again; heads outside the model never reach the owner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelView } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';
import { LocalReader, LogStandIn, until, WebviewStandIn } from './stand-ins.js';

function editor(run: boolean) {
  const log = new LogStandIn();
  const readers: LocalReader[] = [];
  const document = new ModelDocument({
    uri: 'file:///m', path: '/m', log, helperCount: () => 0,
    newReader: () => { const r = new LocalReader(() => memoryAttention(randomAttention(2, 3, 5), 2, 3, 5)); readers.push(r); return r; },
  });
  const webview = new WebviewStandIn();
  const ablated: Extract<ModelWebviewMessage, { type: 'ablate' }>[] = [];
  const view = new ModelView(document, { post: webview.post, log, postEveryMs: 0, ...(run ? { ablate: (m) => ablated.push(m) } : {}) });
  const close = () => { view.dispose(); document.dispose(); };
  return { log, readers, document, webview, view, ablated, close };
}

test('a run\'s editor: norms on reads the norms\' scan and posts its header, off goes back to the weights\' scan', async () => {
  const e = editor(true);
  try {
    await receive(e.view, { type: 'ready' });
    await until('the weights', () => e.webview.read === 6);
    await receive(e.view, { type: 'norms', on: true });
    assert.deepEqual(e.view.options, { norms: true });
    await until('the norms\' header', () => e.webview.header?.norms === true && e.webview.read === 6);
    assert.ok(e.readers[0].asked.some((q) => q.op === 'pass' && q.options?.norms === true), 'the reader was asked for the norms');
    assert.equal(e.document.scansBegun, 2, 'a scan of its own');
    await receive(e.view, { type: 'norms', on: false });
    assert.deepEqual(e.view.options, { norms: false });
    await until('the weights\' header', () => e.webview.header?.norms === undefined && e.webview.read === 6);
    assert.deepEqual(e.webview.problems, []);
  } finally {
    e.close();
  }
});

test('a run\'s editor hands sound heads to ablate to its owner; heads outside the model never reach it', async () => {
  const e = editor(true);
  try {
    await receive(e.view, { type: 'ready' });
    await until('the weights', () => e.webview.read === 6);
    await receive(e.view, { type: 'ablate', heads: [{ layer: 1, head: 2 }], mode: 'mean' });
    await receive(e.view, { type: 'ablate', heads: [{ layer: 2, head: 0 }], mode: 'zero' });
    await receive(e.view, { type: 'ablate', heads: [{ layer: 0, head: 3 }], mode: 'zero' });
    assert.deepEqual(e.ablated, [{ type: 'ablate', heads: [{ layer: 1, head: 2 }], mode: 'mean' }]);
    assert.deepEqual(e.log.warnings, [
      'model editor: ignored a message from the webview: no head 2, 0 in 2 × 3',
      'model editor: ignored a message from the webview: no head 0, 3 in 2 × 3',
    ]);
  } finally {
    e.close();
  }
});

test('a file\'s editor ignores the norms switch with a warning and reads nothing again', async () => {
  const e = editor(false);
  try {
    await receive(e.view, { type: 'ready' });
    await until('the weights', () => e.webview.read === 6);
    const asked = e.readers[0].asked.length;
    await receive(e.view, { type: 'norms', on: true });
    assert.deepEqual(e.view.options, {});
    assert.equal(e.readers[0].asked.length, asked);
    assert.match(e.log.warnings.at(-1)!, /ignored a norms switch: this attention is a file's/);
  } finally {
    e.close();
  }
});
