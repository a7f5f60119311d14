// A big head as a map: the level whose blocks are about a pixel, the tiles asked at a zoom (nearest
// the centre first, a few at a time), drawn when they come with the colours their blocks give, the
// coarser ones shown while the finer come, the sink key as its own column on its own scale, labels
// that never overlap (a repeated word, 32,768 tokens), the keyboard's zoom and pan, a stale answer dropped.
import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { makeTheme } from '../../../../../../webview/kit/colour.js';
import { renderModelHead } from '../../../../../../webview/views/model/head.js';
import { indicesHref } from '../../../../../../webview/views/model/common.js';
import { TileStore, TILES_IN_FLIGHT, TILES_KEPT } from '../../../../../../webview/views/model/map/tile-store.js';
import { MAP_SIDE_MAX, mapSide } from '../../../../../../webview/views/model/map/map-view.js';
import { mapLevels } from '../../../../../../src/core/tensors/map/pyramid.js';
import { inView, levelFor, tilesFor, tileKey, TILE_SIDE } from '../../../../../../webview/views/model/map/plan.js';
import { levelMassTop, padded, sinkShades, tileMassMax, tileShades } from '../../../../../../webview/views/model/map/shades.js';
import { exactWeight } from '../../../../../../webview/views/model/map/hover.js';
import { fmt } from '../../../../../../webview/kit/format.js';
import { MAX_TILE_CELLS, type TileAsk } from '../../../../../../webview/views/model/map/tile-types.js';
import type { ModelViewData } from '../../../../../../src/core/model-attention/data.js';
import { answerOf, mapData, tileOf } from '../../../../../support/head-map.js';
import { modelOptions } from '../../../../../support/model-views.js';

function draw(data: ModelViewData, opts: { width?: number; interactive?: boolean; store?: TileStore; dpr?: number } = {}) {
  const dom = new JSDOM('<!doctype html><body><div id="root"></div></body>', { pretendToBeVisual: true });
  if (opts.dpr) Object.defineProperty(dom.window, 'devicePixelRatio', { value: opts.dpr, configurable: true });
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const root = dom.window.document.getElementById('root') as unknown as HTMLElement;
  const asks: TileAsk[] = [];
  const store = opts.store ?? new TileStore((a) => asks.push(a));
  const tips: string[][] = [];
  const options = { ...modelOptions({ width: opts.width ?? 900, interactive: opts.interactive ?? false, tooltip: { show: (l: readonly string[]) => { tips.push([...l]); }, hide: () => {} } }), tiles: store };
  const handle = renderModelHead(root, data, options);
  const svg = handle.svg;
  const key = (k: string, shiftKey = false) => svg.querySelector('g.head-map')!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true, cancelable: true }));
  const range = () => svg.querySelector('text.zoom-range')!.textContent!;
  return { dom, root, svg, handle, store, asks, key, range, tips };
}

/** The side the map gets at 900 px with one sink column (12 px and an 8 px gap). */
const SIDE = 740;

test('at the whole head the level is the one whose blocks are about a pixel, and its tiles are asked nearest the centre first, four at a time', () => {
  assert.equal(levelFor(32768, 760, 1, 8), 5, '32,768 tokens in 760 px: blocks of 32 tokens (0.74 px)');
  assert.equal(levelFor(32768, 760, 43.2, 8), 0, 'a token a pixel: level 0');
  assert.equal(levelFor(32768, 760, 2, 3), 2, 'never past the coarsest level');
  assert.equal(levelFor(2048, SIDE, 1, 4), 1);
  const { data } = mapData(2048);
  const { asks, svg } = draw(data);
  assert.equal(svg.getAttribute('data-map'), 'true');
  const want = tilesFor(2048, 1, inView(2048, SIDE, { k: 1, x: 0, y: 0 }));
  assert.equal(want.length, 16, '1,024 blocks a side at level 1: 4 × 4 tiles of 256');
  assert.equal(asks.length, TILES_IN_FLIGHT);
  assert.deepEqual(asks.map((a) => tileKey(a)), want.slice(0, TILES_IN_FLIGHT).map(tileKey));
  for (const a of asks) {
    assert.equal(a.type, 'tile');
    assert.equal(a.level, 1);
    assert.ok(a.rows * a.cols <= MAX_TILE_CELLS);
  }
  // The four nearest the centre of a 4 × 4 grid are its middle ones.
  assert.deepEqual(asks.map((a) => `${a.i0 / TILE_SIDE},${a.j0 / TILE_SIDE}`).sort(), ['1,1', '1,2', '2,1', '2,2']);
});

