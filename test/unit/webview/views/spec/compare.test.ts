// Compare and Quadrant draw what was chosen: the chosen occurrence of a repeated word, and the
// chosen head (never another head's numbers under its name).
import { row as rowOf } from '../../../../../src/core/result/attention-data.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import type { AttentionData } from '../../../../../src/core/result/attention-data.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { exampleText } from '../../../../support/specs.js';
import { nthOccurrence, occurrenceRank } from '../../../../../webview/views/spec/compare.js';

/** The weight each bar of one compare panel reports, by key token. */
function barWeights(svg: string, input: number): Map<number, [number, number]> {
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const out = new Map<number, [number, number]>();
  for (const bar of Array.from(doc.querySelectorAll(`rect.bar[data-input="${input}"]`))) {
    // "<0.0001" and ">0.9999" say a range, a number ±half a unit of its last digit.
    const m = /weight ([<>]?)([\d.e-]+)/.exec(bar.querySelector('title')?.textContent ?? '');
    assert.ok(m, 'every bar says its weight');
    const bound = Number(m[2]);
    out.set(Number(bar.getAttribute('data-token')), m[1] === '<' ? [0, bound] : m[1] === '>' ? [bound, 1] : [bound - 5e-5, bound + 5e-5]);
  }
  return out;
}

function assertRow(svg: string, data: AttentionData, input: number, head: number, query: number): void {
  const bars = barWeights(svg, input);
  const row = Array.from(rowOf(data.inputs[input].heads[head].weights, query));
  assert.equal(bars.size, row.length);
  row.forEach((w, j) => assert.ok(w >= bars.get(j)![0] && w <= bars.get(j)![1], `key ${j}: bar ${bars.get(j)} vs weight ${w}`));
}

test('"the cat saw the dog" (causal): the second "the" shows its own row, not the first "the" (weight 1)', () => {
  const data = analyze(JSON.stringify({ embeddings: { the: [1, 0], cat: [0, 1], saw: [1, 1], dog: [0.5, 1] }, inputs: [{ tokens: ['the', 'cat', 'saw', 'the', 'dog'] }], mask: 'causal' })).data!;
  const svg = renderSvg(data, 'compare', { input: 0, token: 3 });
  assertRow(svg, data, 0, 0, 3);
  assert.notEqual(barWeights(svg, 0).get(0), 1);
  assert.match(svg, /token 4, "the" no\. 2/);
});

test('the 64-token example: "64. runs" in Compare agrees with attn compute\'s row 64', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  const input = data.inputs[0];
  const last = input.tokens.length - 1;
  for (const head of [0, 3]) assertRow(renderSvg(data, 'compare', { input: 0, token: last, head }), data, 0, head, last);
});

test('with head "tech lens" chosen, Quadrant and Compare never show head "raw"', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const tech = data.inputs[0].heads.findIndex((h) => h.name === 'tech lens');
  assert.ok(tech > 0);
  for (const view of ['quadrant', 'compare'] as const) {
    const svg = renderSvg(data, view, { head: tech, input: 0, token: 3 });
    assert.doesNotMatch(svg, /after head "raw"/, view);
    assert.match(svg, /head "tech lens" gives 2 numbers per token \(d_v\), not d_model = 3/, view);
  }
  // Compare's bars are the tech lens's weights: watch → apple is the seed's lens, not raw's.
  assertRow(renderSvg(data, 'compare', { head: tech, input: 0, token: 3 }), data, 0, tech, 3);
});

test('occurrence ranks pair the n-th "the" with the n-th "the", else the first', () => {
  const tokens = ['the', 'cat', 'the', 'the'];
  assert.deepEqual(tokens.map((_, i) => occurrenceRank(tokens, i)), [0, 0, 1, 2]);
  assert.equal(nthOccurrence(tokens, 'the', 1), 2);
  assert.equal(nthOccurrence(['a', 'the'], 'the', 2), 1);
  assert.equal(nthOccurrence(['a'], 'the', 0), -1);
});

