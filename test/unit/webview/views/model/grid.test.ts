// The model grid: it fits the width it is given (a 630 px grid in a 606 px stage cut the last
// column), wrapping a layer's heads when they cannot fit; heads and layers count from 1 as in the
// spec panel; the grid is one tab stop whose arrows, Home/End and PageUp/PageDown walk the heads;
// a warning is written under the grid only where no page shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { gridLayout } from '../../../../../webview/views/model/grid.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const model = (layers: number, heads: number, n = 8) => scanModel(memoryAttention(randomAttention(layers, heads, n), layers, heads, n));

test('gridLayout: 12 heads fit a 606 px stage; 48 heads in 406 px wrap onto more rows, never wider', () => {
  for (const [width, heads] of [[606, 12], [406, 12], [1176, 12], [406, 48], [320, 64]]) {
    const { cell, perRow, bands } = gridLayout(width, heads);
    assert.ok(64 + perRow * (cell + 4) + 12 <= width, `${heads} heads at ${width} px: ${perRow} of ${cell} px a row`);
    assert.ok(cell >= 20 && cell <= 96);
    assert.equal(bands, Math.ceil(heads / perRow));
  }
  assert.equal(gridLayout(606, 12).bands, 1);
  assert.ok(gridLayout(406, 48).bands > 1, 'a layer of 48 heads wraps at 406 px');
});

test('the drawn grid is no wider than its width, and names heads and layers from 1', () => {
  const data = model(4, 12);
  const { svg } = drawModel('model', data, { width: 606 });
  assert.ok(Number(svg.getAttribute('width')) <= 606, `grid ${svg.getAttribute('width')} px in a 606 px stage`);
  const columns = [...svg.querySelectorAll('text')].map((t) => t.textContent).filter((t) => /^h\d+$/.test(t!));
  assert.deepEqual(columns, Array.from({ length: 12 }, (_, h) => `h${h + 1}`));
  const rows = [...svg.querySelectorAll('text')].map((t) => t.textContent).filter((t) => /^L\d+$/.test(t!));
  assert.deepEqual(rows, ['L1', 'L2', 'L3', 'L4']);
  assert.match(svg.querySelector('g.head-cell[data-layer="0"][data-head="0"] title')!.textContent!, /^layer 1 head 1\n/);
  const wide = drawModel('model', model(2, 48), { width: 406 });
  assert.ok(Number(wide.svg.getAttribute('width')) <= 406, 'a wrapped grid fits too');
  assert.equal(wide.svg.querySelectorAll('g.head-cell').length, 96);
});

test('the grid is one tab stop; the arrows, Home/End and PageUp/PageDown move the focus across heads and layers', () => {
  const { svg, key, active } = drawModel('model', model(4, 5), { interactive: true, layer: 1, head: 2 });
  const stops = svg.querySelectorAll('[tabindex="0"]');
  assert.equal(stops.length, 1, 'one tab stop for 20 heads');
  assert.equal(stops[0].getAttribute('data-layer'), '1', 'the shown head is the stop');
  assert.equal(stops[0].getAttribute('data-head'), '2');
  (stops[0] as unknown as HTMLElement).focus();
  const at = () => `${active()!.getAttribute('data-layer')}:${active()!.getAttribute('data-head')}`;
  key(active()!, 'ArrowRight');
  assert.equal(at(), '1:3');
  key(active()!, 'ArrowDown');
  assert.equal(at(), '2:3');
  key(active()!, 'Home');
  assert.equal(at(), '2:0');
  key(active()!, 'End');
  assert.equal(at(), '2:4');
  key(active()!, 'PageUp');
  assert.equal(at(), '0:4', 'PageUp: the first layer');
  key(active()!, 'PageDown');
  assert.equal(at(), '3:4', 'PageDown: the last layer');
  key(active()!, 'ArrowLeft');
  assert.equal(at(), '3:3');
  assert.equal(svg.querySelectorAll('[tabindex="0"]').length, 1, 'still one tab stop, where the focus is');
  assert.equal(active()!.getAttribute('tabindex'), '0');
});

test('a warning is written under the grid once for the command line, and not at all where the editor\'s warning line shows it', () => {
  const scores = scanModel(memoryAttention(new Float32Array([0, 2, 2, 3]), 1, 1, 2));
  assert.equal(scores.header.warnings.length, 1);
  const cli = drawModel('model', scores);
  assert.equal([...cli.svg.querySelectorAll('text')].filter((t) => t.textContent!.startsWith('warning: ')).length, 1);
  const editor = drawModel('model', scores, { interactive: true });
  assert.doesNotMatch(editor.svg.textContent!, /do not sum to 1/);
});

test('the note wraps at the font size it is drawn in: VS Code\'s 13 px (code-server cut "…scaled to" at the edge of a 398 px grid)', () => {
  for (const fontSize of [12, 13, 16]) {
    for (const width of [320, 398, 606]) {
      const theme = makeTheme('light', { fontSize });
      const { svg } = drawModel('model', model(3, 4, 16), { width, theme });
      assert.equal(svg.getAttribute('font-size'), String(fontSize), 'the note inherits the picture\'s font size');
      const lines = [...svg.querySelectorAll('text.note tspan')].map((t) => t.textContent!.trimEnd());
      assert.ok(lines.length >= 2, `${fontSize} px at ${width} px: the note wraps (${lines.length} lines)`);
      for (const line of lines) {
        assert.ok(textWidth(line, fontSize) <= width - 16, `${fontSize} px at ${width} px: "${line}" is ${textWidth(line, fontSize).toFixed(1)} px in ${width - 16}`);
      }
    }
  }
});

test('16 layers × 32 heads of 8,192 tokens: every head is a thumbnail in one picture a layer, the drawing bounded, the arrows walk it', async () => {
  const { longRunData } = await import('../../../../support/long-run-data.js');
  const data = longRunData();
  for (const width of [430, 900]) {
    const began = performance.now();
    const { svg, key } = drawModel('model', data, { interactive: true, width, layer: 15, head: 31 });
    assert.ok(performance.now() - began < 20_000, 'a hang guard, not a benchmark');
    assert.equal(svg.querySelectorAll('g.head-cell').length, 512);
    assert.equal(svg.querySelectorAll('defs image').length, 16, 'one picture a layer, not one a head');
    assert.ok(svg.querySelectorAll('*').length < 3000, `${svg.querySelectorAll('*').length} elements`);
    assert.ok(Number(svg.getAttribute('width')) <= Math.max(width, 760));
    assert.match(svg.querySelector('text')!.textContent!, /16 layer\(s\) × 32 head\(s\) × 8192 tokens/);
    const stop = svg.querySelectorAll('g.head-cell[tabindex="0"]');
    assert.equal(stop.length, 1);
    assert.deepEqual([stop[0].getAttribute('data-layer'), stop[0].getAttribute('data-head')], ['15', '31']);
    (stop[0] as unknown as HTMLElement).focus();
    key(stop[0], 'PageUp');
    assert.equal(svg.querySelector('g.head-cell[tabindex="0"]')!.getAttribute('data-layer'), '0');
  }
});
