// The matrix view's value-weighted mode (webview/views/spec/matrix.ts, matrix-scale.ts,
// matrix-text.ts): cells coloured by α_ij · ‖v_j W_O^h‖ on their own scale (0 to the largest norm),
// the hover writing the product out, a spec without W_O saying so in one line, a repeated word, and
// the largest attention the spec's limits allow, in the panel (canvas) and in attn render.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM, VirtualConsole } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { leanData } from '../../../../../src/core/result/derived.js';
import { MAX_CELLS } from '../../../../../src/core/spec/read/limits.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { cellLines, levelsOf, MODE_LABEL, NORMS_NEED_WO, renderMatrix, value } from '../../../../../webview/views/spec/matrix.js';
import { normsLine } from '../../../../../webview/views/spec/matrix-text.js';
import { domainOf, legendEnds } from '../../../../../webview/views/spec/matrix-scale.js';
import { analyzeOk, exampleText } from '../../../../support/specs.js';

const parse = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
const causal = analyze(exampleText('multi-head-causal.attn.json')).data!;

test('a cell\'s value in norms mode is its weight times its key\'s ‖v W_O‖, and the hover writes the product out', () => {
  const input = causal.inputs[0];
  const n = input.tokens.length;
  for (const [h, head] of input.heads.entries()) {
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) {
      assert.equal(value(head, 'norms', i, j), head.weights.data[i * n + j] * head.valueNorms!.data[j]);
      const lines = cellLines(causal, input, h, i, j);
      assert.equal(lines.at(-1), normsLine(head, i, j), 'the last line of the hover');
      const m = /^value-weighted: α ([\d.<>]+) × ‖v W_O‖ ([\d.e+-]+) = ([\d.e+-]+)$/.exec(lines.at(-1)!);
      assert.ok(m, lines.at(-1));
      // Each number as written, within its rounding: α to 4 decimals, the others to 3.
      assert.ok(Math.abs(Number(m[3]) - head.norms!.data[i * n + j]) <= 5e-4 * Math.max(1, head.norms!.data[i * n + j]), lines.at(-1));
      assert.ok(Math.abs(Number(m[2]) - head.valueNorms!.data[j]) <= 5e-4 * Math.max(1, head.valueNorms!.data[j]));
    }
    // A masked key (j > i) has no value in any mode; its hover says it is masked and writes no product.
    assert.equal(value(head, 'norms', 0, 1), null);
    assert.ok(!cellLines(causal, input, h, 0, 1).some((l) => l.startsWith('value-weighted')));
  }
});

test('the norms have their own scale: from 0 to the largest α · ‖v W_O‖ (not the weights\' top), its legend saying so', () => {
  const heads = causal.inputs[0].heads;
  const dom = domainOf(heads, 'norms');
  let top = 0;
  for (const h of heads) for (const v of h.norms!.data) top = Math.max(top, v);
  assert.deepEqual(dom, { lo: 0, hi: top });
  assert.notEqual(dom.hi, domainOf(heads, 'weights').hi);
  assert.deepEqual(legendEnds(dom, 'norms'), ['0', String(Number(top.toFixed(2)))]);
  const doc = parse(renderSvg(causal, 'matrix', { width: 900, head: 'all', matrixMode: 'norms' }));
  assert.match(doc.querySelector('g.legend')!.textContent!, new RegExp(`^${MODE_LABEL.norms.replace(/[()]/g, '\\$&')}0${top.toFixed(2)}`));
  assert.match(doc.querySelector('text.title, text')!.textContent!, /value-weighted/);
  // The cell with the largest norm takes the top colour; a cell of norm 0 (a masked key aside) the bottom.
  const theme = makeTheme('light');
  const cells = Array.from(doc.querySelectorAll('rect.cell:not(.masked)'));
  const fills = new Set(cells.map((c) => c.getAttribute('fill')));
  assert.ok(fills.has(theme.seq(1)), 'the largest norm is the darkest cell');
  assert.ok(cells.every((c) => !/NaN|undefined/.test(c.getAttribute('fill')!)));
});

test('a spec without W_O says in one line that the norms need W_O, in the panel and in attn render, never a blank', () => {
  const plain = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  for (const head of plain.inputs[0].heads) {
    assert.equal(value(head, 'norms', 1, 0), null);
    assert.equal(normsLine(head, 1, 0), undefined);
    assert.ok(Array.from(levelsOf(head, 'norms', 4, { lo: 0, hi: 1 })).every((l) => l === -1));
  }
  const doc = parse(renderSvg(plain, 'matrix', { width: 900, head: 'all', matrixMode: 'norms' }));
  const message = doc.querySelector('text.message')!;
  assert.equal(message.textContent, NORMS_NEED_WO);
  assert.equal(message.querySelectorAll('tspan').length, 0, 'one line at 900 px');
  assert.equal(doc.querySelectorAll('rect.cell').length, 0);
  // The panel's view (interactive) says the same.
  const dom = new JSDOM('<!doctype html><div id="root"></div>', { virtualConsole: new VirtualConsole() });
  const root = dom.window.document.getElementById('root') as unknown as HTMLElement;
  const view = renderMatrix(root, plain, { theme: makeTheme('dark'), width: 700, head: 0, input: 0, token: 0, matrixMode: 'norms', projection: 'wq', interactive: true });
  assert.deepEqual(view.notes, [NORMS_NEED_WO]);
  view.destroy();
});

