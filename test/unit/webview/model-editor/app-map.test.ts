// The editor and a big head's map: the 'head' message's map is checked, the view's tile asks go to
// the host, the 'tile' answers come back to the shown view (drawn in place, no redraw), a tile not
// asked for or not fitting the map shown is dropped (never an error panel), a malformed one refused; the colour switch redraws with the map
// focused, and the switches and the zoom are kept through VS Code's state for a page made anew.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import { keptThrough, readKept } from '../../../../webview/model-editor/kept-state.js';
import type { TileAsk } from '../../../../webview/views/model/map/tile-types.js';
import { answerOf, mapData } from '../../../support/head-map.js';

function vscodeApi() {
  let state: unknown;
  return { postMessage: () => {}, getState: () => structuredClone(state), setState: (s: unknown) => { state = structuredClone(s); } };
}

function page(api = vscodeApi()) {
  const dom = new JSDOM('<!doctype html><body><main id="root"></main><div id="tip"></div></body>');
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const posted: { type: string }[] = [];
  const { initial, keep } = keptThrough(api);
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, { post: (m) => posted.push(m), canSoftmax: true, keep }, { view: 'head', ...initial });
  const tiles = () => posted.filter((m): m is TileAsk => m.type === 'tile');
  const key = (el: Element, k: string) => el.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  return { dom, doc, root, app, posted, tiles, key, api };
}

const { data, w, map } = mapData(1024);
const headMessage = { type: 'head', layer: 0, head: 0, picture: data.head!.picture, max: data.head!.max, map };

test('the map\'s tile asks go to the host and its answers are drawn in place; one not asked for is dropped, a malformed one refused', () => {
  const { doc, root, app, posted, tiles } = page();
  app.start();
  app.receive({ type: 'model', header: data.header, thumbnails: data.thumbnails });
  assert.deepEqual(posted.find((m) => m.type === 'head'), { type: 'head', layer: 0, head: 0 });
  app.receive(headMessage);
  assert.equal(doc.querySelector('svg')!.getAttribute('data-map'), 'true');
  const asks = tiles();
  assert.ok(asks.length > 0 && asks.every((a) => a.layer === 0 && a.head === 0));
  const svg = doc.querySelector('svg')!;
  app.receive(answerOf(w, map, asks[0]));
  assert.equal(doc.querySelector('svg'), svg, 'no redraw');
  assert.equal(doc.querySelectorAll('image.tile').length, 1);
  app.receive(answerOf(w, map, asks[0]));
  assert.equal(doc.querySelectorAll('image.tile').length, 1, 'an answer not asked for (a repeat) is dropped');
  assert.equal(root.dataset.state, 'ready');
  // A message malformed in itself (the protocol's check) is still refused.
  app.receive({ ...answerOf(w, map, asks[1]), max: new Float32Array(3) });
  assert.equal(root.dataset.state, 'error');
  assert.match(doc.querySelector('[role=alert]')!.textContent!, /could not use a message: a tile whose max and sum are not rows × cols float32/);
});

test('a new run\'s tile reaching the page still showing the old run\'s map (other sinks) is dropped, the map kept', () => {
  const { doc, root, app, tiles } = page();
  app.start();
  app.receive({ type: 'model', header: data.header, thumbnails: data.thumbnails });
  app.receive(headMessage);
  const svg = doc.querySelector('svg')!;
  const asks = tiles();
  const drawn = doc.querySelectorAll('image.tile').length;
  // The new run's sinks are other keys: its tile's sink columns are not the shown map's.
  const answer = answerOf(w, map, asks[0]);
  const other = Math.max(...map.sinks, 0) + 1;
  app.receive({ ...answer, sinkColumns: [{ key: other, max: new Float32Array(answer.rows), sum: new Float32Array(answer.rows) }] });
  assert.equal(root.dataset.state, 'ready');
  assert.equal(doc.querySelector('[role=alert]'), null, 'no error panel');
  assert.equal(doc.querySelector('svg'), svg, 'the map shown stays');
  assert.equal(doc.querySelectorAll('image.tile').length, drawn);
  // The tile that fits is still drawn when it comes.
  app.receive(answer);
  assert.equal(doc.querySelectorAll('image.tile').length, drawn + 1);
});

