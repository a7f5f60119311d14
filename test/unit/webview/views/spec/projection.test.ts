// The projection diagram (webview/views/spec/projection.ts), drawn on jsdom through attn render's
// renderSvg: x · W = y as grids, each y_j's hover written term by term (q_watch = 1·4 + 3·2 + 0·0 = 10
// in the apple-watch lens), large matrices compressed into at most 64 bands with the shape written,
// and the full-size line: 512×64 × 8 heads × 6 layers × 2 = 3,145,728 for seed-projection-512-64.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { fullSizeLine, MAX_BANDS, renderProjection } from '../../../../../webview/views/spec/projection.js';
import { analyzeOk, exampleText, SEED_LENS } from '../../../../support/specs.js';

const parse = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
/** The full-size line's lines as drawn (one <tspan> each). */
const fullSize = (doc: Document) => Array.from(doc.querySelectorAll('text.full-size > tspan'), (t) => t.textContent!);
const titles = (doc: Document, selector: string) => Array.from(doc.querySelectorAll(`${selector} > title`), (t) => t.textContent!);

test('the apple-watch lens, W_Q of "tech lens" on watch: x = (1, 3, 0), y = (10, 6), each y_j written term by term', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const doc = parse(renderSvg(data, 'projection', { head: 1, token: 3, projection: 'wq' }));
  assert.equal(doc.querySelector('text.title')!.textContent, 'q_watch = e_watch · W_Q of head "tech lens"');
  assert.equal(doc.querySelector('text.shape')!.textContent, 'e_watch (1×3) · W_Q (3×2) = q_watch (1×2)');
  assert.deepEqual(titles(doc, 'rect.x-cell').map((t) => t.split('\n')[0]), ['e_watch[is_tech] = 1', 'e_watch[is_watch] = 3', 'e_watch[is_fruit] = 0']);
  // W_Q = [[4, 3], [2, 1], [0, 1]]: column 1 gives 1·4 + 3·2 + 0·0 = 10, column 2 gives 1·3 + 3·1 + 0·1 = 6.
  assert.deepEqual(titles(doc, 'rect.y-cell'), [
    'q_watch[q0] = e_watch · column 1 of W_Q\n1·4 + 3·2 + 0·0 = 10',
    'q_watch[q1] = e_watch · column 2 of W_Q\n1·3 + 3·1 + 0·1 = 6',
  ]);
  assert.equal(doc.querySelectorAll('rect.w-cell').length, 6);
  assert.equal(titles(doc, 'rect.w-cell')[0].split('\n')[0], 'W_Q[is_tech, q0] = 4');
  // Room for numbers: y's cells show 10 and 6.
  const yTexts = Array.from(doc.querySelectorAll('g.y > text'), (t) => t.textContent);
  assert.deepEqual(yTexts, ['10', '6']);
  assert.match(doc.querySelector('text.full-size')!.textContent!, /= 3,145,728 numbers; here: 6\./);
});

test('seed-projection-512-64: 512 rows as 64 bands of 8, 64 columns as they are, and the full size 3,145,728 beside this W\'s 32,768', () => {
  const data = analyze(exampleText('seed-projection-512-64.attn.json')).data!;
  const doc = parse(renderSvg(data, 'projection', { token: 0, projection: 'wq' }));
  const word = data.inputs[0].tokens[0];
  assert.equal(MAX_BANDS, 64);
  assert.equal(doc.querySelector('text.shape')!.textContent, `e_${word} (1×512) · W_Q (512×64) = q_${word} (1×64)`);
  assert.equal(doc.querySelector('text.note')!.textContent, 'compressed: 512 rows shown as 64 bands of 8, 64 columns as 64 bands of 1 (each band the mean)');
  assert.equal(doc.querySelectorAll('rect.x-cell').length, 64);
  assert.equal(doc.querySelectorAll('rect.w-cell').length, 64 * 64);
  assert.equal(doc.querySelectorAll('rect.y-cell').length, 64);
  assert.equal(512 * 64 * 8 * 6 * 2, 3_145_728);
  const full = doc.querySelector('text.full-size')!;
  assert.equal(fullSize(doc).join(' '), 'Full size: W_Q is 512×64 per head × 8 heads × 6 layers × 2 (encoder, decoder) = 3,145,728 numbers; here: 32,768.');
  assert.match(full.querySelector('title')!.textContent!, /every W_Q is 512×64 = 32,768 learnt numbers, 3,145,728 in all/);
  // A band of x is the mean of its 8 entries; y_0 is the whole 512-term sum, checked here independently.
  const x = data.inputs[0].embeddings;
  const w = data.matrices.find((m) => m.role === 'wq' && m.head === 0)!.values!;
  const band0 = Array.from(x.data.subarray(0, 8)).reduce((a, b) => a + b, 0) / 8;
  assert.equal(titles(doc, 'rect.x-cell')[0], `e_${word}[0–7]: mean ${Number(band0.toFixed(3))}`);
  let y0 = 0;
  for (let i = 0; i < 512; i++) y0 += x.data[i] * w.data[i * 64];
  const yTitle = titles(doc, 'rect.y-cell')[0];
  assert.match(yTitle, /^q_\S+\[q0\] = e_\S+ · column 1 of W_Q\n.*… \(500 more terms\) …/);
  assert.ok(Math.abs(Number(yTitle.split(' = ').at(-1)) - y0) < 1e-3, `${yTitle} vs ${y0}`);
});

