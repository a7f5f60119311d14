// The numbers the matrix prints: a rounded weight never reads as an exact 0 or 1 (the raw example's
// 0.0003 and 0.9993 did), and a score that is rounding noise of its terms (a real head's
// −8.88e-16, −1.57e-16 after scaling) reads ≈0 in the hover, not as a number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../../src/core/index.js';
import { at } from '../../../../../src/core/result/attention-data.js';
import { cellLines, cellText } from '../../../../../webview/views/spec/matrix.js';
import { textWidth } from '../../../../../webview/kit/format.js';
import { exampleText } from '../../../../support/specs.js';
import { seeded } from '../../../../support/random.js';

const parse = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;

/** The interval a cell's text claims: "<0.01" → [0, 0.01], "0.35" → ±half a unit of its last digit, "≈0" → near 0. */
function claimed(text: string): [number, number] {
  if (text === '≈0') return [-0.05, 0.05];
  if (text === '≈1') return [0.95, 1];
  const m = /^([<>]?)(-?\d+(?:\.(\d+))?)$/.exec(text);
  assert.ok(m, `"${text}" is a number`);
  const x = Number(m[2]);
  if (m[1] === '<') return [0, x];
  if (m[1] === '>') return [x, 1];
  const half = m[3] ? 0.5 * 10 ** -m[3].length : 0.5;
  return [x - half - 1e-12, x + half + 1e-12];
}

test('the raw example\'s weights: 0.0003 and 0.9993 never read "0" and "1", at every width that prints numbers', () => {
  const data = analyze(exampleText('apple-watch-raw.attn.json')).data!;
  const head = data.inputs[0].heads[0];
  const ws = Array.from(head.weights.data);
  assert.ok(ws.some((w) => w > 0 && w < 0.005) && ws.some((w) => w > 0.995 && w < 1), 'the example has weights that round to 0 and to 1');
  let checked = 0;
  for (const width of [430, 700, 1200]) {
    const doc = parse(renderSvg(data, 'matrix', { width, head: 0, matrixMode: 'weights' }));
    for (const t of Array.from(doc.querySelectorAll('text.value'))) {
      const rect = t.previousElementSibling!;
      const w = at(head.weights, Number(rect.getAttribute('data-query')), Number(rect.getAttribute('data-key')));
      const text = t.textContent!;
      assert.equal(text === '0', w === 0, `${width} px: weight ${w} reads "${text}"`);
      assert.equal(text === '1', w === 1, `${width} px: weight ${w} reads "${text}"`);
      const [lo, hi] = claimed(text);
      assert.ok(w >= lo && w <= hi, `${width} px: weight ${w} reads "${text}"`);
      checked++;
    }
  }
  assert.ok(checked >= 16, `${checked} numbers checked`);
});

test('a cell\'s text fits its cell or falls back to ≈0 / ≈1, never to a rounded 0 or 1', () => {
  assert.equal(cellText(0.0003, 1, true, 20, 13), '≈0');
  assert.equal(cellText(0.0003, 2, true, 60, 13), '<0.01');
  assert.equal(cellText(0.9993, 1, true, 20, 13), '≈1');
  assert.equal(cellText(0.9993, 2, true, 60, 13), '>0.99');
  assert.equal(cellText(-0.003, 2, false, 60, 13), '≈0');
  assert.equal(cellText(0, 2, true, 60, 13), '0');
  assert.ok(textWidth(cellText(0.0003, 1, true, 20, 13), 13) <= 20);
});

/** A spec of two-token inputs whose embeddings are orthogonal pairs (x, y) and (y, −x): every cross score is exactly 0 in exact arithmetic. */
function orthogonalSpec(rand: () => number): string {
  const d = 2 * (1 + Math.floor(rand() * 16));
  const a: number[] = [], b: number[] = [];
  for (let p = 0; p < d / 2; p++) {
    const scale = 10 ** (Math.floor(rand() * 6) - 3);
    const x = Number(((rand() - 0.5) * scale).toPrecision(7)), y = Number(((rand() - 0.5) * scale).toPrecision(7));
    a.push(x, y); b.push(y, -x);
  }
  // Both shuffled the same way: the cancelling terms are summed apart, where rounding shows.
  for (let i = d - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
    [b[i], b[j]] = [b[j], b[i]];
  }
  return JSON.stringify({
    features: Array.from({ length: d }, (_, k) => `f${k}`), embeddings: { a, b },
    inputs: [{ name: 'ab', tokens: ['a', 'b'] }], scale: 'sqrt_dk',
  });
}

test('orthogonal q and k: every hover reads ≈0 or 0 for the score and the scaled score, never a float\'s noise', () => {
  const rand = seeded(0x0a7b);
  let noisy = 0;
  for (let k = 0; k < 300; k++) {
    const text = orthogonalSpec(rand);
    const data = analyze(text).data!;
    const input = data.inputs[0];
    const score = at(input.heads[0].scores, 0, 1);
    if (score !== 0) noisy++;
    for (const [i, j] of [[0, 1], [1, 0]]) {
      const lines = cellLines(data, input, 0, i, j).join('\n');
      assert.doesNotMatch(lines, /\de-(1\d|[2-9]\d)/, `case ${k}: ${lines}`);
      assert.match(lines, /^scaled: (0|≈0) ÷ .* = (0|≈0)$/m, `case ${k}: ${lines}`);
    }
  }
  assert.ok(noisy > 20, `the family is not vacuous: ${noisy} scores were not exactly 0`);
});

test('"<" and ">" forms are held to half an em more room than their estimate: "<0.1" in a 24 px cell falls back to ≈0', () => {
  const size = 13;
  const w = textWidth('<0.1', size);
  assert.equal(cellText(0.003, 1, true, w, size), '≈0');
  assert.equal(cellText(0.003, 1, true, w + 0.5 * size, size), '<0.1');
  assert.equal(cellText(0.9993, 1, true, w, size), '≈1');
});