test('a tile is drawn when it comes, its blocks in the colours of their strongest weight, the sink key in its own column and scale', () => {
  const { data, w, map } = mapData(2048);
  const { asks, svg, store } = draw(data);
  const theme = makeTheme('light');
  const first = asks[0];
  assert.equal(svg.querySelectorAll('image.tile').length, 0, 'nothing before an answer');
  assert.ok(store.receive(answerOf(w, map, first)));
  const img = svg.querySelector(`image.tile[data-i0="${first.i0}"][data-j0="${first.j0}"]`)!;
  assert.ok(img, 'the tile is drawn');
  const tile = tileOf(w, map, first);
  // Two blocks more each way, the last column and row repeated (under the next tiles: no seam).
  assert.equal(img.getAttribute('href'), indicesHref(padded(tileShades(tile, map, 'max', 'linear', false), first.cols, first.rows, 2), first.cols + 2, first.rows + 2, theme));
  const b = 2 * SIDE / 2048;
  assert.equal(Number(img.getAttribute('x')), Math.round(first.j0 * b));
  assert.equal(Number(img.getAttribute('width')), Math.round((first.j0 + first.cols + 2) * b) - Math.round(first.j0 * b), 'every block in its place, two more under the next tile');
  // The fifth ask goes out once one is answered.
  assert.equal(asks.length, TILES_IN_FLIGHT + 1);
  // The sink column: key 0's weights over the same rows, on the sinks' scale (1), not the rest's (0.4).
  const sink = svg.querySelector(`image.sink-tile[data-i0="${first.i0}"]`)!;
  assert.equal(sink.getAttribute('href'), indicesHref(padded(sinkShades(tile, tile.sinkColumns![0], map, 'max', 'linear'), 1, first.rows, 0, 2), 1, first.rows + 2, theme));
  assert.equal(Number(sink.getAttribute('width')), 12);
  assert.deepEqual([...sinkShades(tile, tile.sinkColumns![0], map, 'max', 'linear')].slice(0, 3), [128, 128, 128], 'key 0 takes 0.5 of every row: half its scale');
  // Both scales in the legend.
  assert.equal(svg.querySelector('g.legend-keys text.legend-hi')!.textContent, '0.4');
  assert.equal(svg.querySelector('g.legend-sinks text.legend-hi')!.textContent, '1');
  assert.match(svg.querySelector('g.legend-sinks text.legend-label')!.textContent!, /sink/);
});

test('block colours: max by the head\'s strongest weight, mass per query, linear and log', () => {
  const map = { n: 1024, levels: 3, sinks: [0], max: 0.4, sinkMax: 1 };
  const tile = { level: 0, i0: 0, j0: 0, rows: 1, cols: 6, max: new Float32Array([0, 0.1, 0.2, 0.4, 0.8, NaN]), sum: new Float32Array(6) };
  assert.deepEqual([...tileShades(tile, map, 'max', 'linear', false)], [0, 64, 128, 255, 255, 0]);
  // Log: 0.4 × 10^-2 is halfway down the four decades; 0.4 × 10^-6 is still above nothing (index 1).
  const log = { ...tile, max: new Float32Array([0, 0.004, 0.04, 0.4, 4e-7, -1]) };
  assert.deepEqual([...tileShades(log, map, 'max', 'log', false)], [0, 128, 191, 255, 1, 0]);
  // Mass at level 2 (blocks of 4 queries): the sum over a block's queries, per query; its scale min(1, 4 × 0.4).
  const mass = { level: 2, i0: 255, j0: 0, rows: 1, cols: 2, max: new Float32Array(2), sum: new Float32Array([2, 3.2]) };
  assert.deepEqual([...tileShades(mass, map, 'mass', 'linear', false)], [128, 204], 'the last block has 4 queries: 0.5 and 0.8 of 1');
});

test('a tile\'s picture repeats its last column and row so that it reaches under the next one', () => {
  const ix = Uint8Array.from([1, 2, 3, 4, 5, 6]);
  assert.deepEqual([...padded(ix, 3, 2, 2)], [1, 2, 3, 3, 3, 4, 5, 6, 6, 6, 4, 5, 6, 6, 6, 4, 5, 6, 6, 6]);
  assert.deepEqual([...padded(Uint8Array.from([7, 8]), 1, 2, 0, 2)], [7, 8, 8, 8]);
});

