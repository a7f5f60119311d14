// Many heads of a long input: small multiples that fit the panel, each head on its own colour scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { divisorText } from '../../../../../webview/views/spec/matrix.js';
import { exampleText } from '../../../../support/specs.js';

const parse = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;

test('8 heads × 64 tokens at 1,000 px: a grid of small multiples, not a page 5,591 px tall', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  const doc = parse(renderSvg(data, 'matrix', { width: 1000, head: 'all' }));
  const height = Number(doc.documentElement.getAttribute('height'));
  assert.ok(height <= 1.5 * 1000 + 200, `the picture is ${height} px tall`);
  assert.equal(doc.querySelectorAll('g.head-matrix').length, 8);
  const rows = new Set(Array.from(doc.querySelectorAll('g.head-matrix'), (g) => /translate\([^,]+,([^)]+)\)/.exec(g.getAttribute('transform')!)![1]));
  assert.ok(rows.size < 8, 'heads share rows');
  assert.match(doc.documentElement.textContent!, /8 heads as small multiples: each head coloured from its own lowest to its own highest value/);
  assert.match(doc.querySelector('g.legend')!.textContent!, /each head on its own scale.*lowest.*highest/);
  // Every head inside the picture's width.
  const svgWidth = Number(doc.documentElement.getAttribute('width'));
  for (const g of Array.from(doc.querySelectorAll('g.head-matrix'))) {
    const x = Number(/translate\(([^,]+),/.exec(g.getAttribute('transform')!)![1]);
    assert.ok(x < svgWidth - 20, `a head starts at ${x}, past the ${svgWidth} px picture`);
  }
});

test('at a narrow 480 px the small multiples still fit the width', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  const doc = parse(renderSvg(data, 'matrix', { width: 480, head: 'all' }));
  assert.equal(Number(doc.documentElement.getAttribute('width')), 480);
});

test('each small multiple spans the whole colour scale (per-head normalisation)', () => {
  const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
  const doc = parse(renderSvg(data, 'matrix', { width: 1000, head: 'all', matrixMode: 'scores' }));
  for (const g of Array.from(doc.querySelectorAll('g.head-matrix'))) {
    const fills = new Set(Array.from(g.querySelectorAll('rect.cell:not(.masked)'), (r) => r.getAttribute('fill')));
    // The lightest and darkest colours of the scale are both used in every head.
    assert.ok(fills.size > 8, `head ${g.getAttribute('data-head')}: ${fills.size} colours`);
  }
});

test('two heads of four tokens keep one shared scale with numbers in the legend', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const doc = parse(renderSvg(data, 'matrix', { width: 1000, head: 'all' }));
  assert.doesNotMatch(doc.documentElement.textContent!, /small multiples/);
  assert.doesNotMatch(doc.querySelector('g.legend')!.textContent!, /each head/);
});

test('every cell with room for a number shows one: a weight like 0.0061 reads "0" at one digit, never a blank cell', () => {
  const data = analyze(exampleText('init-four-rules.attn.json')).data!;
  for (let head = 0; head < 4; head++) {
    const doc = new JSDOM(renderSvg(data, 'matrix', { head, width: 700 }), { contentType: 'image/svg+xml' }).window.document;
    const cells = doc.querySelectorAll('rect.cell').length;
    assert.equal(cells, 36);
    assert.equal(doc.querySelectorAll('text.value').length, cells, `head ${head}: a number in every cell`);
  }
});

// The widths test found 8 heads side by side at 430 and 626 px (this render: 626) with 'head "hea…' and "d_k 4, ÷ √…"
// over each matrix and nothing to read the rest; a cut header now says all of it in a hover (or
// first drops "d_k 4, ", which the hover of every cell repeats).
for (const width of [626]) {
  test(`8 heads × 64 tokens at ${width} px: every shortened head header has its whole text one hover away`, () => {
    const data = analyze(exampleText('long-64-tokens-8-heads.attn.json')).data!;
    const doc = parse(renderSvg(data, 'matrix', { width, head: 'all' }));
    const own = (t: Element) => Array.from(t.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
    const heads = data.inputs[0].heads;
    let shortened = 0;
    for (const g of Array.from(doc.querySelectorAll('g.head-matrix'))) {
      const head = heads[Number(g.getAttribute('data-head'))];
      for (const [cls, full] of [['head-name', `head "${head.name}"`], ['head-shape', `d_k ${head.dk}, ÷ ${divisorText(data, head)}`]]) {
        const t = g.querySelector(`text.${cls}`)!;
        if (own(t) === full) continue;
        shortened += 1;
        assert.equal(t.querySelector('title')?.textContent, full, `${cls} "${own(t)}" has "${full}" in its hover`);
      }
    }
    assert.ok(shortened > 0, 'some header is shortened at this width');
  });
}

test('2,048 tokens: the panel paints one canvas of one pixel a cell and says it scrolls; attn render draws blocks and says their size', async () => {
  const { longSpecData, drawSpecView } = await import('../../../../support/long-spec.js');
  const { MAX_STATIC_CELLS, renderMatrix } = await import('../../../../../webview/views/spec/matrix.js');
  const data = longSpecData();
  const panel = drawSpecView(renderMatrix, data, { interactive: true, head: 0 });
  // jsdom has no 2-D context: the canvas is laid out, its pixels are painted only in a browser.
  assert.equal(panel.handle.canvases?.length, 1);
  const said = '2,048 tokens: each cell is 1 px, so a head is 2,048 px a side, wider than the panel: scroll sideways; hover a cell or use the arrows for its numbers';
  assert.ok(panel.handle.notes.includes(said), panel.handle.notes.join(' | '));
  assert.ok(panel.elements < 500, `${panel.elements} elements beside the canvas`);
  const render = drawSpecView(renderMatrix, data, { head: 0 });
  assert.ok(render.handle.notes.includes('2048 tokens: each cell is a block of 23×23 token pairs (its mean)'), render.handle.notes.join(' | '));
  assert.ok(render.svg.querySelectorAll('rect').length <= MAX_STATIC_CELLS + 64, `${render.svg.querySelectorAll('rect').length} rects`);
  panel.dom.window.close();
  render.dom.window.close();
});
