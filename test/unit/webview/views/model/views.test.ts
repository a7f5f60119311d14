// The model views on jsdom, their numbers checked against the core's (head statistics, a head's
// weights, the rollout of `attn inspect`), and the PNG heatmaps decoded back to their indices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, inflateSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { maxOf, poolMax, softmaxRows, type ModelViewData } from '../../../../../src/core/model-attention/data.js';
import { headFloat32, rolloutOf, scanModel } from '../../../../../src/core/model-attention/scan.js';
import { encodePalettePng, fromBase64, base64 } from '../../../../../src/core/image/png.js';
import { inspectAttention } from '../../../../../src/core/tensors/inspect.js';
import { STAT_NAMES } from '../../../../../src/core/tensors/head-stats.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { fmt } from '../../../../../webview/kit/format.js';
import { xmlSafe } from '../../../../../webview/kit/xml-safe.js';
import { MODEL_VIEWS } from '../../../../../webview/views/registry.js';
import { exactWeight, strongestLinks } from '../../../../../webview/views/model/head.js';
import { sortHeads } from '../../../../../webview/views/model/finder.js';
import type { ModelViewOptions } from '../../../../../webview/views/model/common.js';
import type { ModelViewName } from '../../../../../src/core/vocabulary.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { decodePalettePng, gridThumbnails, viewed } from '../../../../support/grid-thumbnails.js';
import { heatmapIndices } from '../../../../../src/core/tensors/heatmap.js';

const L = 2, H = 3, N = 6;
const TOKENS = ['a', 'b', '</script><b>', 'a', 'b', 'c\u0007'];
const values = randomAttention(L, H, N);
const file = memoryAttention(values, L, H, N, TOKENS);
const scanned = scanModel(file);

function options(extra: Partial<ModelViewOptions> = {}): ModelViewOptions {
  return { theme: makeTheme('light'), width: 900, interactive: false, layer: 1, head: 2, token: 4, stat: 'entropy', sort: false, k: 2, ...extra };
}

function draw(view: ModelViewName, data: ModelViewData, extra: Partial<ModelViewOptions> = {}) {
  const dom = new JSDOM('<!doctype html><body><div id="root"></div></body>');
  const root = dom.window.document.getElementById('root') as unknown as HTMLElement;
  const handle = MODEL_VIEWS[view](root, data, options(extra));
  const text = xmlSafe(new dom.window.XMLSerializer().serializeToString(handle.svg));
  return { handle, svg: handle.svg, text };
}

function assertClean(text: string): void {
  assert.doesNotMatch(text, /NaN|Infinity|undefined/, 'no NaN, Infinity or undefined in the picture');
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, 'no XML-forbidden characters');
  assert.ok(!text.includes('</script><b>'), 'tokens are escaped text');
}

test('scanModel: statistics equal inspect\'s, thumbnails are the max of each block', () => {
  const inspected = inspectAttention(file).json;
  assert.deepEqual(scanned.header.stats, inspected.stats);
  assert.equal(scanned.header.thumb, N);
  assert.equal(scanned.header.offRows, 0);
  const head = headFloat32(file, 1, 2);
  assert.deepEqual(Array.from(scanned.thumbnails.subarray((1 * H + 2) * N * N, (1 * H + 3) * N * N)), Array.from(head));
  const pooled = new Float32Array(4);
  poolMax([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], 4, 2, pooled);
  assert.deepEqual(Array.from(pooled), [6, 8, 14, 16]);
  const r = rolloutOf(file)!;
  inspected.rollout!.flat().forEach((v, k) => assert.ok(Math.abs(r[k] - v) < 1e-6, `rollout ${k}: ${r[k]} vs ${v}`));
});

test('scores before the softmax: a warning, and the softmax applied on request', () => {
  const scores = new Float32Array([0, 2, 2, 3]);
  const a = memoryAttention(scores, 1, 1, 2);
  const plain = scanModel(a);
  assert.equal(plain.header.offRows, 2);
  assert.match(plain.header.warnings[0], /2 row\(s\) do not sum to 1.*softmax/);
  const fixed = scanModel(a, { softmax: true });
  assert.equal(fixed.header.offRows, 0);
  const expected = Float64Array.from([0, 2, 2, 3]);
  softmaxRows(expected, 2);
  assert.ok(Math.abs(expected[1] - 1 / (1 + Math.E ** -2)) < 1e-12 && Math.abs(expected[3] - 1 / (1 + Math.E ** -1)) < 1e-12);
  assert.deepEqual(Array.from(headFloat32(a, 0, 0, { softmax: true })), Array.from(Float32Array.from(expected)));
  assert.throws(() => scanModel(memoryAttention(new Float32Array([0.5, NaN, 0.5, 0.5]), 1, 1, 2)), /layer 0 head 0: the weight of query 0 on key 1 is NaN/);
});