test('an identity W is said so, and a spec with no W_O draws a sentence instead of a grid', () => {
  const data = analyzeOk(SEED_LENS).data;
  const doc = parse(renderSvg(data, 'projection', { token: 0, projection: 'wv' }));
  assert.equal(doc.querySelector('text.note')!.textContent, 'W_V is the identity ("identity" in the spec): v_apple = e_apple');
  assert.match(fullSize(doc).join(' '), /; here: the identity, nothing learnt\.$/);
  const none = parse(renderSvg(data, 'projection', { projection: 'wo' }));
  assert.equal(none.documentElement.textContent, 'This spec has no W_O: the heads\' outputs, side by side, are the output.');
  assert.equal(none.querySelectorAll('rect.w-cell').length, 0);
});

test('W_O takes the heads\' outputs joined (c0, c1, …) to the features, with no full-size line', () => {
  // The lens's d_v of 3 and a second head's 2: five joined outputs.
  const data = analyzeOk({ ...SEED_LENS, heads: [...SEED_LENS.heads, { name: 'two', wv: [[1, 0], [0, 1], [1, 1]] }], wo: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0]] }).data;
  const doc = parse(renderSvg(data, 'projection', { token: 2, projection: 'wo' }));
  assert.equal(doc.querySelector('text.shape')!.textContent, 'concat_watch (1×5) · W_O (5×3) = output_watch (1×3)');
  assert.deepEqual(titles(doc, 'rect.x-cell').map((t) => t.split(' = ')[0]), ['concat_watch[c0]', 'concat_watch[c1]', 'concat_watch[c2]', 'concat_watch[c3]', 'concat_watch[c4]']);
  assert.equal(titles(doc, 'rect.y-cell')[0].split('\n')[0], 'output_watch[is_tech] = concat_watch · column 1 of W_O');
  assert.equal(doc.querySelector('text.full-size'), null);
});

test('fullSizeLine: the original Transformer\'s count for a role, beside the spec\'s own', () => {
  const f = { parameters: { fullSize: { dModel: 512, dk: 64, heads: 8, blocks: 6, stacks: 2, total: 3_145_728 } } };
  assert.deepEqual(fullSizeLine(f, 'W_K', 6, false), {
    text: 'Full size: W_K is 512×64 per head × 8 heads × 6 layers × 2 (encoder, decoder) = 3,145,728 numbers; here: 6.',
    tip: 'In the original Transformer (d_model 512, d_k 64, 8 heads, 6 layers in the encoder and 6 in the decoder), every W_K is 512×64 = 32,768 learnt numbers, 3,145,728 in all. An estimate for scale, not a count of this spec.',
  });
  assert.match(fullSizeLine(f, 'W_V', 9, true).text, /; here: the identity, nothing learnt\.$/);
});

// e_watch (1 × 3) was drawn as a column beside W_Q, against the row-vector
// convention x · W = y the seeds use. x is now a row over W, y a row under it.
test('projection draws x (1 × d_model) as a row over W and y (1 × d) as a row under it', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const doc = parse(renderSvg(data, 'projection', { width: 900, token: 2, projection: 'wq' }));
  const cells = (sel: string) => Array.from(doc.querySelectorAll(sel), (r) => ({ x: Number(r.getAttribute('x')), y: Number(r.getAttribute('y')) }));
  const xs = cells('rect.x-cell'), ws = cells('rect.w-cell'), ys = cells('rect.y-cell');
  assert.equal(xs.length, 3);
  assert.equal(new Set(xs.map((c) => c.y)).size, 1, 'one row: every x cell at the same height');
  assert.equal(new Set(xs.map((c) => c.x)).size, 3, 'three columns');
  assert.ok(xs.every((c) => ws.every((w) => c.y < w.y)), 'x is above W');
  assert.ok(ys.every((c) => ws.every((w) => c.y > w.y)), 'y is below W');
  assert.equal(new Set(ys.map((c) => c.y)).size, 1, 'y is one row');
  assert.match(titles(doc, 'rect.x-cell')[1], /multiplies row 2 of W_Q/);
});

