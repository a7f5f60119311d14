// The head view of a long head: token labels on both axes (as many as fit 12 px apart, counted
// from 1), following a zoom to the visible range, which a line under the matrix names ("queries
// 40–79 × keys 12–51"); the crosshair in a colour apart from every colour of the heatmap in every
// theme (the dark theme's was viridis's strongest yellow); a small head read cell by cell by keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { color } from 'd3';
import { scanModel, headFloat32, rolloutOf } from '../../../../../src/core/model-attention/scan.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { THEME_KINDS } from '../../../../../src/core/vocabulary.js';
import { crosshair, palette } from '../../../../../webview/views/model/common.js';
import { exactWeight, labelIndices, labelStride, visibleRange } from '../../../../../webview/views/model/head.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { drawModel } from '../../../../support/model-views.js';

const WORDS = ['the', 'cat', 'sat', 'on', 'a', 'mat'];
function head(n: number, tokens = true) {
  const a = memoryAttention(randomAttention(1, 1, n, 4), 1, 1, n, tokens ? Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]) : undefined);
  return { ...scanModel(a), head: { layer: 0, head: 0, weights: headFloat32(a, 0, 0) } };
}

test('labelStride, labelIndices and visibleRange: labels 12 px apart at round places, the zoomed window in cells', () => {
  assert.equal(labelStride(40), 1);
  assert.equal(labelStride(12), 1);
  assert.equal(labelStride(2.3), 10);
  assert.equal(labelStride(0.5), 25);
  assert.deepEqual(labelIndices(0, 49, 10), [9, 19, 29, 39, 49], 'tokens 10, 20, … counted from 1');
  assert.deepEqual(labelIndices(39, 44, 1), [39, 40, 41, 42, 43, 44]);
  // 200 tokens in 400 px (2 px a cell), zoomed 5 times with the window's corner at query 40, key 12.
  const r = visibleRange(200, 400, { k: 5, x: -12 * 10, y: -40 * 10 });
  assert.deepEqual(r, { i0: 40, i1: 79, j0: 12, j1: 51, cell: 10 });
  assert.deepEqual(visibleRange(200, 400, { k: 1, x: 0, y: 0 }), { i0: 0, i1: 199, j0: 0, j1: 199, cell: 2 });
});