test('a zoom step redraws at once from the coarser tiles kept, and asks the finer level', () => {
  const { data, w, map } = mapData(2048);
  const { asks, svg, store, key, range } = draw(data, { interactive: true });
  // Answer every ask at level 1 (each answer sends the next).
  for (let k = 0; k < asks.length; k++) store.receive(answerOf(w, map, asks[k]));
  assert.equal(svg.querySelectorAll('image.tile[data-level="1"]').length, 16);
  assert.match(range(), /queries 1–2048 × keys 1–2048; blocks of 2 × 2/);
  const before = asks.length;
  key('+'); key('+');
  assert.match(range(), /^shown: queries 769–1280 × keys 769–1280; every cell exact/);
  // At once: the level-1 tiles meeting the view, scaled; level 0's asked, nearest the centre first.
  const shown = [...svg.querySelectorAll('image.tile')];
  assert.ok(shown.length >= 1 && shown.every((el) => el.getAttribute('data-level') === '1'), 'the coarser tiles stand in');
  const fresh = asks.slice(before);
  assert.equal(fresh.length, TILES_IN_FLIGHT);
  assert.ok(fresh.every((a) => a.level === 0));
  const view = inView(2048, SIDE, { k: 4, x: -SIDE * 1.5, y: -SIDE * 1.5 });
  assert.deepEqual(fresh.map(tileKey), tilesFor(2048, 0, view).slice(0, TILES_IN_FLIGHT).map(tileKey));
  store.receive(answerOf(w, map, fresh[0]));
  const fine = svg.querySelector('image.tile[data-level="0"]')!;
  assert.ok(fine, 'the level-0 tile is drawn');
  assert.equal(fine.parentElement!.lastElementChild, fine, 'over the coarser ones');
});