// The widths test found seed-projection-512-64's band labels ("104–111") 10 px apart in 11 px type and
// past the picture's left edge at 1,200 px, the picture wider than a 430 px panel (its notes cut off
// screen), and "· W_Q" left of the picture in long-64-tokens-8-heads (a margin sized from the
// features' names). Labels too close are thinned; the margin holds what it shows; the grid fits.
for (const [example, width] of [['seed-projection-512-64.attn.json', 430], ['seed-projection-512-64.attn.json', 1200], ['long-64-tokens-8-heads.attn.json', 626]] as const) {
  test(`projection of ${example} at ${width} px: fits the panel, labels apart and inside the picture`, () => {
    const data = analyze(exampleText(example)).data!;
    const doc = parse(renderSvg(data, 'projection', { width, head: 0, token: 0, projection: 'wq' }));
    assert.ok(Number(doc.documentElement.getAttribute('width')) <= width, 'no wider than the panel');
    const fontSize = Number(doc.documentElement.getAttribute('font-size')) - 1;
    const rows = Array.from(doc.querySelectorAll('g.labels > text[text-anchor="end"]:not([font-weight])'));
    assert.ok(rows.length > 1, 'rows are labelled');
    const ys = rows.map((t) => Number(t.getAttribute('y')));
    for (let a = 1; a < ys.length; a++) assert.ok(ys[a] - ys[a - 1] >= fontSize * 1.5 - 0.01, `row labels at y ${ys[a - 1]} and ${ys[a]} have room`);
    for (const t of Array.from(doc.querySelectorAll('g.labels > text[text-anchor="end"]'))) {
      const size = Number(t.getAttribute('font-size') ?? fontSize);
      assert.ok(Number(t.getAttribute('x')) - textWidth(t.textContent!, size) * 1.15 >= 0, `"${t.textContent}" starts inside the picture`);
    }
  });
}

test('in the panel, a cell\'s hover lines are written on its first hover and kept; the cells\' outline is their group\'s, the numbers have none', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const win = new JSDOM('<!doctype html><div id="r"></div>', { pretendToBeVisual: true }).window;
  const root = win.document.getElementById('r') as unknown as HTMLElement;
  const shown: string[][] = [];
  const theme = makeTheme('light');
  const view = renderProjection(root, data, {
    theme, width: 700, head: 1, input: 0, token: 3, matrixMode: 'weights', projection: 'wq', interactive: true,
    tooltip: { show: (lines: string[]) => shown.push(lines), hide: () => {} } as never,
  });
  const [y0, y1] = Array.from(view.svg.querySelectorAll('rect.y-cell'));
  const hover = (el: Element) => el.dispatchEvent(new win.MouseEvent('pointerover', { bubbles: true }));
  hover(y0);
  hover(y1);
  hover(y0);
  assert.deepEqual(shown[0], ['q_watch[q0] = e_watch · column 1 of W_Q', '1·4 + 3·2 + 0·0 = 10']);
  assert.deepEqual(shown[1], ['q_watch[q1] = e_watch · column 2 of W_Q', '1·3 + 3·1 + 0·1 = 6']);
  assert.equal(shown[2], shown[0], 'the same lines, not written again');
  for (const cls of ['x', 'w', 'y']) {
    const g = view.svg.querySelector(`g.${cls}`)!;
    assert.equal(g.getAttribute('stroke'), theme.grid);
    assert.ok(Array.from(g.querySelectorAll('rect')).every((r) => !r.hasAttribute('stroke')), `${cls}: the rects take the group's outline`);
    assert.ok(Array.from(g.querySelectorAll('text')).every((t) => t.getAttribute('stroke') === 'none'), `${cls}: the numbers have no outline`);
  }
  assert.deepEqual(Array.from(view.svg.querySelectorAll('g.y > text'), (t) => t.textContent), ['10', '6']);
  view.destroy();
  win.close();
});

test('the full-size line wraps at every width from 280 to 1,400 px: all of it on screen, "= 3,145,728 numbers" whole on one line', () => {
  const small = analyzeOk(SEED_LENS).data;
  const seed = analyze(exampleText('seed-projection-512-64.attn.json')).data!;
  const fs = makeTheme('light').fontSize;
  const lineCounts = new Set<number>();
  const cases: [typeof seed, number][] = [];
  for (let width = 280; width <= 1400; width += 23) cases.push([small, width]);
  for (const width of [430, 626, 700]) cases.push([seed, width]);
  for (const [data, width] of cases) {
    const whole = fullSizeLine(data, 'W_Q', data === seed ? 512 * 64 : 6, false).text;
    const doc = parse(renderSvg(data, 'projection', { token: 0, projection: 'wq', width }));
    const lines = fullSize(doc);
    lineCounts.add(lines.length);
    assert.equal(lines.join(' '), whole, `${width} px`);
    assert.ok(lines.some((l) => l.includes('= 3,145,728 numbers')), `${width} px: ${JSON.stringify(lines)}`);
    const svgWidth = Number(doc.documentElement.getAttribute('width'));
    const height = Number(doc.documentElement.getAttribute('height'));
    const full = doc.querySelector('text.full-size')!;
    for (const l of lines) assert.ok(12 + textWidth(l, fs) * 1.08 <= svgWidth - 12 + 0.5, `${width} px: "${l}" wider than the picture`);
    // Its last line's baseline inside the picture.
    const lastY = Number(full.getAttribute('y')) + Array.from(full.querySelectorAll('tspan')).slice(1).reduce((sum, t) => sum + Number(t.getAttribute('dy')), 0);
    assert.ok(lastY + 4 <= height, `${width} px: last line at ${lastY}, picture ${height} tall`);
  }
  assert.ok(lineCounts.size > 1, 'narrow widths wrap it');
});
