// Step by step fits the panel: at 730 px nothing runs off the right edge; keys are numbered so a
// repeated word's rows differ; v has its own column when there is room, and is in each key's hover.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render.js';
import { analyze } from '../../../../../src/core/index.js';
import { textWidth, monoWidth } from '../../../../../webview/kit/format.js';
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
