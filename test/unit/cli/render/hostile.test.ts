// Hostile but accepted specs drawn by every view: no NaN, Infinity or undefined in any attribute
// or text, no character XML forbids, and no stack overflow from spreading big arrays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../src/core/index.js';
import type { AttentionData } from '../../../../src/core/result/attention-data.js';
import { xmlSafe } from '../../../../webview/kit/xml-safe.js';
import { clip, textWidth } from '../../../../webview/kit/format.js';
import { defaultToken } from '../../../../webview/views/spec/selection.js';
import { VIEW_NAMES } from '../../../../src/core/vocabulary.js';

/** Every tab and the summary strip above them. */
const VIEWS = [...VIEW_NAMES, 'summary'] as const;

function json(spec: unknown): AttentionData {
  const a = analyze(JSON.stringify(spec), { linalg: true });
  assert.ok(a.data, JSON.stringify(a.problems.slice(0, 3)));
  return a.data;
}

/** Well-formed XML, and no number that is not one. */
function assertClean(svg: string, what: string): void {
  const dom = new JSDOM(svg, { contentType: 'image/svg+xml' });
  const wellFormed = dom.window.document.getElementsByTagName('parsererror').length === 0;
  dom.window.close();
  assert.ok(wellFormed, `${what}: not well-formed`);
  assert.doesNotMatch(svg, /="[^"]*(NaN|undefined|Infinity)[^"]*"/, `${what}: a bad number in an attribute`);
  assert.doesNotMatch(svg, />[^<]*\b(NaN|undefined)\b[^<]*</, `${what}: a bad number in a text`);
}

function renderAll(data: AttentionData, name: string, extra: Parameters<typeof renderSvg>[2] = {}): void {
  for (const view of VIEWS) {
    for (const head of [0, 'all'] as const) assertClean(renderSvg(data, view, { ...extra, head }), `${name} / ${view} / head ${head}`);
  }
}

test('all scores equal and huge: the matrix colours are colours, not "undefined"', () => {
  const data = json({ embeddings: { a: [1e150], b: [1e150] }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ wq: [[1]], wk: [[1]], wv: [[1]] }], scale: 'none' });
  for (const show of ['scores', 'scaled', 'weights'] as const) {
    const svg = renderSvg(data, 'matrix', { matrixMode: show });
    assert.doesNotMatch(svg, /fill="undefined"/);
    assertClean(svg, `matrix ${show}`);
  }
  renderAll(data, 'equal huge scores');
});

test('quadrant coordinates that overflow leave the point out and say so, instead of cx="NaN"', () => {
  // The direction is long and the embedding huge: their dot product overflows a double.
  const data = json({
    features: ['x', 'y'],
    embeddings: { a: [1e300, 1], b: [1, 1] },
    inputs: [{ tokens: ['a', 'b'] }],
    heads: [{ wq: [[0], [1]], wk: [[0], [1]], wv: [[1e-300, 0], [0, 1]] }],
    views: { quadrant: { x: { direction: [1e10, 0] }, y: { feature: 'y' } } },
  });
  const svg = renderSvg(data, 'quadrant');
  assertClean(svg, 'quadrant');
  assert.match(svg, /left out: their coordinates are too large to draw/);
});

test('principal components of huge embeddings: no "NaN%" in the axis titles', () => {
  const data = json({ embeddings: { a: [1e200, 0, 3], b: [-1e200, 2, 0], c: [5, 1e200, 1] }, inputs: [{ tokens: ['a', 'b', 'c'] }], heads: [{ wq: [[1e-200], [0], [0]], wk: [[1e-200], [0], [0]], wv: [[1e-200, 0, 0], [0, 1e-200, 0], [0, 0, 1]] }] });
  const svg = renderSvg(data, 'quadrant');
  assertClean(svg, 'pca quadrant');
  assert.doesNotMatch(svg, /NaN%/);
  assert.match(svg, /PC1 \(\d+% of the variance\)/);
});

test('a fully masked block of a long input: the hover says the mask hides it, not "NaN"', () => {
  const n = 80;
  const mask = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i >= 4 && j < 4 ? 0 : j <= i ? 1 : 0)));
  for (let j = 0; j < 4; j++) mask[j][j] = 1;
  const data = json({ embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ tokens: Array.from({ length: n }, (_, i) => (i % 2 ? 'a' : 'b')), mask }] });
  const svg = renderSvg(data, 'matrix', { width: 500 });
  assertClean(svg, 'masked blocks');
  assert.doesNotMatch(svg, /mean weights: NaN/);
});