test('a head whose map does not fit the head is refused', () => {
  const { doc, app } = page();
  app.receive({ type: 'model', header: data.header, thumbnails: data.thumbnails });
  app.receive({ ...headMessage, map: { ...map, sinks: [5, 2] } });
  assert.match(doc.querySelector('[role=alert]')!.textContent!, /sinks are not at most 8 sorted keys/);
});

test('the colour switch redraws with the map focused; the switches and the zoom come back in a page made anew', () => {
  const api = vscodeApi();
  const first = page(api);
  first.app.start();
  first.app.receive({ type: 'model', header: data.header, thumbnails: data.thumbnails });
  first.app.receive(headMessage);
  const frame = () => first.doc.querySelector('g.head-map')! as unknown as HTMLElement;
  frame().focus();
  first.key(frame(), '+');
  first.key(frame(), 'm');
  assert.equal(first.doc.activeElement, frame(), 'the map keeps the keyboard after the redraw');
  assert.match(first.doc.querySelector('g.legend-keys text.legend-label')!.textContent!, /mass per query/);
  const range = first.doc.querySelector('text.zoom-range')!.textContent!;
  assert.match(range, /^shown: queries 257–768 × keys 257–768/, 'the redraw keeps the zoom');
  const kept = readKept(api.getState());
  assert.equal(kept.map?.colour, 'mass');
  assert.deepEqual(kept.map?.zoom && { layer: kept.map.zoom.layer, head: kept.map.zoom.head, span: kept.map.zoom.span }, { layer: 0, head: 0, span: 512 });
  const second = page(api);
  second.app.start();
  second.app.receive({ type: 'model', header: data.header, thumbnails: data.thumbnails });
  second.app.receive(headMessage);
  assert.equal(second.doc.querySelector('text.zoom-range')!.textContent, range);
  assert.match(second.doc.querySelector('g.legend-keys text.legend-label')!.textContent!, /mass per query/);
  // A kept zoom that is not one is left out, the switches kept.
  assert.deepEqual(readKept({ map: { colour: 'max', scale: 'log', zoom: { layer: 0, head: 0, ci: -1, cj: 2, span: 9 } } }).map, { colour: 'max', scale: 'log' });
  assert.equal(readKept({ map: { colour: 'red', scale: 'log' } }).map, undefined);
});

test('a big head shown before the scan reached it is asked again for its map once the scan has read it, once', () => {
  const { app, posted, doc } = page();
  app.start();
  const zeros = new Float32Array(data.thumbnails.length);
  app.receive({ type: 'model', header: { ...data.header, stats: [] }, thumbnails: zeros });
  const heads = () => posted.filter((m) => m.type === 'head').length;
  assert.equal(heads(), 1);
  app.receive({ ...headMessage, map: undefined });
  assert.equal(doc.querySelector('svg')!.getAttribute('data-map'), null, 'the picture alone');
  app.receive({ type: 'scanned', from: 0, stats: data.header.stats, thumbnails: data.thumbnails, offRows: 0, warnings: [] });
  assert.equal(heads(), 2, 'asked again');
  app.receive(headMessage);
  assert.equal(doc.querySelector('svg')!.getAttribute('data-map'), 'true');
  app.receive({ ...headMessage, map: undefined });
  app.receive({ type: 'scanned', from: 1, stats: [], thumbnails: new Float32Array(0), offRows: 0, warnings: [] });
  assert.equal(heads(), 2, 'not again');
});

test('a map sent while the scan was reading its head (the bands so far) is asked again once the head is read, its tiles asked anew', () => {
  const { app, posted, tiles } = page();
  app.start();
  const zeros = new Float32Array(data.thumbnails.length);
  app.receive({ type: 'model', header: { ...data.header, stats: [] }, thumbnails: zeros });
  const heads = () => posted.filter((m) => m.type === 'head').length;
  app.receive(headMessage);
  const before = tiles().length;
  assert.ok(before > 0, 'the partial map asks its tiles');
  app.receive({ type: 'scanned', from: 0, stats: data.header.stats, thumbnails: data.thumbnails, offRows: 0, warnings: [] });
  assert.equal(heads(), 2, 'asked again once read');
  app.receive(headMessage);
  assert.ok(tiles().length > before, 'the whole head\'s tiles are asked anew');
  app.receive({ type: 'scanned', from: 1, stats: [], thumbnails: new Float32Array(0), offRows: 0, warnings: [] });
  assert.equal(heads(), 2, 'not again');
});
