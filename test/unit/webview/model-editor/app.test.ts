// The model page's shell on jsdom: it draws what checked messages bring, asks for a head when the
// head view needs one, shows a refused file as an error panel (never blank), offers the softmax
// when rows do not sum to 1, and hands an exported SVG to its transport.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { headFloat32, headPicture, headWindow, scanModel } from '../../../../src/core/model-attention/scan.js';
import { exactWeight } from '../../../../webview/views/model/head.js';
import { thumbnailIndices } from '../../../../src/core/model-attention/data.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';
import { between, seeded } from '../../../support/random.js';

function page() {
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>');
  // d3-zoom (the head view's zoom, interactive here) reads navigator, which Node 20 does not define.
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const posted: ModelWebviewMessage[] = [];
  const saved: { format: string; view: string; data: string }[] = [];
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, {
    post: (m) => posted.push(m), canSoftmax: true, save: (format, view, data) => saved.push({ format, view, data }),
  });
  return { dom, doc, root, app, posted, saved };
}

test('the app draws the grid, asks for a head when the head view needs one, and draws it when it comes', () => {
  const a = memoryAttention(randomAttention(2, 3, 5), 2, 3, 5);
  const { header, thumbnails } = scanModel(a);
  const { doc, root, app, posted, dom } = page();
  app.start();
  assert.deepEqual(posted[0], { type: 'ready' });
  app.receive({ type: 'model', header, thumbnails });
  assert.equal(root.dataset.state, 'ready');
  assert.equal(doc.querySelectorAll('g.head-cell').length, 6);
  doc.querySelector('g.head-cell[data-layer="1"][data-head="2"]')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.find((m) => m.type === 'head'), { type: 'head', layer: 1, head: 2 });
  assert.match(doc.querySelector('svg')!.textContent!, /layer 2 head 3: loading/);
  app.receive({ type: 'head', layer: 1, head: 2, weights: headFloat32(a, 1, 2) });
  assert.equal(doc.querySelectorAll('rect.cell').length, 25);
  assert.equal(root.dataset.view, 'head');
});

test('a refused file or a malformed message is an error panel; off rows offer the softmax', () => {
  const { doc, root, app, posted } = page();
  app.receive({ type: 'error', message: 'x.npy: truncated: bytes 0…64 are needed but the file has 10' });
  assert.equal(root.dataset.state, 'error');
  assert.match(doc.querySelector('[role=alert]')!.textContent!, /x\.npy: truncated/);
  app.receive({ type: 'model', header: { file: 'x' }, thumbnails: new Float32Array(1) });
  assert.match(doc.querySelector('[role=alert]')!.textContent!, /could not use a message/);
  const scores = scanModel(memoryAttention(new Float32Array([0, 2, 2, 3]), 1, 1, 2));
  app.receive({ type: 'model', ...scores });
  const button = [...doc.querySelectorAll('button')].find((b) => b.textContent === 'Apply softmax')!;
  assert.ok(button, 'the warning offers the softmax');
  button.click();
  assert.deepEqual(posted.at(-1), { type: 'softmax' });
});

