// `attn render` (renderSvg): the panel's view code on jsdom, as standalone, escaped SVG; a view whose
// SVG grows with the inputs times the features is refused from its shapes before jsdom builds it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { renderSvg, viewOverBudget } from '../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../src/core/index.js';
import type { AttentionData } from '../../../../src/core/result/attention-data.js';
import { EXAMPLES, exampleFiles, exampleText, analyzeOk } from '../../../support/specs.js';
import { COMPARE, compareElements } from '../../../../src/core/budget.js';
import { VIEW_NAMES } from '../../../../src/core/vocabulary.js';
import { dirname, join } from 'node:path';
import { NORMS_NEED_WO } from '../../../../webview/views/spec/matrix.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { attn, tempSpec } from '../../../support/cli.js';

const VIEWS = ['arcs', 'matrix', 'steps', 'quadrant', 'projection', 'compare', 'summary'] as const;

function example(name: string): AttentionData {
  const a = analyze(exampleText(name));
  assert.ok(a.data, `${name} has a result`);
  return a.data;
}

/** Parses the SVG as XML (so it must be well-formed) and returns its document. */
function parse(svg: string): Document {
  const dom = new JSDOM(svg, { contentType: 'image/svg+xml' });
  const doc = dom.window.document;
  assert.equal(doc.documentElement.localName, 'svg');
  assert.equal(doc.getElementsByTagName('parsererror').length, 0);
  return doc;
}

const titles = (doc: Document) => Array.from(doc.getElementsByTagName('title'), (t) => t.textContent ?? '');

test('every view renders every example as a standalone, well-formed SVG', () => {
  for (const file of exampleFiles()) {
    const json = analyze(readFileSync(file, 'utf8')).data!;
    for (const view of VIEWS) {
      const svg = renderSvg(json, view, { head: view === 'matrix' || view === 'arcs' ? 'all' : 0 });
      const doc = parse(svg);
      const root = doc.documentElement;
      assert.equal(root.getAttribute('xmlns'), 'http://www.w3.org/2000/svg');
      assert.ok(Number(root.getAttribute('width')) > 0 && Number(root.getAttribute('height')) > 0);
      assert.ok(root.getAttribute('font-family'), 'font inline');
      assert.ok(!svg.includes('var(--'), `${file} ${view}: no CSS variables left`);
      assert.ok(!/<script|<foreignObject|javascript:/i.test(svg), `${file} ${view}: nothing active`);
      assert.ok(doc.getElementsByTagName('text').length > 3, `${file} ${view}: has text`);
    }
  }
});

test('matrix: head "tech lens" has the watch → apple cell with 10·10 + 6·6 = 136', () => {
  const json = example('apple-watch-lens.attn.json');
  const head = json.inputs[0].heads.findIndex((h) => h.name === 'tech lens');
  const doc = parse(renderSvg(json, 'matrix', { head, matrixMode: 'scores' }));
  const cell = doc.querySelector(`rect.cell[data-query="3"][data-key="2"][data-head="${head}"]`);
  assert.ok(cell, 'cell element with data-query, data-key, data-head');
  const text = cell.querySelector('title')?.textContent ?? '';
  assert.match(text, /q_watch · k_apple = 10·10 \+ 6·6 = 136/);
  assert.match(text, /scaled: 136 ÷ 1/);
  // And watch → watch is 64 (the seed's 136 vs 64).
  const self = doc.querySelector(`rect.cell[data-query="3"][data-key="3"][data-head="${head}"] title`)?.textContent ?? '';
  assert.match(self, /= 64/);
  assert.equal(doc.querySelectorAll('rect.cell').length, 16);
  // The legend and the mode are written on the picture.
  assert.ok(Array.from(doc.querySelectorAll('text'), (t) => t.textContent).some((t) => t?.includes('raw scores')));
});

