// Step by step fits the panel: at 730 px nothing runs off the right edge; keys are numbered so a
// repeated word's rows differ; v has its own column when there is room, and is in each key's hover.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { dotTerms, textWidth, monoWidth } from '../../../../../webview/kit/format.js';
import { sumTerms } from '../../../../../webview/views/spec/steps.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { SPEC_ENTRIES } from '../../../../../webview/views/registry.js';
import { exampleFiles } from '../../../../support/specs.js';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

function texts(svg: string) {
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const root = doc.documentElement;
  return { width: Number(root.getAttribute('width')), doc, items: Array.from(doc.querySelectorAll('text')) };
}

for (const file of exampleFiles()) {
  test(`steps at 730 px: ${basename(file)} stays inside the panel`, () => {
    const data = analyze(readFileSync(file, 'utf8')).data!;
    const svg = renderSvg(data, 'steps', { width: 730, head: data.inputs[0].heads.length - 1 });
    const { width, items } = texts(svg);
    assert.ok(width <= 730, `the picture is ${width} px wide`);
    for (const t of items) {
      if (t.closest('title')) continue;
      const x = Number(t.getAttribute('x') ?? 0);
      const mono = (t.getAttribute('font-family') ?? '').includes('monospace');
      // What is drawn: the text without its hover (<title>).
      const shown = Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
      const w = mono ? monoWidth(shown, 12) : textWidth(shown, 12);
      assert.ok(x + w <= width + 2, `"${shown}" ends at ${Math.round(x + w)} px, past ${width}`);
    }
  });
}

test('keys are numbered, v has a column when wide, and each key\'s hover gives k and v', () => {
  const data = analyze(JSON.stringify({ embeddings: { the: [1, 0], cat: [0, 1] }, inputs: [{ tokens: ['the', 'cat', 'the'] }] })).data!;
  const { doc } = texts(renderSvg(data, 'steps', { width: 1400, token: 2 }));
  const shown = (t: Element) => Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
  const keys = Array.from(doc.querySelectorAll('text.token'), shown);
  assert.deepEqual(keys, ['1. the', '2. cat', '3. the']);
  const headers = Array.from(doc.querySelectorAll('g.table > text'), shown);
  assert.ok(headers.includes('v (value vector)'), headers.join(' | '));
  assert.match(doc.querySelector('text.token[data-token="1"] title')?.textContent ?? '', /k_cat = \[0, 1\]\s+v_cat = \[0, 1\]/);
});

test('step by step starts on the first occurrence of the word the input leads up to, not on its last copy', async () => {
  const { defaultToken } = await import('../../../../../webview/views/spec/selection.js');
  const data = analyze(JSON.stringify({ embeddings: { the: [1, 0], cat: [0, 1], saw: [1, 1] }, inputs: [{ tokens: ['the', 'cat', 'saw', 'the'] }] })).data!;
  assert.deepEqual(defaultToken(data, 'steps', 0), { input: 0, token: 0 });
  assert.deepEqual(defaultToken(data, 'arcs', 0), { input: 0, token: 3 });
});

test('steps in a 480 px panel: the table and the notes fit (weight × v left to the sum line)', () => {
  const data = analyze(exampleFiles().map((f) => readFileSync(f, 'utf8')).find((t) => t.includes('136 vs 64'))!).data!;
  const { width, doc } = texts(renderSvg(data, 'steps', { width: 480 }));
  assert.equal(width, 480);
  assert.match(doc.documentElement.textContent!, /weight × v left out of the table/);
});

// At the default width (626 px) the e^(s−max) column was dropped but its total
// stayed under the softmax column, reading "Σ = 2.6617" as the weights' sum.
test('a dropped e^(s − max) column takes its Σ with it; a shown one keeps its Σ under itself', () => {
  const data = analyze(exampleFiles().map((f) => readFileSync(f, 'utf8')).find((t) => t.includes('"mouse"') && t.includes('keyboard'))!).data!;
  const shown = (t: Element) => Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
  const narrow = texts(renderSvg(data, 'steps', { width: 430 })).doc;
  const headers = Array.from(narrow.querySelectorAll('g.table > text'), shown);
  assert.ok(!headers.includes('e^(s − max)'), `the column is dropped at 430 px: ${headers.join(' | ')}`);
  assert.ok(!/Σ = \d/.test(Array.from(narrow.querySelectorAll('g.table > text'), shown).join('\n')), 'no Σ under the softmax column');
  const wide = texts(renderSvg(data, 'steps', { width: 1400 })).doc;
  const sum = wide.querySelector('text.exp-sum');
  const head = Array.from(wide.querySelectorAll('g.table > text')).find((t) => shown(t) === 'e^(s − max)');
  assert.ok(sum && head, 'with room, the column and its Σ are drawn');
  assert.equal(sum.getAttribute('x'), head.getAttribute('x'), 'the Σ stands under its own column');
});

