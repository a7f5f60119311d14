// The map end to end on jsdom: the model editor's host (its document, workers and answers) reading a
// 2,100-token F16 file with two sink keys, and the webview's app asking it: the head comes with its
// map, the tiles in view are asked, answered and drawn (the sinks as their own columns), and after a
// zoom by keys to single cells the hover writes the file's own weight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import { ModelDocument } from '../../../../src/host/model-editor/document.js';
import { ModelReader } from '../../../../src/host/model-editor/reader.js';
import { WorkerService } from '../../../../src/host/workers/service.js';
import { ModelView } from '../../../../src/host/model-editor/view.js';
import { receive } from '../../../../src/host/model-editor/answer.js';
import type { ModelHostMessage } from '../../../../src/protocol/model-editor.js';
import { openAttention } from '../../../../src/core/files/open.js';
import { headFloat32 } from '../../../../src/core/model-attention/scan.js';
import { ROOT } from '../../../support/paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { writeLongFile } from '../../../support/long-head.js';

const workers = new WorkerService({ scan: { file: join(ROOT, 'dist', 'scan-worker.js') } });

async function until(what: string, done: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

test('a 2,100-token file\'s head as a map: tiles asked by the view, answered by the host, drawn; the hover reads the file', async () => {
  const n = 2100;
  const path = join(tempDir('attn-map-'), 'long.safetensors');
  writeLongFile(path, 1, 1, n, 'F16', 37);
  const warnings: string[] = [];
  const log = { warn: (s: string) => { warnings.push(s); }, info: () => {}, error: (s: string) => { warnings.push(s); } } as unknown as ConstructorParameters<typeof ModelDocument>[0]['log'];
  const document = new ModelDocument({ uri: 'file:///long', path, log, helperCount: () => 1, weightsPerRange: 2 ** 20, newReader: () => new ModelReader(workers) });
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>');
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const tip = doc.getElementById('tip') as unknown as HTMLElement;
  const sent: { type: string }[] = [];
  const received: ModelHostMessage[] = [];
  let pending = 0;
  // eslint-disable-next-line prefer-const
  let view: ModelView;
  const app = new ModelApp(root, tip, { canSoftmax: true, post: (m) => { sent.push(m); pending++; void receive(view, m).finally(() => { pending--; }); } });
  view = new ModelView(document, { post: (m) => { const copy = structuredClone(m); received.push(copy); app.receive(copy); }, log, postEveryMs: 0 });
  const local = openAttention(path);
  try {
    app.start();
    await until('the head read', () => received.some((m) => m.type === 'scanned' || (m.type === 'model' && m.header.stats.length === 1)) && view.info().scanMs !== undefined);
    app.receive({ type: 'show', view: 'head', layer: 0, head: 0 });
    await until('the map drawn', () => !!doc.querySelector('svg[data-map]'));
    const head = received.find((m) => m.type === 'head' && m.map)!;
    assert.ok(head && head.type === 'head');
    assert.deepEqual(head.map!.sinks, [0, 37]);
    await until('every tile in view drawn', () => pending === 0 && doc.querySelectorAll('image.tile').length > 0 && sent.filter((m) => m.type === 'tile').length === received.filter((m) => m.type === 'tile').length);
    const asked = sent.filter((m) => m.type === 'tile') as unknown as { level: number }[];
    assert.ok(asked.length > 0 && asked.every((a) => a.level === asked[0].level), 'one level asked at the whole head');
    assert.equal(doc.querySelectorAll('image.tile').length, asked.length, 'each answer drawn');
    assert.deepEqual([...new Set([...doc.querySelectorAll('image.sink-tile')].map((el) => el.getAttribute('data-key')))], ['0', '37'], 'both sinks as columns');
    assert.equal(root.dataset.state, 'ready');
    // Zoom by keys until every cell is exact, wait for those tiles, then hover a cell.
    const frame = doc.querySelector('g.head-map')!;
    for (let k = 0; k < 2; k++) frame.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: '+', bubbles: true, cancelable: true }));
    assert.match(doc.querySelector('text.zoom-range')!.textContent!, /every cell exact/);
    await until('the exact tiles', () => pending === 0 && sent.filter((m) => m.type === 'tile').length === received.filter((m) => m.type === 'tile').length && !!doc.querySelector('image.tile[data-level="0"]'));
    const side = Number(doc.querySelector('g.head-map rect.hit')!.getAttribute('width'));
    frame.dispatchEvent(new dom.window.MouseEvent('pointermove', { clientX: side / 2 + 0.3, clientY: side / 2 - 5.3, bubbles: true }));
    const text = tip.textContent!;
    const m = /query #(\d+) → key #(\d+)weight ([\d.e-]+)/.exec(text);
    assert.ok(m, text);
    const weights = headFloat32(local, 0, 0);
    assert.equal(Math.fround(Number(m[3])), weights[(Number(m[1]) - 1) * n + Number(m[2]) - 1], `${text}: the file's weight`);
    assert.deepEqual(warnings, []);
  } finally {
    view.dispose();
    document.dispose();
    local.close();
  }
});