test('a repeated word ("the cat saw the dog"): both "the" keys write the same ‖v W_O‖, each with its own α, labelled by position', () => {
  const { data } = analyzeOk({
    embeddings: { the: [1, 0, 0.5], cat: [0, 1, 0], saw: [0.5, 0.5, 1], dog: [0, 1, 1] },
    inputs: [{ name: 'repeat', tokens: ['the', 'cat', 'saw', 'the', 'dog'] }],
    heads: [{ name: 'h', wq: [[1, 0], [0, 1], [1, 1]], wk: [[0, 1], [1, 0], [1, 1]], wv: [[2, 0], [0, 1], [1, 1]] }],
    wo: [[1, 0, 2], [0, 3, 1]],
  });
  const head = data.inputs[0].heads[0];
  assert.equal(head.valueNorms!.data[0], head.valueNorms!.data[3], 'the same word, the same value');
  assert.notEqual(value(head, 'norms', 4, 0), value(head, 'norms', 2, 0), 'but each query its own α');
  const doc = parse(renderSvg(data, 'matrix', { width: 700, head: 0, matrixMode: 'norms' }));
  const own = (t: Element) => Array.from(t.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
  const labels = Array.from(doc.querySelectorAll('text.col-label'), own);
  assert.deepEqual(labels, ['1. the', '2. cat', '3. saw', '4. the', '5. dog']);
  assert.equal(doc.querySelectorAll('rect.cell').length, 25);
  const title = Array.from(doc.querySelectorAll('rect.cell'), (c) => c.querySelector('title')?.textContent ?? '').find((t) => t.startsWith('dog → the (query 5, key 4)'));
  assert.match(title!, /value-weighted: α [\d.]+ × ‖v W_O‖ [\d.]+ = [\d.]+$/);
});

test('the largest attention the limits allow (one head of 2,048 tokens with W_O) draws in norms mode, as blocks and on the canvas, with no NaN', () => {
  const n = Math.sqrt(MAX_CELLS);
  assert.equal(n, 2048);
  const words = Array.from({ length: n }, (_, i) => `w${i}`);
  const embeddings = Object.fromEntries(words.map((w, i) => [w, [Math.sin(i), Math.cos(i * 0.3), (i % 7) / 7, 1]]));
  const w = { init: 'lecun', shape: [4, 4], seed: 1 };
  // Computed as the panel computes it (attn compute --json would pass its print budget here).
  const a = analyze(JSON.stringify({ embeddings, inputs: [{ tokens: words }], heads: [{ wq: w, wk: { ...w, seed: 2 }, wv: { ...w, seed: 3 } }], wo: { ...w, seed: 4 }, mask: 'causal' }));
  assert.deepEqual(a.problems, []);
  const data = a.data!;
  const head = data.inputs[0].heads[0];
  const dom = domainOf([head], 'norms');
  assert.ok(dom.hi > 0 && Number.isFinite(dom.hi) && dom.lo === 0);
  const levels = levelsOf(head, 'norms', n, dom);
  assert.equal(levels[0 * n + 1], -1, 'masked');
  assert.ok(levels.every((l) => l >= -1 && l <= 255));
  const doc = parse(renderSvg(data, 'matrix', { width: 900, head: 0, matrixMode: 'norms' }));
  assert.match(doc.documentElement.textContent!, /2048 tokens: each cell is a block of 23×23 token pairs/);
  assert.ok(Array.from(doc.querySelectorAll('rect.cell'), (c) => c.getAttribute('fill')!).every((f) => !/NaN|undefined/.test(f)));
  const page = new JSDOM('<!doctype html><div id="root"></div>', { virtualConsole: new VirtualConsole() });
  const root = page.window.document.getElementById('root') as unknown as HTMLElement;
  const view = renderMatrix(root, data, { theme: makeTheme('light'), width: 900, head: 0, input: 0, token: 0, matrixMode: 'norms', projection: 'wq', interactive: true });
  assert.equal(view.canvases?.length, 1, 'painted on a canvas');
  view.destroy();
});

test('showing one head of a decoded model makes that head\'s n × n norms, not every head\'s', () => {
  const back = leanData(causal);
  const page = new JSDOM('<!doctype html><div id="root"></div>', { virtualConsole: new VirtualConsole() });
  const root = page.window.document.getElementById('root') as unknown as HTMLElement;
  const made: number[] = [];
  const heads = back.inputs[0].heads.map((h, k) => {
    // The same head, its norms counted when read (a head of its own over the decoded one).
    return Object.defineProperty(Object.create(h) as typeof h, 'norms', { get() { made.push(k); return h.norms; } });
  });
  const data = { ...back, inputs: [{ ...back.inputs[0], heads }] };
  renderMatrix(root, data, { theme: makeTheme('light'), width: 700, head: 1, input: 0, token: 0, matrixMode: 'norms', projection: 'wq', interactive: true }).destroy();
  assert.ok(made.length > 0 && made.every((k) => k === 1), `norms read of heads ${made.join(', ')}`);
});