// The widths test found the key over the feature bars ('"mouse" before (outline) and after attention
// (heads joined, then W_O) (filled)') on one line past a 430 px panel's edge. It wraps in its panel.
test('compare at 406 px: the key over the feature bars wraps within its panel, and says all of it', () => {
  const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
  const doc = new JSDOM(renderSvg(data, 'compare', { width: 406, head: 'all' }), { contentType: 'image/svg+xml' }).window.document;
  const svgW = Number(doc.documentElement.getAttribute('width'));
  const fontSize = Number(doc.documentElement.getAttribute('font-size')) - 1;
  const keys = Array.from(doc.querySelectorAll('text.feature-key'));
  assert.ok(keys.length > 0);
  for (const key of keys) {
    const lines = Array.from(key.querySelectorAll('tspan'), (s) => s.textContent!);
    assert.ok(lines.length > 1, 'the key takes more than one line');
    assert.match(lines.join(' '), /before \(outline\) and after attention.*\(filled\)$/);
    const panel = key.closest('g.panel')!;
    const ox = Number(/translate\(([^,]+),/.exec(panel.getAttribute('transform')!)![1]);
    for (const line of lines) assert.ok(ox + 12 + textWidth(line, fontSize) <= svgW, `"${line}" fits the picture`);
  }
});

test('mouse next to cat: the feature values read 2→2.20 and 2→1.41, the digits the description gives', () => {
  const text = exampleText('mouse-two-contexts.attn.json');
  const description = String((JSON.parse(text) as { description: string }).description);
  assert.match(description, /2\.20 against 1\.41/);
  const data = analyze(text).data!;
  const doc = new JSDOM(renderSvg(data, 'compare', { width: 700, head: 'all', token: 2 }), { contentType: 'image/svg+xml' }).window.document;
  const values = Array.from(doc.querySelectorAll('g.panel[data-input="0"] text.feature-values'), (t) => t.textContent);
  assert.deepEqual(values.slice(0, 2), ['2→2.20', '2→1.41']);
  // Every value: an integer, ≈0, or two decimals (never 2.2 beside 1.41).
  for (const v of Array.from(doc.querySelectorAll('text.feature-values'), (t) => t.textContent!)) {
    for (const part of v.split('→')) assert.match(part, /^(-?\d+|≈0|-?\d+\.\d\d)$/, v);
  }
});

test('a spec too wide for compare is said in the panel from its shapes, before a panel is drawn', () => {
  // 3 inputs holding "x" × 3,000 features is about 36,000 elements, over the view's budget; the same
  // spec at 30 features draws. The panel calls the view directly, without the command line's check.
  const wide = (d: number) => analyze(JSON.stringify({
    embeddings: { x: Array.from({ length: d }, (_, i) => (i % 7) / 7), y: Array.from({ length: d }, (_, i) => (i % 5) / 5) },
    inputs: [{ tokens: ['x', 'y'] }, { tokens: ['y', 'x'] }, { tokens: ['x', 'x'] }],
    heads: [{ name: 'thin', wq: thin(d), wk: thin(d), wv: thin(d) }],
  })).data!;
  const thin = (d: number) => Array.from({ length: d }, (_, i) => [((i % 3) - 1) / 10]);
  const refused = renderSvg(wide(3000), 'compare', { input: 0, token: 0 });
  assert.match(refused, /the compare view of 3 input\(s\) × 3,000 feature\(s\) needs [\d,]+ SVG elements, over the budget of 24,000: choose the quadrant or matrix view instead/);
  assert.doesNotMatch(refused, /--view/, 'the panel names views, not flags');
  assert.equal(new JSDOM(refused, { contentType: 'image/svg+xml' }).window.document.querySelectorAll('rect.bar').length, 0);
  assert.ok(new JSDOM(renderSvg(wide(30), 'compare', { input: 0, token: 0 }), { contentType: 'image/svg+xml' }).window.document.querySelectorAll('rect.bar').length > 0);
});

test('2,048 tokens: each panel\'s bars are the 64 keys the word attends to most and itself, in reading order, said in one line', async () => {
  const { longSpecData, drawSpecView } = await import('../../../../support/long-spec.js');
  const { listedKeys } = await import('../../../../../webview/views/spec/long-input.js');
  const { renderCompare } = await import('../../../../../webview/views/spec/compare.js');
  const data = longSpecData();
  const head = data.inputs[0].heads[0];
  for (const interactive of [false, true]) {
    const { svg, handle, elements, ms, dom } = drawSpecView(renderCompare, data, { token: 1000, interactive });
    const bars = Array.from(svg.querySelectorAll('rect.bar'), (b) => Number(b.getAttribute('data-token')));
    assert.deepEqual(bars, listedKeys(2048, (j) => head.weights.data[1000 * 2048 + j], (j) => j <= 1000, [1000]));
    assert.equal(bars.length, 64);
    assert.ok(bars.includes(1000), 'the word itself');
    const said = '2,048 tokens, more than the 64 bars drawn at once: each panel shows the tokens "w0" attends to most (and itself), in reading order; hover a bar for its weight';
    assert.ok(handle.notes.includes(said), handle.notes.join(' | '));
    assert.ok(Array.from(svg.querySelectorAll('text.note'), (t) => t.querySelector('title')?.textContent ?? t.textContent).includes(said), 'written on the picture');
    assert.ok(elements < 1000, `${elements} elements`);
    assert.ok(ms < 20_000, 'a hang guard, not a benchmark');
    dom.window.close();
  }
});
