// The arcs' reading key is whole at every width: it wraps instead of ending in "…", and the loops
// that stand for a token attending to itself are explained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render.js';
import { analyze } from '../../../../../src/core/index.js';
import { exampleText } from '../../../../support/specs.js';

for (const width of [700, 1000, 1400]) {
  test(`arcs at ${width} px: the title and the reading key are not cut, and loops are explained`, () => {
    const data = analyze(exampleText('multi-head-causal.attn.json')).data!;
    const doc = new JSDOM(renderSvg(data, 'arcs', { width, head: 'all' }), { contentType: 'image/svg+xml' }).window.document;
    const title = doc.querySelector('text.title')!.textContent!;
    assert.doesNotMatch(title, /…/);
    const reading = Array.from(doc.querySelectorAll('g.reading text'), (t) => t.textContent);
    assert.deepEqual(reading, ['arc width = weight', 'above: to a later token', 'below: to an earlier token', 'loop over a token: to itself']);
    const svgWidth = Number(doc.documentElement.getAttribute('width'));
    for (const t of Array.from(doc.querySelectorAll('g.reading text'))) {
      assert.ok(Number(t.getAttribute('x')) + 12 + (t.textContent!.length * 6) <= svgWidth, `"${t.textContent}" fits`);
    }
  });
}
