// The quadrant plot reads cleanly: labels never sit on each other, the axis titles stay beside the
// plot, and quadrants split where the points are when all of them are on one side of 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render.js';
import { analyze } from '../../../../../src/core/index.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { LabelPlacer } from '../../../../../webview/kit/label-placer.js';
import { exampleText } from '../../../../support/specs.js';
import { pcaSample, plottableOutputs } from '../../../../../webview/views/spec/quadrant.js';
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
  assert.match(svg, /they are computed from one vector in 2/);
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