// Long-64, token "runs" (causal): "the table lists the 47 with the largest
// weights" while rows 24–47 were masked keys of weight 0 in index order.
test('with more keys than rows, masked keys are not listed as if they were among the largest weights', () => {
  const text = readFileSync(exampleFiles().find((f) => f.includes('long-64'))!, 'utf8');
  const data = analyze(text).data!;
  const input = data.inputs[0];
  const token = input.tokens.indexOf('runs');
  assert.ok(token > 0 && input.tokens.length > 48);
  const { doc } = texts(renderSvg(data, 'steps', { width: 1400, token, head: 0 }));
  const rows = Array.from(doc.querySelectorAll('g.key-row'));
  assert.ok(rows.length > 0);
  assert.deepEqual(rows.filter((r) => r.classList.contains('masked')).map((r) => r.getAttribute('data-key')), [], 'no masked key in the list');
  // Causal: "runs" may look at itself and the keys before it.
  assert.equal(rows.length, token + 1);
  const all = doc.documentElement.textContent!;
  assert.doesNotMatch(all, /lists the \d+ with the largest weights; the sum/);
  assert.match(all, new RegExp(`lists all ${token + 1} keys "runs" may look at; ${input.tokens.length - token - 1} masked keys \\(weight 0\\) are left out`));
});

// The widths test (the panel's 13 px type, 430 px) found seed-projection-512-64's q vector beside its
// label running 12 px past the picture's edge ("-1.315" and "]"). It goes under its label then.
test('step by step: the q vector goes under its label when beside it it would run past the edge', () => {
  const data = analyze(readFileSync(exampleFiles().find((f) => basename(f) === 'seed-projection-512-64.attn.json')!, 'utf8')).data!;
  for (const width of [406, 602]) {
    const dom = new JSDOM('<!doctype html><div id="r"></div>');
    const h = SPEC_ENTRIES.find((e) => e.name === 'steps')!.render(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
      theme: makeTheme('light', { fontSize: 13 }), width, head: 0, input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: false,
    });
    const svgW = Number(h.svg.getAttribute('width'));
    for (const t of Array.from(h.svg.querySelectorAll('g.query text'))) {
      const own = Array.from(t.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
      const w = t.getAttribute('font-family') ? monoWidth(own, 13) : textWidth(own, 13);
      assert.ok(Number(t.getAttribute('x')) + w <= svgW - 4, `"${own}" at ${width} px ends inside the ${svgW} px picture`);
    }
    dom.window.close();
  }
});

test('a tooltip\'s sum past STEP_TERMS writes the first terms and the largest of the rest, and how many it leaves out; within it, dotTerms\' very text', () => {
  const d = 2000;
  // e_a has 1 at 0, 700 and 1,500; W_Q's one column is 1 + t/1000: q = 1 + 1.7 + 2.5.
  const spec = {
    embeddings: { a: Array.from({ length: d }, (_, t) => (t === 0 || t === 700 || t === 1500 ? 1 : 0)) },
    inputs: [{ tokens: ['a', 'a'] }],
    heads: [{ name: 'h', wq: Array.from({ length: d }, (_, t) => [1 + t / 1000]), wk: Array.from({ length: d }, () => [1]), wv: Array.from({ length: d }, () => [1]) }],
  };
  const data = analyze(JSON.stringify(spec)).data!;
  const { doc } = texts(renderSvg(data, 'steps', { width: 1000 }));
  const q = [...doc.querySelectorAll('title')].map((t) => t.textContent!).find((t) => t.startsWith('q_a[0] = e_a · W_Q column 0'));
  assert.match(q ?? '', /^q_a\[0\] = e_a · W_Q column 0 = 1·1 \+ 0·1\.001 \+ 0·1\.002 \+ 0·1\.003 \+ 0·1\.004 \+ 0·1\.005 \+ … the largest of the rest: \[700\] 1·1\.7 \+ \[1500\] 1·2\.5 … = 5\.2 \(1,992 of 2,000 terms left out: a tooltip writes at most 1,024\)$/);
  const rand = (k: number) => Array.from({ length: k }, (_, t) => Math.sin(t * 12.9898) * 3);
  for (const k of [1, 12, 13, 1024]) assert.equal(sumTerms(rand(k), rand(k).reverse(), 1.5), dotTerms(rand(k), rand(k).reverse(), 1.5), `${k} terms`);
  // The largest are the largest in size, negative ones too, in their order; ties keep the first.
  const a = new Float64Array(5000), b = new Float64Array(5000).fill(1);
  [[10, 3], [4000, -9], [20, 5], [30, 1], [40, 2], [50, 2], [60, 7], [70, 0.5], [80, 2]].forEach(([t, v]) => { a[t] = v; });
  assert.match(sumTerms(a, b, 0), /largest of the rest: \[10\] 3·1 \+ \[20\] 5·1 \+ \[40\] 2·1 \+ \[50\] 2·1 \+ \[60\] 7·1 \+ \[4000\] \(-9\)·1 …/);
  const big = new Float64Array(4_194_304).fill(0.5);
  assert.match(sumTerms(big, big, 1), /\(4,194,292 of 4,194,304 terms left out/);
});