test('palette PNG: a valid file whose pixels decode back to the indices (stored and deflated)', () => {
  const indices = Uint8Array.from({ length: 5 * 3 }, (_, k) => k * 17);
  const pal = Array.from({ length: 256 }, (_, k) => [k, 255 - k, 0] as [number, number, number]);
  for (const png of [encodePalettePng(5, 3, indices, pal), encodePalettePng(5, 3, indices, pal, (b) => new Uint8Array(deflateSync(b)))]) {
    assert.deepEqual(Array.from(png.subarray(0, 8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const idatAt = Buffer.from(png).indexOf('IDAT');
    const len = new DataView(png.buffer).getUint32(idatAt - 4);
    const raw = inflateSync(png.subarray(idatAt + 4, idatAt + 4 + len));
    for (let y = 0; y < 3; y++) assert.deepEqual(Array.from(raw.subarray(y * 6 + 1, y * 6 + 6)), Array.from(indices.subarray(y * 5, y * 5 + 5)));
  }
  const bytes = Uint8Array.from({ length: 100 }, (_, k) => (k * 37) & 255);
  assert.equal(base64(bytes), Buffer.from(bytes).toString('base64'));
  assert.deepEqual(Array.from(fromBase64(base64(bytes))), Array.from(bytes));
});

test('model grid: one thumbnail per head, framed by the statistic from the core, sorted on request', () => {
  const data = { header: scanned.header, thumbnails: scanned.thumbnails };
  const { svg, text } = draw('model', data);
  const cells = [...svg.querySelectorAll('g.head-cell')];
  assert.equal(cells.length, L * H);
  for (const c of cells) {
    const layer = Number(c.getAttribute('data-layer')), head = Number(c.getAttribute('data-head'));
    assert.equal(Number(c.getAttribute('data-stat')), scanned.header.stats[layer * H + head].entropy);
    assert.match(c.querySelector('title')!.textContent!, new RegExp(`layer ${layer + 1} head ${head + 1}\nentropy ${fmt(scanned.header.stats[layer * H + head].entropy).replace('.', '\\.')}`));
  }
  // Each cell shows its own head's thumbnail, max-pooled and scaled to its own strongest weight: the
  // part of its layer's picture its viewport shows, decoded, is the head's colour indices.
  const thumbs = gridThumbnails(svg);
  assert.equal(thumbs.length, L * H, 'every cell points at a picture of its SVG');
  assert.equal(svg.querySelectorAll('defs image').length, L, 'one picture a layer');
  for (const t of thumbs) {
    assert.match(t.href, /^data:image\/png;base64,iVBORw0KGgo/);
    const picture = decodePalettePng(t.href);
    assert.deepEqual([picture.width, picture.height], [H * N, N]);
    assert.deepEqual(t.viewBox, [t.head * N, 0, N, N]);
    const offset = (t.layer * H + t.head) * N * N;
    const expected = heatmapIndices(scanned.thumbnails, offset, N, N, N, maxOf(scanned.thumbnails, offset, offset + N * N));
    assert.deepEqual(Array.from(viewed(picture, t.viewBox)), Array.from(expected), `layer ${t.layer} head ${t.head}`);
  }
  assert.ok(new Set(thumbs.map((t) => t.href)).size === L, 'the layers\' pictures differ');
  assertClean(text);
  const sorted = [...draw('model', data, { sort: true, stat: 'confidence' }).svg.querySelectorAll('g.head-cell')];
  for (let layer = 0; layer < L; layer++) {
    const row = sorted.filter((c) => c.getAttribute('data-layer') === String(layer)).map((c) => Number(c.getAttribute('data-stat')));
    assert.deepEqual(row, [...row].sort((a, b) => b - a), `layer ${layer} sorted by confidence, highest first`);
  }
});

test('head view: every cell\'s hover gives the exact weight and both tokens; arcs keep k per token and say so', () => {
  const weights = headFloat32(file, 1, 2);
  const { svg, text, handle } = draw('head', { ...scanned, head: { layer: 1, head: 2, weights } });
  const cells = [...svg.querySelectorAll('rect.cell')];
  assert.equal(cells.length, N * N);
  const c = cells.find((e) => e.getAttribute('data-i') === '2' && e.getAttribute('data-j') === '4')!;
  assert.equal(c.querySelector('title')!.textContent, `query #3 "</script><b>" → key #5 "b"\nweight ${exactWeight(weights[2 * N + 4])}`);
  assert.equal(Math.fround(Number(exactWeight(weights[2 * N + 4]))), weights[2 * N + 4], 'the hover\'s number reads back as the same float32');
  assert.equal(svg.querySelectorAll('path.arc').length, N * 2);
  assert.ok(handle.notes.some((n) => n.includes(`the 2 strongest links of each token's ${N} (${N * 2} drawn, ${N * N - N * 2} weaker ones left out)`)), handle.notes.join(' | '));
  assertClean(text);
  const links = strongestLinks(weights, N, 2);
  for (let i = 0; i < N; i++) {
    const row = Array.from(weights.subarray(i * N, (i + 1) * N)).sort((a, b) => b - a);
    assert.deepEqual(links.filter(([q]) => q === i).map(([, , w]) => w).sort((a, b) => b - a), row.slice(0, 2));
  }
});

test('head view above 64 tokens: one bitmap, pooled above 1,024; above 96 tokens the arcs of the last 96 queries, said', () => {
  const n = 100;
  const big = memoryAttention(randomAttention(1, 1, n, 7), 1, 1, n);
  const s = scanModel(big);
  const { svg, handle, text } = draw('head', { ...s, head: { layer: 0, head: 0, weights: headFloat32(big, 0, 0) } });
  assert.equal(svg.querySelectorAll('rect.cell').length, 0);
  assert.equal(svg.querySelectorAll('image.heatmap').length, 1);
  assert.ok(handle.notes.some((x) => x.includes('arcs: the 2 strongest links of queries 5–100 (the last 96 of the 100 in view)')), handle.notes.join(' | '));
  assert.equal(s.header.thumb, 64);
  assertClean(text);
});

test('finder: every head, sorted by the chosen statistic, values as the core computed them', () => {
  const { svg, text } = draw('finder', scanned, { stat: 'sink' });
  const rows = [...svg.querySelectorAll('g.head-row')];
  assert.equal(rows.length, L * H);
  const expected = sortHeads(scanned.header.stats, 'sink');
  rows.forEach((r, k) => {
    assert.equal(Number(r.getAttribute('data-layer')), expected[k].layer);
    assert.equal(Number(r.getAttribute('data-head')), expected[k].head);
    for (const name of STAT_NAMES) {
      const v = expected[k][name];
      assert.equal(r.querySelector(`text.value[data-stat="${name}"]`)!.textContent, v === null ? '—' : fmt(v));
    }
  });
  for (let k = 1; k < expected.length; k++) assert.ok(expected[k - 1].sink >= expected[k].sink);
  assertClean(text);
});

test('rollout: bars are the chosen token\'s row of R, matching inspect\'s rollout', () => {
  const rollout = rolloutOf(file)!;
  const { svg, text, handle } = draw('rollout', { ...scanned, rollout }, { token: 4 });
  const inspected = inspectAttention(file).json.rollout!;
  const bars = [...svg.querySelectorAll('rect.bar')];
  assert.equal(bars.length, N);
  const rowMax = maxOf(rollout.subarray(4 * N, 5 * N));
  bars.forEach((b, j) => {
    assert.ok(Math.abs(Number(b.getAttribute('data-value')) - inspected[4][j]) < 1e-6);
    assert.ok(Math.abs(Number(b.getAttribute('height')) - 180 * rollout[4 * N + j] / rowMax) < 1e-6);
  });
  assert.ok(handle.notes.some((x) => x.startsWith('most from ')));
  assertClean(text);
  assert.match(draw('rollout', scanned).text, /rollout: computing/);
});

test('edge shapes: one token, no tokens, hostile token text: every view draws, nothing unsafe reaches the SVG', () => {
  const one = memoryAttention(new Float32Array([1]), 1, 1, 1, ['\u202eevil\u0000']);
  const s1 = scanModel(one);
  assert.equal(s1.header.stats[0].previousToken, null);
  const data1: ModelViewData = { ...s1, head: { layer: 0, head: 0, weights: headFloat32(one, 0, 0) }, rollout: rolloutOf(one)! };
  for (const view of ['model', 'head', 'head-tokens', 'finder', 'rollout'] as const) {
    const { text } = draw(view, data1, { layer: 0, head: 0, token: 0 });
    assertClean(text);
    assert.ok(!text.includes('\u202e'), 'a bidi override is written as a reference');
  }
  const bare = memoryAttention(randomAttention(1, 2, 3), 1, 2, 3);
  const s2 = scanModel(bare);
  assert.equal(s2.header.stats[0].induction, null, 'no tokens: no induction score');
  const { svg, text } = draw('head', { ...s2, head: { layer: 0, head: 1, weights: headFloat32(bare, 0, 1) } }, { layer: 0, head: 1 });
  assert.match(svg.querySelector('rect.cell title')!.textContent!, /query #1 → key #1\nweight .*\n\(no tokens in the file/);
  assertClean(text);
  const finder = draw('finder', s2, { stat: 'induction' });
  assert.equal(finder.svg.querySelectorAll('text.value[data-stat="induction"]')[0].textContent, '—');
});