test('matrix: masked cells are hatched, labelled and listed in the legend', () => {
  const json = example('multi-head-causal.attn.json');
  const doc = parse(renderSvg(json, 'matrix', { head: 'all' }));
  const masked = doc.querySelectorAll('rect.cell.masked');
  // 5 tokens, causal: 10 masked pairs per head, 2 heads.
  assert.equal(masked.length, 20);
  assert.match(masked[0].getAttribute('fill') ?? '', /^url\(#/);
  assert.match(masked[0].querySelector('title')?.textContent ?? '', /masked/);
  assert.ok(svgText(doc).includes('masked (weight 0)'));
});

function svgText(doc: Document): string {
  return Array.from(doc.querySelectorAll('text'), (t) => t.textContent ?? '').join('\n');
}

test('a token written as markup stays text, escaped, in every view', () => {
  const { data: json } = analyzeOk({
    title: '<script>alert(1)</script>',
    features: ['<b>f</b>', 'g'],
    embeddings: { '<img src=x onerror=alert(1)>': [1, 0], b: [0, 1] },
    inputs: [{ name: '<i>x</i>', tokens: ['<img src=x onerror=alert(1)>', 'b'] }, { name: 'two', tokens: ['b', '<img src=x onerror=alert(1)>'] }],
  });
  for (const view of VIEWS) {
    const svg = renderSvg(json, view, { token: 0 });
    assert.ok(!svg.includes('<img'), `${view}: no <img element`);
    assert.ok(!svg.includes('<script'), `${view}: no <script element`);
    const doc = parse(svg);
    assert.equal(doc.getElementsByTagName('img').length, 0);
    if (view !== 'summary') assert.ok(svg.includes('&lt;img src=x onerror=alert(1)&gt;'), `${view}: the token appears as text`);
  }
});

test('arcs: hover text of an arc names the pair, the weight and the score', () => {
  const json = example('apple-watch-lens.attn.json');
  const doc = parse(renderSvg(json, 'arcs', { head: 1 }));
  const arc = doc.querySelector('path.arc[data-query="3"][data-key="2"]');
  assert.ok(arc);
  assert.match(arc.querySelector('title')?.textContent ?? '', /^watch → apple: weight 1, score 136, scaled 136/);
  assert.equal(doc.querySelectorAll('g.token').length, 4);
});

test('arcs: with many tokens, only the strongest links, and the view says so', () => {
  const tokens = Array.from({ length: 60 }, (_, i) => `t${i}`);
  const embeddings = Object.fromEntries(tokens.map((t, i) => [t, [Math.sin(i), Math.cos(i)]]));
  const { data: json } = analyzeOk({ embeddings, inputs: [{ name: 'long', tokens }], scale: 'none' });
  const doc = parse(renderSvg(json, 'arcs', {}));
  assert.ok(doc.querySelectorAll('path.arc').length <= 60 * 3);
  assert.match(svgText(doc), /60 tokens: showing the 3 strongest links/);
});

test('steps: q, each k, q·k, scaling, softmax and the sum, every number with its origin', () => {
  const json = example('apple-watch-lens.attn.json');
  const doc = parse(renderSvg(json, 'steps', { head: 1, token: 3 }));
  const all = titles(doc).join('\n');
  assert.match(all, /q_watch · k_apple = 10·10 \+ 6·6 = 136/);
  assert.match(all, /q_watch · k_watch = 10·4 \+ 6·4 = 64/);
  assert.match(all, /q_watch\[0\] = e_watch · W_Q column 0 = 1·4 \+ 3·2 \+ 0·0 = 10/);
  assert.match(all, /weight = /);
  assert.match(svgText(doc), /new watch = Σ weight × v =/);
});

test('steps: masked keys are said to be masked', () => {
  const json = example('multi-head-causal.attn.json');
  const doc = parse(renderSvg(json, 'steps', { head: 0, token: 1 }));
  assert.match(svgText(doc), /masked: "cat" may not look at "chased"/);
});

test('projection: x · W = y as grids, the output cell written out term by term', () => {
  const { data: json } = analyzeOk({
    features: ['is_tech', 'is_watch', 'is_fruit'],
    embeddings: { apple: [2, 0, 2], watch: [1, 3, 0] },
    inputs: [{ name: 'a', tokens: ['apple', 'watch'] }],
    heads: [{ name: 'lens', wq: [[4, 3], [2, 1], [0, 1]], wk: [[1, 1], [1, 1], [4, 2]] }],
    scale: 'none',
  });
  const doc = parse(renderSvg(json, 'projection', { head: 0, token: 0, projection: 'wq' }));
  const all = titles(doc).join('\n');
  assert.match(all, /2·4 \+ 0·2 \+ 2·0 = 8/);
  assert.match(all, /2·3 \+ 0·1 \+ 2·1 = 8/);
  assert.match(svgText(doc), /e_apple \(1×3\) · W_Q \(3×2\) = q_apple \(1×2\)/);
  assert.equal(doc.querySelectorAll('rect.w-cell').length, 6);
  assert.equal(doc.querySelectorAll('rect.y-cell').length, 2);
  assert.ok(svgText(doc).includes('is_watch'), 'rows labelled with the features');
});

test('projection: a 512 × 64 matrix is drawn compressed, its shape written', () => {
  const d = 512;
  const features = Array.from({ length: d }, (_, i) => `f${i}`);
  const row = (i: number) => Array.from({ length: d }, (_, j) => ((i + j) % 5) / 5);
  const wq = Array.from({ length: d }, (_, i) => Array.from({ length: 64 }, (_, j) => ((i * 7 + j) % 11) / 11 - 0.5));
  const { data: json } = analyzeOk({ features, embeddings: { a: row(0), b: row(1) }, inputs: [{ name: 'x', tokens: ['a', 'b'] }], heads: [{ name: 'h', wq, wk: wq, wv: wq }] });
  const doc = parse(renderSvg(json, 'projection', { token: 0 }));
  assert.match(svgText(doc), /\(1×512\) · W_Q \(512×64\) = q_a \(1×64\)/);
  assert.match(svgText(doc), /512 rows shown as 64 bands of 8/);
  assert.equal(doc.querySelectorAll('rect.w-cell').length, 64 * 64);
});

test('quadrant: named axes and quadrants; without axes, principal components, said on the plot', () => {
  const mouse = example('mouse-two-contexts.attn.json');
  const doc = parse(renderSvg(mouse, 'quadrant', {}));
  const text = svgText(doc);
  for (const q of ['ambiguous', 'animals', 'neither', 'devices']) assert.ok(text.includes(q), q);
  assert.equal(doc.querySelectorAll('circle.point.input').length, 8);
  assert.equal(doc.querySelectorAll('circle.point.output').length, 8);
  assert.ok(titles(doc).some((t) => /mouse: input embedding/.test(t) && /animal 2, tech 2/.test(t)));

  const noAxes = example('multi-head-causal.attn.json');
  const doc2 = parse(renderSvg(noAxes, 'quadrant', {}));
  assert.match(svgText(doc2), /first two principal components/);
});

test('compare: the same word in two sentences, side by side', () => {
  const json = example('mouse-two-contexts.attn.json');
  const svg = renderSvg(json, 'compare', {});
  const doc = parse(svg);
  assert.match(svgText(doc), /"mouse" in 2 contexts/);
  assert.equal(doc.querySelectorAll('g.panel').length, 2);
  assert.equal(doc.querySelectorAll('text.same-word').length, 2);
});

test('summary: shapes per head (never "3/2") and learnable numbers; the full-size figure sits under the projection', () => {
  const json = example('apple-watch-lens.attn.json');
  const text = svgText(parse(renderSvg(json, 'summary', {})));
  assert.doesNotMatch(text, /3,145,728|\d\/\d/);
  assert.match(text, /d_model 3/);
  assert.match(text, /d_k per head 3, 2/);
  assert.match(text, /learnable numbers 18/);
  const projection = svgText(parse(renderSvg(json, 'projection', { head: 1, projection: 'wq', width: 1200 })));
  assert.match(projection, /Full size: W_Q is 512×64 per head × 8 heads × 6 layers × 2 \(encoder, decoder\) = 3,145,728 numbers; here: 6\./);
  const raw = svgText(parse(renderSvg(json, 'projection', { head: 0, projection: 'wq', width: 1200 })));
  assert.match(raw, /here: the identity, nothing learnt/);
});

test('large inputs: the static matrix is drawn in blocks, and says so', () => {
  const tokens = Array.from({ length: 300 }, (_, i) => `w${i}`);
  const embeddings = Object.fromEntries(tokens.map((t, i) => [t, [Math.sin(i), Math.cos(i), 1]]));
  const { data: json } = analyzeOk({ embeddings, inputs: [{ name: 'long', tokens }], mask: 'causal' });
  const doc = parse(renderSvg(json, 'matrix', { head: 0 }));
  assert.match(svgText(doc), /each cell is a block of 4×4 token pairs/);
  assert.equal(doc.querySelectorAll('rect.cell').length, 75 * 75);
});

test('dark and high-contrast themes draw with their own colours', () => {
  const json = example('apple-watch-lens.attn.json');
  const light = renderSvg(json, 'matrix', { theme: 'light' });
  const dark = renderSvg(json, 'matrix', { theme: 'dark' });
  const hc = renderSvg(json, 'matrix', { theme: 'hc-dark' });
  assert.match(light, /class="bg"[^>]*fill="#ffffff"/);
  assert.match(dark, /class="bg"[^>]*fill="#1e1e1e"/);
  assert.match(hc, /class="bg"[^>]*fill="#000000"/);
});

test('attn render draws the spec views through the one view registry and refuses a model view\'s name', () => {
  const json = example('apple-watch-lens.attn.json');
  assert.throws(() => renderSvg(json, 'model' as never), /unknown view "model"/);
  assert.throws(() => renderSvg(json, 'nope' as never), /unknown view "nope"/);
  assert.match(renderSvg(json, 'arcs'), /data-view="arcs"/);
});

/** A spec of `inputs` inputs of "cat dog" at d_model `features`, with one head of width 1 (thin heads keep the reader's limits far away). */
function wideSpec(features: number, inputs: number): string {
  const thin = (seed: number) => ({ init: 'xavier', shape: [features, 1], seed });
  return JSON.stringify({
    features: Array.from({ length: features }, (_, i) => `f${i}`),
    embeddings: { cat: Array.from({ length: features }, (_, i) => (i % 5) - 2), dog: Array.from({ length: features }, (_, i) => (i % 3) - 1) },
    inputs: Array.from({ length: inputs }, (_, i) => ({ name: `in${i}`, tokens: ['cat', 'dog'] })),
    heads: [{ name: 'h', wq: thin(1), wk: thin(2), wv: thin(3) }],
  });
}

test('every example draws every view within the budgets', () => {
  for (const file of exampleFiles()) {
    const a = analyze(readFileSync(file, 'utf8'), { files: folderFiles(dirname(file)) });
    assert.ok(a.data, file);
    for (const view of VIEW_NAMES) assert.equal(viewOverBudget(a.data, view), undefined, `${file} ${view}`);
  }
});

test('compare counts the panels of the inputs holding the word, their tokens and the features', () => {
  const a = analyzeOk(JSON.parse(wideSpec(600, 256)));
  const why = viewOverBudget(a.data, 'compare');
  assert.match(why ?? '', /^the compare view of 256 input\(s\) × 600 feature\(s\) needs 617,984 SVG elements, over the budget of 24,000: /);
  assert.equal(compareElements(256, 2, 600), 617_984);
  assert.equal(viewOverBudget(a.data, 'matrix'), undefined, 'views that do not grow with the features are not refused');
  const fits = analyzeOk(JSON.parse(wideSpec(100, 8)));
  assert.ok(compareElements(8, 2, 100) <= COMPARE.max);
  assert.equal(viewOverBudget(fits.data, 'compare'), undefined);
});

test('attn render --view compare of 150,000 features or 256 inputs × 600 features: one line, exit 1, no SVG', async () => {
  for (const [features, inputs] of [[150_000, 1], [600, 256]]) {
    const file = tempSpec(wideSpec(features, inputs));
    const started = Date.now();
    const r = await attn('render', file, '--view', 'compare');
    assert.equal(r.code, 1, r.err);
    assert.equal(r.out, '');
    assert.match(r.err, /^attn render: the compare view of \d+ input\(s\) × [\d,]+ feature\(s\) needs [\d,]+ SVG elements, over the budget/);
    assert.equal(r.err.split('\n').length, 1);
    assert.ok(Date.now() - started < 15_000, `${features} × ${inputs} took ${Date.now() - started} ms`);
  }
});

test('attn render --view matrix --show norms: the value-weighted matrix with W_O, the one line that it needs W_O without', async () => {
  const r = await attn('render', join(EXAMPLES, 'multi-head-causal.attn.json'), '--view', 'matrix', '--show', 'norms');
  assert.equal(r.code, 0, r.err);
  const doc = new JSDOM(r.out, { contentType: 'image/svg+xml' }).window.document;
  assert.ok(doc.querySelectorAll('rect.cell').length > 0);
  assert.match(doc.querySelector('g.legend')!.textContent!, /value-weighted: weight × ‖v W_O‖/);
  const plain = await attn('render', join(EXAMPLES, 'apple-watch-lens.attn.json'), '--view', 'matrix', '--show', 'norms');
  assert.equal(plain.code, 0, plain.err);
  assert.equal(new JSDOM(plain.out, { contentType: 'image/svg+xml' }).window.document.querySelector('text.message')!.textContent, NORMS_NEED_WO);
  const bad = await attn('render', join(EXAMPLES, 'apple-watch-lens.attn.json'), '--view', 'matrix', '--show', 'norm');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /norms/);
});