test('a head of 200 tokens has token labels on both axes, 12 px apart at least, and says the range it shows', () => {
  const { svg } = drawModel('head', head(200), { width: 626 });
  const rows = [...svg.querySelectorAll('text.row-label')];
  const cols = [...svg.querySelectorAll('text.col-label')];
  assert.ok(rows.length >= 10 && cols.length >= 10, `${rows.length} row and ${cols.length} column labels`);
  const ys = rows.map((t) => Number(t.getAttribute('y')));
  for (let k = 1; k < ys.length; k++) assert.ok(ys[k] - ys[k - 1] >= 12, `row labels ${ys[k - 1]} and ${ys[k]} overlap`);
  const xs = cols.map((t) => Number(/translate\(([\d.]+),/.exec(t.getAttribute('transform')!)![1]));
  for (let k = 1; k < xs.length; k++) assert.ok(xs[k] - xs[k - 1] >= 12, `column labels ${xs[k - 1]} and ${xs[k]} overlap`);
  // Sampled labels carry their place, counted from 1: at 626 px the picture is 486 px, a cell 2.43 px, a label every 5th token.
  const stride = labelStride(486 / 200);
  assert.equal(stride, 5);
  assert.equal(rows[0].textContent, '5 "a"', 'the 5th token, "a"');
  assert.equal(rows[1].textContent, '10 "on"');
  assert.equal(svg.querySelector('text.zoom-range')!.textContent, 'queries 1–200 × keys 1–200 (labels every 5)');
  // No tokens in the file: the places alone.
  assert.equal(drawModel('head', head(200, false), { width: 626 }).svg.querySelector('text.row-label')!.textContent, '#5');
});

test('zooming in relabels the axes with the visible range\'s tokens and names the range', () => {
  const { svg, dom } = drawModel('head', head(200), { width: 626, interactive: true });
  const frame = svg.querySelector('g.head-picture')!;
  const before = svg.querySelectorAll('text.row-label').length;
  // d3-zoom on the wheel: zoom in at the picture's top-left corner.
  for (let k = 0; k < 8; k++) frame.dispatchEvent(new dom.window.WheelEvent('wheel', { deltaY: -300, clientX: 0, clientY: 0, bubbles: true, cancelable: true }));
  const range = svg.querySelector('text.zoom-range')!.textContent!;
  const m = /^shown: queries (\d+)–(\d+) × keys (\d+)–(\d+)/.exec(range);
  assert.ok(m, range);
  const [i0, i1] = [Number(m[1]), Number(m[2])];
  assert.ok(i1 - i0 < 199, `a zoom shows part of the head: ${range}`);
  const labelled = [...svg.querySelectorAll('text.row-label')].map((t) => Number(t.getAttribute('data-i')));
  assert.ok(labelled.length > 0);
  for (const i of labelled) assert.ok(i + 1 >= i0 && i + 1 <= i1, `label of query ${i + 1} outside ${range}`);
  const ys = [...svg.querySelectorAll('text.row-label')].map((t) => Number(t.getAttribute('y')));
  for (let k = 1; k < ys.length; k++) assert.ok(ys[k] - ys[k - 1] >= 12);
  assert.ok(before < 199, 'unzoomed, not every token has a label');
  // Zoomed until a cell is 12 px or more: every visible query has its label, in order.
  assert.ok(labelled.length >= i1 - i0, `${labelled.length} labels for queries ${i0}–${i1}`);
  labelled.forEach((i, k) => k > 0 && assert.equal(i, labelled[k - 1] + 1));
});

test('the crosshair stands apart from every colour of the heatmap, in every theme', () => {
  const rgb = (c: string) => color(c)!.rgb();
  for (const kind of THEME_KINDS) {
    const theme = makeTheme(kind);
    const c = rgb(crosshair(theme));
    const nearest = Math.min(...palette(theme).map(([r, g, b]) => Math.hypot(c.r - r, c.g - g, c.b - b)));
    assert.ok(nearest > 90, `${kind}: the crosshair ${crosshair(theme)} is ${nearest.toFixed(0)} from the palette`);
  }
  // And it is what the head view draws: hover (here, focus) a cell of the dark theme.
  const { svg } = drawModel('head', head(8), { interactive: true, theme: makeTheme('dark') });
  (svg.querySelector('rect.cell[tabindex="0"]') as unknown as HTMLElement).focus();
  const strokes = [...svg.querySelectorAll('rect.crosshair')].map((r) => r.getAttribute('stroke'));
  assert.equal(strokes.length, 2);
  for (const s of strokes) assert.equal(s, crosshair(makeTheme('dark')));
});

test('a small head is one tab stop and the arrows read it cell by cell', () => {
  const { svg, key, active, tips } = drawModel('head', head(8), { interactive: true });
  assert.equal(svg.querySelectorAll('rect.cell[tabindex="0"]').length, 1);
  (svg.querySelector('rect.cell[tabindex="0"]') as unknown as HTMLElement).focus();
  key(active()!, 'ArrowDown');
  key(active()!, 'ArrowRight');
  key(active()!, 'ArrowRight');
  assert.equal(active()!.getAttribute('data-i'), '1');
  assert.equal(active()!.getAttribute('data-j'), '2');
  assert.match(tips.at(-1)![0], /^query #2 "cat" → key #3 "sat"$/);
});

test('a small head\'s note wraps to its picture, which is narrower than the panel (Chromium saw it run 52 px past the edge at 626 px)', () => {
  for (const width of [430, 626, 1200]) {
    const { svg } = drawModel('head', head(8), { width });
    const picture = Number(svg.getAttribute('width'));
    const note = svg.querySelector('text.note')!;
    for (const line of Array.from(note.querySelectorAll('tspan'), (t) => t.textContent ?? '')) {
      assert.ok(8 + textWidth(line, 12) <= picture, `${width} px: "${line}" (${textWidth(line, 12).toFixed(0)} px) in a ${picture} px picture`);
    }
  }
});

test('the rollout\'s "most from" line wraps to the chart at 430 px instead of running past it', () => {
  const a = memoryAttention(randomAttention(2, 2, 8, 4), 2, 2, 8, ['The', 'watch', 'on', 'my', 'wrist', 'watch', 'supercalifragilistic', '.']);
  const { svg } = drawModel('rollout', { ...scanModel(a), rollout: rolloutOf(a)! }, { width: 430 });
  const picture = Number(svg.getAttribute('width'));
  const chart = svg.querySelector('g.chart')!;
  const x = Number(/translate\(([\d.]+)/.exec(chart.getAttribute('transform')!)![1]);
  const lines = Array.from(chart.querySelectorAll('text.note tspan'), (t) => t.textContent ?? '');
  assert.ok(lines.length >= 2, 'more than one line');
  for (const line of lines) assert.ok(x + textWidth(line, 12) <= picture, `"${line}" fits ${picture} px`);
});

test('a hovered weight is the shortest number that reads back as the same float32 (0.85, not 0.850000024)', () => {
  assert.equal(exactWeight(Math.fround(0.85)), '0.85');
  assert.equal(exactWeight(Math.fround(0.9998)), '0.9998');
  assert.equal(exactWeight(1), '1');
  assert.equal(exactWeight(0), '0');
  // Every float32 reads back as itself, and no fewer digits would.
  let seed = 7;
  for (let k = 0; k < 2000; k++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const w = Math.fround((seed / 2147483648) ** 3);
    const s = exactWeight(w);
    assert.equal(Math.fround(Number(s)), w, `${s} reads back as ${w}`);
    const digits = s.replace(/^0\.0*|\.|e.*$/g, '').length;
    if (digits > 1) assert.notEqual(Math.fround(Number(w.toPrecision(digits - 1))), w, `${s}: ${digits - 1} digits would do`);
  }
  assert.equal(exactWeight(0.1 + 0.2), String(Number((0.1 + 0.2).toPrecision(9))), 'a number that is no float32 keeps 9 digits');
});


test('in a narrow editor the range line stays within the picture, the labels\' stride in its hover when it had to go', () => {
  for (const width of [400, 415, 430, 626]) {
    const { svg } = drawModel('head', head(200), { width });
    const range = svg.querySelector('text.zoom-range')!;
    const shown = [...range.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
    const x = Number(range.getAttribute('x')), picture = Number(svg.getAttribute('width'));
    assert.ok(x + textWidth(shown, 12) <= picture - 8, `${width} px: "${shown}" from ${x} within ${picture}`);
    assert.match(shown, /^queries 1–200 × keys 1–200/);
    const title = range.querySelector('title')?.textContent;
    if (shown.includes('labels every')) assert.equal(title, undefined, `${width} px: the whole line is shown`);
    else assert.equal(title, 'queries 1–200 × keys 1–200 (labels every 10)', `${width} px: the whole line in the hover`);
    if (width === 400) assert.ok(title, 'at 400 px the stride goes to the hover');
    if (width === 626) assert.equal(title, undefined, 'at 626 px the whole line fits');
  }
});

test('the head view is no wider than the width it is given, down to the editor\'s least (320 px): a 16-token head was 330 px wide and cut in code-server', () => {
  for (const n of [16, 200]) {
    for (const width of [320, 330, 340, 400, 626]) {
      const { svg } = drawModel('head', head(n), { width });
      assert.ok(Number(svg.getAttribute('width')) <= width, `${n} tokens at ${width} px: the picture is ${svg.getAttribute('width')} px wide`);
    }
  }
  // From 340 px on, the matrix is as large as it was (at least 200 px a side).
  assert.equal(drawModel('head', head(16), { width: 340 }).svg.getAttribute('width'), '330');
});

test('a long run\'s head kept as a picture smaller than 512² (every head\'s fits a budget) is drawn, not left loading', () => {
  const n = 600;
  const { header, thumbnails } = scanModel(memoryAttention(randomAttention(1, 1, n, 4), 1, 1, n));
  const indices = Uint8Array.from({ length: 256 * 256 }, (_, k) => k % 251);
  const { svg } = drawModel('head', { header, thumbnails, head: { layer: 0, head: 0, picture: { res: 256, indices }, max: 0.5 } }, { width: 700 });
  assert.ok(svg.querySelector('image.heatmap'), 'the picture is drawn');
  assert.ok(!svg.textContent!.includes('loading'), svg.textContent!.slice(0, 200));
});