test('Export SVG hands the shown view, standalone, to the transport', async () => {
  const { app, saved } = page();
  app.receive({ type: 'model', ...scanModel(memoryAttention(randomAttention(1, 2, 4), 1, 2, 4)) });
  await app.exportPicture('svg');
  assert.equal(saved.length, 1);
  assert.equal(saved[0].view, 'model');
  assert.match(saved[0].data, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal(saved[0].data.match(/class="head-cell"/g)?.length, 2);
});

test('heads arrive as they are read: the grid shows the file at once, fills in order, and refuses heads out of order', () => {
  const a = memoryAttention(randomAttention(2, 3, 5), 2, 3, 5);
  const { header, thumbnails } = scanModel(a);
  const side = header.thumb ** 2;
  const { doc, app } = page();
  app.receive({ type: 'model', header: { ...header, stats: [] }, thumbnails: new Float32Array(thumbnails.length) });
  assert.equal(doc.querySelectorAll('g.head-cell').length, 0);
  assert.equal(doc.querySelectorAll('rect.head-pending').length, 6, 'every head has its place before any is read');
  assert.match(doc.querySelector('svg')!.textContent!, /reading the file: 0 of 6 heads/);
  app.receive({ type: 'scanned', from: 0, stats: header.stats.slice(0, 4), thumbnails: thumbnails.slice(0, 4 * side), offRows: 0, warnings: [] });
  assert.equal(doc.querySelectorAll('g.head-cell').length, 4);
  assert.equal(doc.querySelectorAll('rect.head-pending').length, 2);
  assert.match(doc.querySelector('svg')!.textContent!, /4 of 6 heads/);
  app.receive({ type: 'scanned', from: 4, stats: header.stats.slice(4), thumbnails: thumbnails.slice(4 * side), offRows: 0, warnings: [] });
  assert.equal(doc.querySelectorAll('g.head-cell').length, 6);
  assert.equal(doc.querySelectorAll('rect.head-pending').length, 0);
  assert.doesNotMatch(doc.querySelector('svg')!.textContent!, /reading the file/);
  // The same grid as the one drawn from the whole file at once (thumbnails included).
  const whole = page();
  whole.app.receive({ type: 'model', header, thumbnails });
  const xml = (d: typeof doc, w: typeof whole.dom) => new w.window.XMLSerializer().serializeToString(d.querySelector('svg')!);
  assert.equal(xml(doc, page().dom), xml(whole.doc, whole.dom));
  // A message that skips heads is refused, never drawn over.
  const skip = page();
  skip.app.receive({ type: 'model', header: { ...header, stats: [] }, thumbnails: new Float32Array(thumbnails.length) });
  skip.app.receive({ type: 'scanned', from: 2, stats: header.stats.slice(2, 3), thumbnails: thumbnails.slice(2 * side, 3 * side), offRows: 0, warnings: [] });
  assert.match(skip.doc.querySelector('[role=alert]')!.textContent!, /heads from 2, but 0 were read/);
});

test('a big head comes as a picture: hover asks for the block under the pointer and then shows its exact weight', () => {
  const n = 300;
  const a = memoryAttention(randomAttention(1, 1, n, 3), 1, 1, n);
  const { doc, dom, app, posted } = page();
  app.receive({ type: 'model', ...scanModel(a) });
  doc.querySelector('g.head-cell')!.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
  assert.deepEqual(posted.filter((m) => m.type === 'head').at(-1), { type: 'head', layer: 0, head: 0 });
  const { res, indices, max } = headPicture(a, 0, 0);
  app.receive({ type: 'head', layer: 0, head: 0, picture: { res, indices }, max });
  assert.equal(doc.querySelectorAll('image.heatmap').length, 1);
  // The frame is 760 px for 300 keys: (x 127, y 380) is query 150, key 50, in the block at 128, 0.
  const frame = doc.querySelector('g[clip-path]')!;
  frame.dispatchEvent(new dom.window.MouseEvent('pointermove', { bubbles: true, clientX: 127, clientY: 380 }));
  assert.deepEqual(posted.filter((m) => m.type === 'window'), [{ type: 'window', layer: 0, head: 0, i0: 128, rows: 128, j0: 0, cols: 128 }]);
  const tip = doc.getElementById('tip')!;
  assert.match(tip.textContent!, /query #151 → key #51.*reading it from the file/s);
  // Moving within the block does not ask again.
  frame.dispatchEvent(new dom.window.MouseEvent('pointermove', { bubbles: true, clientX: 130, clientY: 385 }));
  assert.equal(posted.filter((m) => m.type === 'window').length, 1);
  app.receive({ type: 'window', layer: 0, head: 0, i0: 128, rows: 128, j0: 0, cols: 128, weights: headWindow(a, 0, 0, 128, 128, 0, 128) });
  assert.match(tip.textContent!, new RegExp(`query #152 → key #52.*weight ${exactWeight(headFloat32(a, 0, 0)[151 * n + 51]).replace('.', '\\.')}`, 's'));
  assert.equal(doc.querySelectorAll('image.heatmap').length, 1, 'a window is shown without a redraw');
});

test('thumbnails posted as each head\'s colour indices (a quarter of the bytes) draw the very grid the float32 values draw', () => {
  const a = memoryAttention(randomAttention(2, 3, 70, 8), 2, 3, 70);
  const { header, thumbnails } = scanModel(a);
  const indices = thumbnailIndices(thumbnails, header.thumb);
  assert.equal(indices.byteLength * 4, thumbnails.byteLength);
  const svgOf = (t: Float32Array | Uint8Array) => {
    const p = page();
    p.app.receive({ type: 'model', header, thumbnails: t });
    return new p.dom.window.XMLSerializer().serializeToString(p.doc.querySelector('svg')!);
  };
  const fromValues = svgOf(thumbnails);
  assert.match(fromValues, /data:image\/png;base64,/);
  assert.equal(svgOf(indices), fromValues);
});

test('before the file\'s header comes, the page says it is reading the file (never a blank editor)', () => {
  const { root, app } = page();
  assert.match(root.textContent!, /Reading the file…/);
  app.receive({ type: 'model', ...scanModel(memoryAttention(randomAttention(1, 1, 3), 1, 1, 3)) });
  assert.doesNotMatch(root.textContent!, /Reading the file/);
});

test('heads whose statistic differs only by rounding get one frame colour, and the note says the value is the same', () => {
  const a = memoryAttention(randomAttention(1, 3, 8), 1, 3, 8);
  const { header, thumbnails } = scanModel(a);
  const stats = header.stats.map((s, k) => ({ ...s, entropy: 2.0794415416798357 + k * 1e-14 }));
  const { doc, app } = page();
  app.receive({ type: 'model', header: { ...header, stats }, thumbnails });
  const strokes = new Set([...doc.querySelectorAll('rect.frame')].map((r) => r.getAttribute('stroke')));
  assert.equal(strokes.size, 1, [...strokes].join(' '));
  assert.match(doc.querySelector('svg')!.textContent!, /entropy is 2\.079 for every head read/);
  const spread = page();
  spread.app.receive({ type: 'model', header, thumbnails });
  assert.ok(new Set([...spread.doc.querySelectorAll('rect.frame')].map((r) => r.getAttribute('stroke'))).size > 1, 'real differences keep their colours');
});

test('a big head is read by keyboard too: one tab stop, the arrows move the cell, the tooltip gives its weight', () => {
  const n = 300;
  const a = memoryAttention(randomAttention(1, 1, n, 5), 1, 1, n);
  const { doc, dom, app, posted } = page();
  app.receive({ type: 'model', ...scanModel(a) });
  app.receive({ type: 'show', view: 'head', layer: 0, head: 0 });
  const { res, indices, max } = headPicture(a, 0, 0);
  app.receive({ type: 'head', layer: 0, head: 0, picture: { res, indices }, max });
  const frame = doc.querySelector('g.head-picture') as unknown as HTMLElement;
  assert.equal(frame.getAttribute('tabindex'), '0');
  assert.match(frame.getAttribute('aria-label')!, /arrows move from cell to cell/);
  frame.dispatchEvent(new dom.window.FocusEvent('focus'));
  const tip = doc.getElementById('tip')!;
  assert.match(tip.textContent!, /query #300 → key #1.*reading it from the file/s);
  assert.deepEqual(posted.filter((m) => m.type === 'window').at(-1), { type: 'window', layer: 0, head: 0, i0: 256, rows: 44, j0: 0, cols: 128 });
  const key = (k: string, shiftKey = false) => frame.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true }));
  key('ArrowUp');
  key('ArrowRight', true);
  assert.match(tip.textContent!, /query #299 → key #20/);
  app.receive({ type: 'window', layer: 0, head: 0, i0: 256, rows: 44, j0: 0, cols: 128, weights: headWindow(a, 0, 0, 256, 44, 0, 128) });
  assert.match(tip.textContent!, new RegExp(`query #299 → key #20.*weight ${exactWeight(headFloat32(a, 0, 0)[298 * n + 19]).replace('.', '\\.')}`, 's'));
  key('End');
  assert.match(tip.textContent!, /query #299 → key #300/);
  assert.equal(doc.querySelectorAll('rect.cursor').length, 1, 'one cursor cell');
});

test('a view chosen while the file cannot be shown says why at once, and asks the host for nothing', () => {
  const a = memoryAttention(randomAttention(2, 3, 5), 2, 3, 5);
  const { doc, root, app, posted, dom } = page();
  app.start();
  app.receive({ type: 'model', ...scanModel(a) });
  app.receive({ type: 'error', message: 'spec.attn.json: "model" is not a string' });
  const asked = posted.length;
  for (const view of ['head', 'rollout', 'finder']) {
    const select = doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!;
    select.value = view;
    select.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
    assert.equal(root.dataset.state, 'error', `${view}: still the error, not loading`);
    assert.match(doc.querySelector('[role=alert]')!.textContent!, /"model" is not a string/);
    assert.equal(doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!.value, view, 'the toolbar shows the view chosen');
    assert.deepEqual(posted.slice(asked).filter((m) => m.type !== 'painted'), [], 'no head or rollout asked of a file that cannot be read');
    assert.deepEqual(posted.at(-1), { type: 'painted', view: 'error', items: 0, drawMs: 0 }, 'painted at once');
  }
  // A new run's header clears it: the chosen view is drawn.
  app.receive({ type: 'model', ...scanModel(a) });
  assert.equal(root.dataset.state, 'ready');
  assert.equal(root.dataset.view, 'finder');
});

/** Chooses `view` in the toolbar, as the user does. */
function choose(doc: Document, dom: JSDOM, view: string): void {
  const select = doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!;
  select.value = view;
  select.dispatchEvent(new dom.window.Event('change', { bubbles: true }));
}

test('a message the page could not use is shown once: the next view chosen is drawn, not the error again', () => {
  const a = memoryAttention(randomAttention(2, 3, 5), 2, 3, 5);
  const { header } = scanModel(a);
  const side = header.thumb ** 2;
  const rand = seeded(20261205);
  // A family of messages the page refuses: heads out of order, a head outside the file, an unknown type.
  const broken = [
    { type: 'scanned', from: 3, stats: header.stats.slice(3, 4), thumbnails: new Float32Array(side), offRows: 0, warnings: [] },
    { type: 'head', layer: 7, head: 0, weights: new Float32Array(25) },
    { type: 'nonsense' },
    { type: 'model', header: { file: 'x' }, thumbnails: new Float32Array(1) },
  ];
  for (let i = 0; i < 12; i++) {
    const { doc, root, app, dom } = page();
    app.start();
    app.receive({ type: 'model', ...scanModel(a) });
    app.receive(broken[between(rand, 0, broken.length - 1)]);
    assert.equal(root.dataset.state, 'error');
    assert.match(doc.querySelector('[role=alert]')!.textContent!, /could not use a message/);
    const view = (['finder', 'rollout'] as const)[between(rand, 0, 1)];
    choose(doc, dom, view);
    assert.equal(root.dataset.state, 'ready', `${view}: drawn`);
    assert.equal(root.dataset.view, view);
    assert.equal(doc.querySelector('[role=alert]'), null);
  }
});

test('a file that cannot be read says so in every view until heads are read again (a head or more of the scan)', () => {
  const a = memoryAttention(randomAttention(2, 3, 5), 2, 3, 5);
  const { header, thumbnails } = scanModel(a);
  const side = header.thumb ** 2;
  for (const again of ['scanned', 'head'] as const) {
    const { doc, root, app, dom } = page();
    app.start();
    app.receive({ type: 'model', header: { ...header, stats: header.stats.slice(0, 2) }, thumbnails: new Float32Array(thumbnails.length) });
    app.receive({ type: 'error', message: 'm.npy: the file changed while it was read' });
    choose(doc, dom, 'finder');
    assert.equal(root.dataset.state, 'error', 'still the error');
    if (again === 'scanned') app.receive({ type: 'scanned', from: 2, stats: header.stats.slice(2), thumbnails: thumbnails.slice(2 * side), offRows: 0, warnings: [] });
    else app.receive({ type: 'head', layer: 0, head: 0, weights: headFloat32(a, 0, 0) });
    assert.equal(root.dataset.state, 'ready', `${again}: the file is read again`);
    assert.equal(root.dataset.view, 'finder');
    choose(doc, dom, 'grid');
    assert.equal(root.dataset.state, 'ready');
  }
});

test('the toolbar\'s statistics say what each measures', () => {
  const { doc, app } = page();
  app.receive({ type: 'model', ...scanModel(memoryAttention(randomAttention(1, 2, 4), 1, 2, 4)) });
  const options = [...doc.querySelectorAll<HTMLOptionElement>('select[data-control="statistic"] option')];
  assert.equal(options.find((o) => o.value === 'sink')?.title, 'the weight parked on the first token');
  assert.ok(options.every((o) => o.title.length > 10), 'every statistic defined');
});
