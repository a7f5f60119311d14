// The quadrant plot reads cleanly: labels never sit on each other, the axis titles stay beside the
// plot, and quadrants split where the points are when all of them are on one side of 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { LabelPlacer } from '../../../../../webview/kit/label-placer.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { SPEC_ENTRIES } from '../../../../../webview/views/registry.js';
import { exampleText } from '../../../../support/specs.js';
import { axisTitles, pcaSample, plottableOutputs } from '../../../../../webview/views/spec/quadrant.js';
import { between, seeded } from '../../../../support/random.js';
import { QUADRANT_PCA } from '../../../../../src/core/budget.js';
import type { AttentionData } from '../../../../../src/core/result/attention-data.js';

const parse = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;

for (const name of ['apple-watch-lens.attn.json', 'mouse-two-contexts.attn.json', 'apple-watch-raw.attn.json']) {
  for (const width of [700, 1000]) {
    test(`quadrant of ${name} at ${width} px: no two point labels overlap`, () => {
      const data = analyze(exampleText(name)).data!;
      const doc = parse(renderSvg(data, 'quadrant', { width, head: 'all' }));
      const boxes = Array.from(doc.querySelectorAll('text.point-label'), (t) => {
        const size = Number(t.getAttribute('font-size') ?? 12);
        return { x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')) - size * 0.8, w: textWidth(t.textContent!, size), h: size, text: t.textContent };
      });
      assert.ok(boxes.length > 0);
      for (let a = 0; a < boxes.length; a++) {
        for (let b = a + 1; b < boxes.length; b++) {
          const p = boxes[a], q = boxes[b];
          const overlap = p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
          assert.ok(!overlap, `"${p.text}" and "${q.text}" overlap`);
        }
      }
    });
  }
}

test('at 1,000 px the y-axis title stays within the plot\'s height, below the legend', () => {
  const data = analyze(exampleText('mouse-two-contexts.attn.json')).data!;
  const doc = parse(renderSvg(data, 'quadrant', { width: 1000 }));
  const frame = doc.querySelector('g.axes rect')!;
  const innerH = Number(frame.getAttribute('height'));
  const yTitle = Array.from(doc.querySelectorAll('g.axes text')).find((t) => (t.getAttribute('transform') ?? '').startsWith('rotate(-90'))!;
  assert.ok(textWidth(yTitle.textContent!, 12) <= innerH, `${textWidth(yTitle.textContent!, 12)} px of title for a ${innerH} px plot`);
});

test('mouse in two contexts: every point is positive, so the quadrants split at the points\' mean, and say so', () => {
  const data = analyze(exampleText('mouse-two-contexts.attn.json')).data!;
  const svg = renderSvg(data, 'quadrant', { width: 1000 });
  const doc = parse(svg);
  assert.equal(doc.querySelectorAll('line.split').length, 2);
  assert.match(svg, /quadrants split at the mean of the points/);
});

test('the label placer takes the next free side, and gives up only when every side is taken', () => {
  const placer = new LabelPlacer();
  assert.deepEqual(placer.place([[0, 10]], 20, 10), [0, 10]);
  assert.deepEqual(placer.place([[5, 10], [100, 10]], 20, 10), [100, 10]);
  assert.equal(placer.place([[0, 10], [100, 10]], 20, 10), undefined);
});

// With "all heads" the quadrant plots one head, and the note saying so was cut
// at the panel's edge ("showing head…"). The note now wraps: all of it is on the picture.
test('quadrant with all heads at 430 px: the note saying which head is plotted is there whole, not cut', () => {
  for (const name of ['apple-watch-lens.attn.json', 'init-four-rules.attn.json']) {
    const data = analyze(exampleText(name)).data!;
    const doc = parse(renderSvg(data, 'quadrant', { width: 430, head: 'all' }));
    const lines = Array.from(doc.querySelectorAll('text.note'), (t) => Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join(''));
    const all = lines.join(' ');
    assert.match(all, /all heads: the joined output is \d+ wide, not d_model = \d+, so only head "[^"]+" is plotted; /, name);
    assert.ok(lines.every((l) => !l.endsWith('…')), `${name}: ${lines.join(' | ')}`);
    for (const l of lines) assert.ok(textWidth(l, 12) <= 430 - 24 + 1, `"${l}" fits 430 px`);
  }
  const four = parse(renderSvg(analyze(exampleText('init-four-rules.attn.json')).data!, 'quadrant', { width: 430, head: 'all' }));
  assert.match(Array.from(four.querySelectorAll('text.note'), (t) => t.textContent).join(' '), /3 other heads could be: pick one in the Head menu/);
});

// The widths test (Chromium, the panel's 13 px type) found tick labels on each other at the plot's
// corner ("-0.5" on "-0.5"), point labels on the quadrant names and on ticks ("orange′" on "0"), and
// "apple′" past the right edge at 430 px. Ticks and quadrant names now take their boxes, 1.4 em tall
// as the browser draws a line, before the points' labels are placed, all inside the picture.
for (const name of ['apple-watch-lens.attn.json', 'mouse-two-contexts.attn.json', 'apple-watch-raw.attn.json', 'multi-head-causal.attn.json']) {
  for (const width of [406, 602]) {
    test(`quadrant of ${name} at ${width} px in 13 px type: ticks, quadrant names and point labels apart, inside the picture`, () => {
      const data = analyze(exampleText(name)).data!;
      const dom = new JSDOM('<!doctype html><div id="r"></div>');
      const render = SPEC_ENTRIES.find((e) => e.name === 'quadrant')!.render;
      const h = render(dom.window.document.getElementById('r') as unknown as HTMLElement, data, {
        theme: makeTheme('dark', { fontSize: 13 }), width, head: 'all', input: 0, token: 0, matrixMode: 'weights', projection: 'wq', interactive: false,
      });
      const svgW = Number(h.svg.getAttribute('width'));
      const boxes = Array.from(h.svg.querySelectorAll('g.axes text:not([transform]), g.labels text')).map((t) => {
        const size = Number(t.getAttribute('font-size') ?? 13);
        const text = Array.from(t.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
        const w = textWidth(text, size), x = Number(t.getAttribute('x')), y = Number(t.getAttribute('y'));
        const anchor = t.getAttribute('text-anchor') ?? 'start';
        const left = anchor === 'middle' ? x - w / 2 : anchor === 'end' ? x - w : x;
        return { text, left, right: left + w, top: y - size * 1.1, bottom: y + size * 0.3 };
      });
      for (const b of boxes) assert.ok(b.left >= 0 && b.right <= svgW, `"${b.text}" (${b.left.toFixed(1)}..${b.right.toFixed(1)}) inside the ${svgW} px picture`);
      for (let a = 0; a < boxes.length; a++) {
        for (let b = a + 1; b < boxes.length; b++) {
          const p = boxes[a], q = boxes[b];
          const apart = p.right <= q.left + 1 || q.right <= p.left + 1 || p.bottom <= q.top + 1 || q.bottom <= p.top + 1;
          assert.ok(apart, `"${p.text}" and "${q.text}" do not overlap`);
        }
      }
      dom.window.close();
    });
  }
}

test('the principal components past QUADRANT_PCA are computed from one vector in k, and the plot says so; within it, from every vector', () => {
  // 90 inputs of 100 tokens at d_model 1,000: 9,000 vectors, 9 million numbers, over 8.4 million by a little.
  const d = 1000;
  const thin = (seed: number) => ({ init: 'xavier', shape: [d, 1], seed });
  const spec = (inputs: number) => JSON.stringify({
    embeddings: { a: Array.from({ length: d }, (_, t) => Math.sin(t)), b: Array.from({ length: d }, (_, t) => Math.cos(t * 3)) },
    inputs: Array.from({ length: inputs }, (_, i) => ({ name: `x${i}`, tokens: Array.from({ length: 100 }, (_, t) => ((t * 7 + i) % 3 ? 'a' : 'b')) })),
    heads: [{ name: 'h', wq: thin(1), wk: thin(2), wv: thin(3) }],
  });
  const over = analyze(spec(90)).data!;
  const outs = plottableOutputs(over, { head: 'all' });
  assert.equal(outs.rows, undefined, 'd_v 1: only the inputs are plotted');
  const sample = pcaSample(over, outs);
  assert.ok(typeof sample !== 'string');
  assert.equal(sample.vectors.length, 4500, 'one vector in 2');
  assert.deepEqual([...sample.vectors[1]], [...over.inputs[0].embeddings.data.subarray(2 * d, 3 * d)], 'the second kept is the third token');
  assert.equal(sample.note, 'the principal components of 9,000 vectors of d_model 1,000 needs 9.0 million numbers, over the budget of 8.4 million: they are computed from one vector in 2 (4,500 of them)');
  const svg = renderSvg(over, 'quadrant', { width: 900, head: 'all' });
  // The note wraps over lines (tspans): read as text, it is the whole sentence.
  assert.match(svg.replace(/<title>[^<]*<\/title>/g, '').replace(/<[^>]+>/g, ''), /they are\s*computed from one vector in 2/, 'each line of a wrapped note is a text of its own');
  assert.match(svg, /principal components of a sample of the vectors/);
  const within = analyze(spec(80)).data!;
  const all = pcaSample(within, plottableOutputs(within, { head: 'all' }));
  assert.ok(typeof all !== 'string' && all.vectors.length === 8000 && all.note === undefined, '8 million numbers: every vector');
  assert.match(renderSvg(within, 'quadrant', { width: 900, head: 'all' }), /principal components of all the vectors/);
});

test('vectors too wide for even two of them in the budget: the quadrant says so instead of a plot', () => {
  const d = 5_000_000;
  const inp = (name: string) => ({ name, tokens: ['a'], embeddings: { rows: 1, cols: d, data: new Float64Array(0) } });
  const data = { dModel: d, inputs: [inp('x'), inp('y'), inp('z')] } as unknown as AttentionData;
  assert.equal(pcaSample(data, { label: '' }), 'the principal components of 3 vectors of d_model 5,000,000 needs 15.0 million numbers, over the budget of 8.4 million: name the axes (views.quadrant) to plot vectors this wide');
  assert.ok(2 * d > QUADRANT_PCA.max);
});

/** Whether the segment a–b passes through the box (shrunk by 1 px): Liang–Barsky clipping. */
function crosses(x1: number, y1: number, x2: number, y2: number, b: { x: number; y: number; w: number; h: number }): boolean {
  const [l, r, t, bo] = [b.x + 1, b.x + b.w - 1, b.y + 1, b.y + b.h - 1];
  let u0 = 0, u1 = 1;
  const dx = x2 - x1, dy = y2 - y1;
  for (const [p, q] of [[-dx, x1 - l], [dx, r - x1], [-dy, y1 - t], [dy, bo - y1]]) {
    if (p === 0) { if (q < 0) return false; continue; }
    const u = q / p;
    if (p < 0) u0 = Math.max(u0, u); else u1 = Math.min(u1, u);
    if (u0 > u1) return false;
  }
  return true;
}

for (const name of ['apple-watch-lens.attn.json', 'mouse-two-contexts.attn.json', 'apple-watch-raw.attn.json']) {
  test(`quadrant of ${name} at 430, 700 and 1,200 px: no point label lies under an arrow or on a point`, () => {
    const data = analyze(exampleText(name)).data!;
    for (const width of [430, 700, 1200]) {
      const doc = parse(renderSvg(data, 'quadrant', { width, head: 'all' }));
      const arrows = Array.from(doc.querySelectorAll('g.arrows line'), (l) => ['x1', 'y1', 'x2', 'y2'].map((k) => Number(l.getAttribute(k))));
      const dots = Array.from(doc.querySelectorAll('g.points circle'), (c) => ['cx', 'cy', 'r'].map((k) => Number(c.getAttribute(k))));
      assert.ok(arrows.length > 0);
      for (const t of Array.from(doc.querySelectorAll('text.point-label'))) {
        const size = Number(t.getAttribute('font-size') ?? 13);
        const box = { x: Number(t.getAttribute('x')), y: Number(t.getAttribute('y')) - size * 0.8, w: textWidth(t.textContent!, size), h: size };
        for (const [x1, y1, x2, y2] of arrows) assert.ok(!crosses(x1, y1, x2, y2, box), `${width} px: "${t.textContent}" under the arrow ${[x1, y1, x2, y2].map(Math.round)}`);
        for (const [cx, cy, r] of dots) {
          const inside = cx + r > box.x + 1 && cx - r < box.x + box.w - 1 && cy + r > box.y + 1 && cy - r < box.y + box.h - 1;
          assert.ok(!inside, `${width} px: "${t.textContent}" on the point at ${Math.round(cx)}, ${Math.round(cy)}`);
        }
      }
    }
  });
}

test('mouse at 430 px: the y axis reads "← not animal · animal →", animal said once per end', () => {
  const data = analyze(exampleText('mouse-two-contexts.attn.json')).data!;
  const doc = parse(renderSvg(data, 'quadrant', { width: 430, head: 'all' }));
  const title = (cls: string) => Array.from(doc.querySelector(`text.${cls}`)!.childNodes).filter((c) => c.nodeType === 3).map((c) => c.textContent).join('');
  assert.equal(title('y-title'), '← not animal · animal →');
  assert.equal(title('x-title'), '← not tech · tech →');
});

test('axis titles: the label said once, each end once, whatever the words', () => {
  assert.deepEqual(axisTitles('animal', ['not animal', 'animal']), ['← not animal · animal →']);
  assert.deepEqual(axisTitles('time / watching', ['object', 'time']), ['time / watching: ← object · time →', '← object · time →', 'time / watching →']);
  assert.deepEqual(axisTitles('PC1 (40% of the variance)', undefined), ['PC1 (40% of the variance) →']);
  const rand = seeded(0xa815);
  const words = ['animal', 'not animal', 'tech', 'Tech', 'fruit', 'time', ' time ', 'object', ''];
  const count = (s: string, w: string) => s.split(w).length - 1;
  for (let k = 0; k < 500; k++) {
    const label = words[between(rand, 0, words.length - 1)];
    const ends: [string, string] = [words[between(rand, 0, words.length - 2)], words[between(rand, 0, words.length - 2)]];
    if (ends[0].trim() === '' || ends[1].trim() === '' || ends[0].trim().toLowerCase() === ends[1].trim().toLowerCase()) continue;
    for (const form of axisTitles(label, ends)) {
      const where = `label "${label}", ends ${JSON.stringify(ends)}: "${form}"`;
      // A label equal to an end is never written beside it: no word sequence twice in a row of ends.
      if (ends.some((e) => e.trim().toLowerCase() === label.trim().toLowerCase())) assert.equal(form, `← ${ends[0]} · ${ends[1]} →`, where);
      assert.ok(count(form, '←') <= 1 && count(form, '→') === 1, where);
    }
  }
});