test('the keyboard zooms (+, =, −), pans (shift and the arrows) and resets (0, Home), and says where the view is', () => {
  const { data } = mapData(2048);
  const { svg, key, range, root } = draw(data, { interactive: true });
  const frame = svg.querySelector('g.head-map')!;
  assert.equal(frame.getAttribute('tabindex'), '0');
  assert.match(frame.getAttribute('aria-label')!, /the arrows move the cell read out, shift and the arrows pan, plus and minus zoom, 0 or Home/);
  key('=');
  assert.match(range(), /^shown: queries 513–1536 × keys 513–1536/);
  key('ArrowRight', true);
  const right = /keys (\d+)–/.exec(range())!;
  assert.ok(Number(right[1]) > 513, `the keys in view move right: ${range()}`);
  key('ArrowDown', true);
  assert.ok(Number(/queries (\d+)–/.exec(range())![1]) > 513, 'the queries in view move down');
  const status = root.querySelector('[role=status]')!;
  assert.match(status.textContent!, /^shown: queries \d+–\d+ × keys \d+–\d+; .*\. At the centre: query #\d+ "\w+" → key #\d+/);
  key('-');
  key('Home');
  assert.match(range(), /^queries 1–2048 × keys 1–2048/);
  key('+'); key('0');
  assert.match(range(), /^queries 1–2048 × keys 1–2048/);
});

test('an answer not asked for this head is dropped: another head\'s, a repeat, one from before the head changed', () => {
  const { data, w, map } = mapData(2048);
  const { asks, svg, store } = draw(data);
  const a = asks[0];
  assert.equal(store.receive({ ...answerOf(w, map, a), head: 1 }), false, 'another head');
  const notAsked = tilesFor(2048, 1, inView(2048, SIDE, { k: 1, x: 0, y: 0 })).at(-1)!;
  assert.equal(store.receive(answerOf(w, map, { ...notAsked, layer: 0, head: 0 })), false, 'not asked');
  assert.equal(svg.querySelectorAll('image.tile').length, 0);
  assert.ok(store.receive(answerOf(w, map, a)));
  assert.equal(store.receive(answerOf(w, map, a)), false, 'a repeat');
  store.showing(0, 1);
  assert.equal(store.receive(answerOf(w, map, asks[1])), false, 'asked before the head changed');
  assert.equal(store.dropped, 4);
  assert.equal(svg.querySelectorAll('image.tile').length, 1);
});

test('the tile cache keeps the most recently used tiles', () => {
  const posted: TileAsk[] = [];
  const store = new TileStore((x) => posted.push(x), 2, 8);
  store.showing(0, 0);
  const spec = (i0: number) => ({ level: 0, i0, j0: 0, rows: 1, cols: 1 });
  store.want([spec(0), spec(1), spec(2)]);
  const answer = (i0: number) => ({ type: 'tile' as const, layer: 0, head: 0, ...spec(i0), max: new Float32Array(1), sum: new Float32Array(1) });
  store.receive(answer(0)); store.receive(answer(1));
  assert.ok(store.get(spec(0)), 'tile 0 used again');
  store.receive(answer(2));
  assert.ok(store.get(spec(0)) && store.get(spec(2)));
  assert.equal(store.get(spec(1)), undefined, 'the least recently used went');
  // Asked again only what is not kept.
  posted.length = 0;
  store.want([spec(0), spec(1)]);
  assert.deepEqual(posted.map((p) => p.i0), [1]);
});

/** Every pair of labels on an axis at least 12 px apart (the font is 11 px). */
function assertApart(svg: SVGSVGElement) {
  const ys = [...svg.querySelectorAll('text.row-label')].map((t) => Number(t.getAttribute('y'))).sort((a, b) => a - b);
  const xs = [...svg.querySelectorAll('text.col-label')].map((t) => Number(/translate\(([-\d.]+),/.exec(t.getAttribute('transform')!)![1])).sort((a, b) => a - b);
  for (let k = 1; k < ys.length; k++) assert.ok(ys[k] - ys[k - 1] >= 12 - 1e-9, `row labels at ${ys[k - 1]} and ${ys[k]} overlap`);
  for (let k = 1; k < xs.length; k++) assert.ok(xs[k] - xs[k - 1] >= 12 - 1e-9, `column labels at ${xs[k - 1]} and ${xs[k]} overlap`);
  return { rows: ys.length, cols: xs.length };
}

test('labels never overlap: 32,768 tokens of one repeated word, at the whole head and zoomed to single tokens', () => {
  const { data } = mapData(32768, ['the']);
  const { svg, key, range } = draw(data, { interactive: true, width: 1200 });
  const whole = assertApart(svg);
  assert.ok(whole.rows >= 20 && whole.cols >= 20, `${whole.rows} row and ${whole.cols} column labels`);
  assert.match(svg.querySelector('text.row-label')!.textContent!, /^500 "the"$/, 'thinned labels carry their place');
  assert.match(range(), /labels every 500/);
  for (let k = 0; k < 11; k++) key('+');
  const deep = assertApart(svg);
  assert.ok(deep.rows >= 20, `${deep.rows} row labels at the deepest zoom`);
  assert.match(range(), /every cell exact/);
  // Every token labelled: each copy of the word still says which it is.
  const rows = [...svg.querySelectorAll('text.row-label')].map((t) => t.textContent!);
  assert.ok(rows.every((t) => /^\d+ "the"$/.test(t)), `labels at the deepest zoom: ${rows.slice(0, 3).join(', ')}`);
  assert.equal(new Set(rows).size, rows.length, 'no two labels alike');
  assert.ok(svg.querySelector('text.sink-label'), 'the sink key keeps its label over its column');
});

test('at 430 px the map, its sink column, its labels, range and legend stay inside the view, whole', () => {
  const { data } = mapData(2048);
  const { svg } = draw(data, { width: 430 });
  assert.ok(Number(svg.getAttribute('width')) <= 430, `${svg.getAttribute('width')} px`);
  assertApart(svg);
  // The range in view on two lines, whole; the two scales one under the other, their words whole.
  assert.equal(svg.querySelectorAll('text.zoom-range tspan').length, 2);
  assert.equal(svg.querySelector('text.zoom-range title'), null);
  assert.equal(svg.querySelector('g.legend-keys text.legend-label')!.textContent, 'other keys: strongest weight (linear)');
  assert.equal(svg.querySelector('g.legend-sinks text.legend-label')!.textContent, 'sink: strongest weight (linear)');
  assert.equal(svg.querySelector('g.legend-sinks')!.getAttribute('transform'), 'translate(0,48)');
  // The notes whole (a cut one carries a <title>): what the map shows, and what its arcs are.
  assert.equal(svg.querySelectorAll('text.note title').length, 0, [...svg.querySelectorAll('text.note')].map((t) => t.textContent).join(' | '));
});

test('the map\'s arcs: at level 0 each query\'s strongest links among the keys in view, the sink\'s included', () => {
  const { data, w, map } = mapData(2048);
  const { svg, store, asks, key, handle } = draw(data, { interactive: true });
  key('+'); key('+'); key('+');
  assert.match(handle.notes.at(-1)!, /reading the cells in view…$/);
  assert.match(svg.querySelector('text.zoom-range')!.textContent!, /every cell exact/);
  for (let k = 0; k < asks.length; k++) store.receive(answerOf(w, map, asks[k]));
  const m = /queries (\d+)–(\d+) × keys (\d+)–(\d+)/.exec(svg.querySelector('text.zoom-range')!.textContent!)!;
  const [i0, i1, j0, j1] = m.slice(1).map((x) => Number(x) - 1);
  const arcs = [...svg.querySelectorAll('g.arc-window path.arc')];
  assert.ok(arcs.length > 0);
  const byQuery = new Map<number, number[]>();
  for (const p of arcs) {
    const i = Number(p.getAttribute('data-i')), j = Number(p.getAttribute('data-j'));
    assert.ok(i >= i0 && i <= i1 && j >= j0 && j <= j1, `link ${i} → ${j} in view`);
    byQuery.set(i, [...(byQuery.get(i) ?? []), w[i * 2048 + j]]);
  }
  for (const [i, drawn] of byQuery) {
    const row = Array.from(w.subarray(i * 2048 + j0, i * 2048 + j1 + 1)).sort((x, y) => y - x).slice(0, 2);
    assert.deepEqual(drawn.sort((x, y) => y - x), row, `query ${i}'s two strongest keys in view`);
  }
  assert.match(handle.notes.at(-1)!, new RegExp(`^arcs: the 2 strongest links of queries ${Math.max(i0, i1 - 95) + 1}–${i1 + 1}`));
});

test('the hover names the block under the pointer and its max and sum, and at level 0 the cell\'s exact weight, after a zoom under a still pointer too', () => {
  const { data, w, map } = mapData(2048);
  const { svg, store, asks, key, tips, dom } = draw(data, { interactive: true });
  for (let k = 0; k < asks.length; k++) store.receive(answerOf(w, map, asks[k]));
  const frame = svg.querySelector('g.head-map')!;
  // jsdom lays nothing out: the pointer's place in the frame is its client place.
  frame.dispatchEvent(new dom.window.MouseEvent('pointermove', { clientX: 370.5, clientY: 370.5, bubbles: true }));
  const at = Math.floor(370.5 / (SIDE / 2048));
  const block = Math.floor(at / 2) * 2;
  assert.equal(tips.at(-1)![0], `queries ${block + 1}–${block + 2} × keys ${block + 1}–${block + 2} (a block of 2 × 2, level 1 of 1024 blocks a side)`);
  assert.match(tips.at(-1)![1], /^strongest weight 0\.3\d*, sum 0\.\d+ \(the sink keys left out\)$/);
  key('+');
  for (let k = 0; k < asks.length; k++) store.receive(answerOf(w, map, asks[k]));
  // Zoomed ×2 about the centre (370 px): the pointer at 370.5 is over the same token, now a cell.
  const i = Math.floor((370.5 + 370) / (2 * SIDE / 2048));
  assert.equal(tips.at(-1)![0], `query #${i + 1} "${['the', 'cat', 'sat'][i % 3]}" → key #${i + 1} "${['the', 'cat', 'sat'][i % 3]}"`);
  assert.equal(Math.fround(Number(tips.at(-1)![1].replace('weight ', ''))), w[i * 2048 + i]);
});

test('a tile in view is never the one pushed out by the answers for the rest of the view', () => {
  const store = new TileStore(() => {}, 2, 8);
  store.showing(0, 0);
  const spec = (i0: number) => ({ level: 0, i0, j0: 0, rows: 1, cols: 1 });
  const answer = (i0: number) => ({ type: 'tile' as const, layer: 0, head: 0, ...spec(i0), max: new Float32Array(1), sum: new Float32Array(1) });
  store.want([spec(0), spec(1)]);
  store.receive(answer(0)); store.receive(answer(1));
  // The view moves to tiles 1 and 2: tile 0 has left it, tile 1 stays in it.
  store.want([spec(1), spec(2)]);
  store.receive(answer(2));
  assert.ok(store.get(spec(1)), 'the tile still in view is kept');
  assert.equal(store.get(spec(0)), undefined, 'the one that left the view went');
});

test('the spoken status is hidden by the CSSOM: no webview code sets a style attribute, which a webview\'s CSP refuses', () => {
  const { root } = draw(mapData(1024).data, { interactive: true });
  const status = root.querySelector('.map-status') as HTMLElement;
  assert.ok(status, 'a status line');
  assert.equal(status.getAttribute('role'), 'status');
  assert.equal(status.style.position, 'absolute');
  // In VS Code the CSP (style-src without 'unsafe-inline') drops a style attribute set as one, and the
  // hidden text showed under the map; style properties set through the CSSOM are allowed.
  const files = readdirSync('webview', { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith('.ts'));
  for (const f of files) {
    const text = readFileSync(join(f.parentPath ?? f.path, f.name), 'utf8');
    assert.ok(!/\.attr\(\s*'style'|setAttribute\(\s*'style'/.test(text), `${f.name} sets a style attribute`);
  }
});

test('the host\'s picture is put on the tiles\' scale (the strongest weight outside the sinks) for the linear max view', async () => {
  const { onKeysScale } = await import('../../../../../../webview/views/model/map/map-view.js');
  const indices = Uint8Array.from([0, 10, 51, 200, 255]);
  assert.deepEqual([...onKeysScale(indices, 1, 0.2, { colour: 'max', scale: 'linear' })], [0, 50, 255, 255, 255]);
  assert.equal(onKeysScale(indices, 1, 0.2, { colour: 'mass', scale: 'linear' }), indices);
  assert.equal(onKeysScale(indices, 1, 0.2, { colour: 'max', scale: 'log' }), indices);
  assert.equal(onKeysScale(indices, 0.1, 0.2, { colour: 'max', scale: 'linear' }), indices);
  assert.equal(onKeysScale(indices, undefined, 0.2, { colour: 'max', scale: 'linear' }), indices);
});

/** Answers every ask sent so far and those each answer sends. */
function answerAll(store: TileStore, asks: TileAsk[], w: Float32Array, map: Parameters<typeof answerOf>[1], from = 0) {
  for (let k = from; k < asks.length; k++) store.receive(answerOf(w, map, asks[k]));
}

test('by mass, a coarser tile standing in for the level in view is shaded on that level\'s scale, not brighter than its own', () => {
  const { data, w, map } = mapData(2048);
  const store = new TileStore((a) => asks.push(a));
  const asks: TileAsk[] = [];
  store.settings = { colour: 'mass', scale: 'linear' };
  const { svg, key } = draw(data, { interactive: true, store });
  answerAll(store, asks, w, map);
  key('+'); key('+');
  const standIn = svg.querySelector('image.tile[data-level="1"]')!;
  assert.ok(standIn, 'a level-1 tile stands in at level 0');
  const spec = { level: 1, i0: Number(standIn.getAttribute('data-i0')), j0: Number(standIn.getAttribute('data-j0')), rows: 256, cols: 256 };
  const tile = tileOf(w, map, spec);
  const top = levelMassTop(store.massSeen, map, 0, false);
  const theme = makeTheme('light');
  assert.equal(standIn.getAttribute('href'), indicesHref(padded(tileShades(tile, map, 'mass', 'linear', false, { level: 0, top }), 256, 256, 2), 258, 258, theme));
  assert.match(standIn.getAttribute('data-shade')!, /@0:/, 'its picture is kept by the level in view');
  // Its brightest block is no brighter than the finer tiles' brightest, once they come.
  const standInTop = Math.max(...tileShades(tile, map, 'mass', 'linear', false, { level: 0, top }));
  answerAll(store, asks, w, map);
  const fine = store.kept().filter((t) => t.level === 0);
  assert.ok(fine.length > 0);
  const fineTop = Math.max(...fine.map((t) => Math.max(...tileShades(t, map, 'mass', 'linear', false, { level: 0, top: levelMassTop(store.massSeen, map, 0, false) }))));
  assert.ok(standInTop <= fineTop, `the stand-in's brightest ${standInTop}, the finer tiles' ${fineTop}`);
  // Zoomed out again the same tile is on its own level's scale.
  key('0');
  const whole = svg.querySelector(`image.tile[data-level="1"][data-i0="${spec.i0}"][data-j0="${spec.j0}"]`)!;
  assert.match(whole.getAttribute('data-shade')!, /@1:/);
});

test('by mass, the scale\'s top is the largest block mass of the tiles come, not the bound 2^L × the strongest weight', () => {
  const { data, w, map } = mapData(2048);
  const asks: TileAsk[] = [];
  const store = new TileStore((a) => asks.push(a));
  store.settings = { colour: 'mass', scale: 'linear' };
  const { svg } = draw(data, { store });
  assert.equal(svg.querySelector('g.legend-keys text.legend-hi')!.textContent, '0.8', 'before any tile: the bound min(1, 2 × 0.4)');
  answerAll(store, asks, w, map);
  const real = Math.max(...asks.map((a) => tileMassMax(tileOf(w, map, a), 2048)));
  assert.ok(real < 0.8 && real > 0, `${real}`);
  assert.equal(store.massSeen.get(1), real);
  assert.equal(svg.querySelector('g.legend-keys text.legend-hi')!.textContent, fmt(real, 3));
  // The tiles drawn are shaded on it: the strongest block is the top colour.
  const theme = makeTheme('light');
  const a = asks.find((x) => tileMassMax(tileOf(w, map, x), 2048) === real)!;
  const img = svg.querySelector(`image.tile[data-i0="${a.i0}"][data-j0="${a.j0}"]`)!;
  const shades = tileShades(tileOf(w, map, a), map, 'mass', 'linear', false, { level: 1, top: real });
  assert.equal(Math.max(...shades), 255);
  assert.equal(img.getAttribute('href'), indicesHref(padded(shades, a.cols, a.rows, 2), a.cols + 2, a.rows + 2, theme));
  // Another head forgets them.
  store.showing(0, 1, 2048);
  assert.equal(store.massSeen.size, 0);
});

test('a wider editor gets a map as wide as it has room for, up to the side whose view the tiles kept hold', () => {
  const { data } = mapData(2048);
  for (const width of [900, 1184, 1300, 1600, 1920]) {
    const { svg } = draw(data, { width });
    const frame = svg.querySelector('g.head-map rect.hit')!;
    assert.equal(Number(frame.getAttribute('width')), Math.min(MAP_SIDE_MAX, width - 140 - 20), `at ${width} px`);
    assert.ok(Number(svg.getAttribute('width')) <= width);
  }
});

test('at every editor width, level and pan a view needs no more tiles than the store keeps', () => {
  let worst = 0;
  const sides = new Set<number>();
  for (let width = 300; width <= 4000; width += 10) for (const sinkArea of [0, 20, 104]) sides.add(mapSide(width, sinkArea));
  for (const n of [4097, 8200, 32768]) {
    for (const side of sides) {
      const maxK = Math.max(1, (n * 24) / side);
      for (let k = 1; k <= maxK; k *= 1.09) {
        // The view's corner over the whole range it can take (d3 keeps the map covering the frame).
        for (const fx of [0, 0.31, 0.77, 1]) for (const fy of [0, 0.53, 1]) {
          const z = { k, x: side * (1 - k) * fx, y: side * (1 - k) * fy };
          const level = levelFor(n, side, k, mapLevels(n));
          worst = Math.max(worst, tilesFor(n, level, inView(n, side, z)).length);
          assert.ok(worst <= TILES_KEPT, `n ${n}, side ${side}, k ${k}: ${worst} tiles`);
        }
      }
    }
  }
  assert.ok(worst > 4, `${worst} tiles at most`);
});

/** An element's rect in the picture: its x, y, width, height through its parents' translate and scale (the map's frame's included). */
function inPicture(el: Element): { x: number; y: number; w: number; h: number } {
  let x = Number(el.getAttribute('x') ?? 0), y = Number(el.getAttribute('y') ?? 0), w = Number(el.getAttribute('width')), h = Number(el.getAttribute('height'));
  for (let p = el.parentElement; p && p.tagName.toLowerCase() !== 'svg'; p = p.parentElement) {
    const tf = p.getAttribute('transform') ?? '';
    const s = /scale\(([-\d.e]+)(?:,\s*([-\d.e]+))?\)/.exec(tf), tr = /translate\(([-\d.e]+),\s*([-\d.e]+)\)/.exec(tf);
    const sx = s ? Number(s[1]) : 1, sy = s ? Number(s[2] ?? s[1]) : 1;
    x *= sx; w *= sx; y *= sy; h *= sy;
    if (tr) { x += Number(tr[1]); y += Number(tr[2]); }
  }
  return { x, y, w, h };
}

test('tiles are drawn on device pixels: no edge between pixels, each reaching the next tile\'s first pixel (no seam)', () => {
  const { data, w, map } = mapData(2048);
  // At 1.25 the frame's own place (LEFT + the sinks' columns, the notes' height) is off device pixels.
  for (const dpr of [1, 1.25, 2]) {
    const { svg, store, asks, key } = draw(data, { interactive: true, dpr });
    answerAll(store, asks, w, map);
    key('+'); key('+'); key('ArrowRight', true); key('ArrowDown', true); key('ArrowRight', true);
    answerAll(store, asks, w, map);
    const tiles = [...svg.querySelectorAll('image.tile[data-level="0"]')];
    assert.ok(tiles.length >= 2, `${tiles.length} level-0 tiles`);
    const on = (v: number) => Math.abs(v * dpr - Math.round(v * dpr)) < 1e-6;
    for (const el of [...tiles, ...svg.querySelectorAll('image.sink-tile[data-level="0"]')]) {
      const r = inPicture(el);
      assert.ok(on(r.x) && on(r.y) && on(r.x + r.w) && on(r.y + r.h), `${el.getAttribute('class')} ${el.getAttribute('data-i0')},${el.getAttribute('data-j0')} at ${JSON.stringify(r)}, ${dpr} device px a px`);
    }
    let pairs = 0;
    for (const a of tiles) for (const b of tiles) {
      const [ai, aj, bi, bj] = [a, b].flatMap((el) => [Number(el.getAttribute('data-i0')), Number(el.getAttribute('data-j0'))]);
      const ra = inPicture(a), rb = inPicture(b);
      if (ai === bi && bj === aj + 256) { pairs++; assert.ok(ra.x + ra.w > rb.x, 'reaches under the tile at its right'); }
      if (aj === bj && bi === ai + 256) { pairs++; assert.ok(ra.y + ra.h > rb.y, 'reaches under the tile below'); }
    }
    assert.ok(pairs >= 1, 'neighbouring tiles in view');
  }
});

test('above single cells the arcs band draws each query group\'s strongest links by their blocks, and says so', () => {
  const { data, w, map } = mapData(2048);
  const { svg, store, asks, handle } = draw(data, { interactive: true });
  assert.match(handle.notes.at(-1)!, /reading the blocks in view…$/);
  answerAll(store, asks, w, map);
  const arcs = [...svg.querySelectorAll('g.arc-window path.arc')];
  assert.equal(arcs.length, 64 * 2 - 1, 'two links for each of the 64 groups of 32 queries (the first has only its own keys before it)');
  assert.equal(handle.notes.at(-1)!, 'arcs: each 32 queries\' 2 strongest blocks of 32 × 32 in view, by strongest weight (sinks left out; 127 drawn); zoom in for single tokens');
  for (const p of arcs) {
    const i = Number(p.getAttribute('data-i')), j = Number(p.getAttribute('data-j'));
    assert.ok(i % 32 === 0 && j % 32 === 0 && j <= i, `groups ${i} → ${j}: causal`);
  }
});

test('the arrows move a cell read out like the hover (tokens and exact weight), the view following it, said by the status line', () => {
  const { data, w, map } = mapData(2048);
  const { svg, store, asks, key, range, root, tips, dom } = draw(data, { interactive: true });
  const status = root.querySelector('[role=status]')!;
  answerAll(store, asks, w, map);
  // At the whole head a step is a block of 2 × 2, from the cell at the centre (1,024, 1,024 counted from 1).
  key('ArrowLeft');
  assert.match(status.textContent!, /^queries 1023–1024 × keys 1021–1022 \(a block of 2 × 2, level 1 of 1024 blocks a side\); strongest weight 0\.3\d*, sum/);
  key('+'); key('+'); key('+');
  answerAll(store, asks, w, map);
  const [i0, i1, j0, j1] = /queries (\d+)–(\d+) × keys (\d+)–(\d+)/.exec(range())!.slice(1).map((x) => Number(x) - 1);
  assert.ok(i0 <= 1023 && 1023 <= i1 && j0 <= 1021 && 1021 <= j1, 'the cell stays in view through the zoom');
  // At level 0 a step is a cell: down one, right two, to the previous token's cell of query 1,025.
  key('ArrowDown'); key('ArrowRight'); key('ArrowRight');
  const name = (k: number) => `#${k + 1} "${['the', 'cat', 'sat'][k % 3]}"`;
  const weight = w[1024 * 2048 + 1023];
  assert.ok(weight > 0.3);
  assert.equal(status.textContent, `query ${name(1024)} → key ${name(1023)}; weight ${exactWeight(weight)}`);
  assert.deepEqual(tips.at(-1), [`query ${name(1024)} → key ${name(1023)}`, `weight ${exactWeight(weight)}`], 'shown beside the cell');
  const cursor = svg.querySelector('g.highlight rect.cursor')!;
  const cell = SIDE / 2048;
  assert.equal(Number(cursor.getAttribute('x')), 1023 * cell);
  assert.equal(Number(cursor.getAttribute('y')), 1024 * cell);
  // Past the view's right edge the view pans to hold the cell.
  const steps = j1 - 1023 + 3, j = 1023 + steps;
  for (let k = 0; k < steps; k++) key('ArrowRight');
  const [, , j0b, j1b] = /queries (\d+)–(\d+) × keys (\d+)–(\d+)/.exec(range())!.slice(1).map((x) => Number(x) - 1);
  assert.ok(j0b > j0 && j <= j1b, `keys ${j0b}–${j1b} hold key ${j}`);
  assert.equal(status.textContent, `query ${name(1024)} → key ${name(j)}; weight 0`);
  // Once the map loses the focus, tiles coming no longer bring the readout back.
  const shownTips = tips.length;
  svg.querySelector('g.head-map')!.dispatchEvent(new dom.window.FocusEvent('blur'));
  answerAll(store, asks, w, map);
  key('+', false);
  answerAll(store, asks, w, map);
  assert.equal(tips.length, shownTips);
  assert.equal(svg.querySelector('g.highlight rect.cursor'), null);
});