test('control characters, ESC, U+FFFE and a lone surrogate in every string still give well-formed SVG', () => {
  const bad = 'w\u0001\u001b[31m\ufffe\ud800x';
  const data = json({ title: bad, features: [bad, 'f2'], embeddings: { [bad]: [1, 0], b: [0, 1] }, inputs: [{ name: bad, tokens: [bad, 'b', bad] }, { name: 'second', tokens: ['b', bad] }], heads: [{ name: bad }] });
  renderAll(data, 'control characters');
  const svg = renderSvg(data, 'arcs');
  assert.match(svg, /w␁␛\[31m\ufffd\ufffdx/);
});

test('xmlSafe: control pictures for C0, references for C1 and DEL, U+FFFD for the rest; tab and newline stay', () => {
  assert.equal(xmlSafe('a\u0000\u001b\t\n\u007f\u0085\ufffe\uffff\ud800\udc00\udc00'), 'a␀␛\t\n&#x7f;&#x85;\ufffd\ufffd\ud800\udc00\ufffd');
});

test('projection at d_model 768 and 100,000-point lists do not overflow the stack (no Math.max spread)', () => {
  const d = 768;
  const row = (k: number) => Array.from({ length: d }, (_, i) => (i === k ? 1 : 0));
  const data = json({ embeddings: { a: row(0), b: row(1) }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ wq: Array.from({ length: d }, (_, i) => [i % 3]), wk: Array.from({ length: d }, (_, i) => [i % 2]), wv: Array.from({ length: d }, (_, i) => [i % 5]) }] });
  for (const role of ['wq', 'wk', 'wv'] as const) assertClean(renderSvg(data, 'projection', { projection: role }), `projection ${role}`);
});

test('clip of a 100,000-character token costs a pass over what fits, not its length squared', () => {
  const token = 'x'.repeat(100_000);
  const out = clip(token, 90, 12);
  assert.ok(out.endsWith('…') && textWidth(out, 12) <= 90 + textWidth('x', 12));
  // 2,000 such clips finish: the old O(L²) loop took minutes for one.
  for (let k = 0; k < 2000; k++) clip(token, 90, 12);
});

test('clip of a 1 MB token costs what fits, not a measure of the whole token first (a head view of seven such tokens took 20 s)', { timeout: 20_000 }, async () => {
  const token = 'w'.repeat(1 << 20);
  assert.equal(clip(token, 90, 12), 'w'.repeat(Math.floor((90 - textWidth('…', 12)) / textWidth('w', 12))) + '…');
  assert.equal(clip('short', 90, 12), 'short', 'what fits is kept whole');
  assert.equal(clip('W', 1, 12), 'W…', 'at least one character');
  // 2,000 labels of it: a whole-token pass per label was about 35 ms each, over a minute in all
  // (the loop yields now and then, so the test's timeout can stop it).
  for (let k = 0; k < 2000; k++) {
    clip(token, 90, 12);
    if (k % 50 === 0) await new Promise((done) => setImmediate(done));
  }
});

test('compare\'s start token over 256 inputs of 2 tokens sharing one word is found without comparing every pair of inputs', () => {
  const inputs = Array.from({ length: 256 }, (_, i) => ({ tokens: ['w', i % 2 ? 'a' : 'b'] }));
  const data = json({ embeddings: { w: [1, 0], a: [0, 1], b: [0, -1] }, inputs, mask: 'none' });
  const pick = defaultToken(data, 'compare', 0);
  assert.equal(data.inputs[pick.input].tokens[pick.token], 'w');
  assert.ok(pick.input < 8, 'only the first inputs holding a word are paired');
});

test('embeddings 1e-300 apart: the quadrant draws (d3 cannot make ticks for such a span) instead of throwing', () => {
  const data = json({ features: ['x', 'y'], embeddings: { a: [1e-300, 0], b: [0, 1e-300] }, inputs: [{ tokens: ['a', 'b'] }] });
  assertClean(renderSvg(data, 'quadrant'), 'tiny quadrant');
});
