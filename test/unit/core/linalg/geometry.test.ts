// Geometry: q · k = |q||k| cos θ, exactly, and the seed's 136 = 11.66 · 11.66 · 1.000 on screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JSDOM } from 'jsdom';
import { degreesText, pairGeometry } from '../../../../src/core/linalg/geometry.js';
import { renderSvg } from '../../../../src/cli/render/spec-views.js';
import { analyze } from '../../../../src/core/index.js';
import { exampleText } from '../../../support/specs.js';

test('q · k = |q| |k| cos θ, and the plane keeps both lengths and the angle, in any dimension', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 8 }).chain((d) => fc.tuple(
    fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: d, maxLength: d }),
    fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: d, maxLength: d }))), ([q, k]) => {
    const g = pairGeometry(q, k);
    const dot = q.reduce((s, v, i) => s + v * k[i], 0);
    assert.ok(Math.abs(g.dot - dot) < 1e-9);
    if (g.qNorm > 1e-6 && g.kNorm > 1e-6) assert.ok(Math.abs(g.qNorm * g.kNorm * g.cos - dot) < 1e-8 * Math.max(1, Math.abs(dot)));
    assert.ok(Math.abs(Math.hypot(...g.q2) - g.qNorm) < 1e-8 * Math.max(1, g.qNorm));
    assert.ok(Math.abs(g.q2[0] * g.k2[0] - dot) < 1e-8 * Math.max(1, Math.abs(dot)), 'the shadow times |k| is the score');
    assert.ok(g.degrees >= 0 && g.degrees <= 180);
  }), { numRuns: 300 });
});

test('the seed: q_watch · k_apple = |q||k| cos θ = 11.66 · 11.66 · 1.000 = 136 in the geometry view of "tech lens"', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const svg = renderSvg(data, 'geometry', { head: 1, token: 3 });
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const formula = Array.from(doc.querySelector('text.formula')!.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');
  assert.equal(formula, 'q_watch · k_apple = |q||k| cos θ = 11.66 · 11.66 · 1.000 = 136');
  assert.match(doc.documentElement.textContent!, /θ = 0°/);
  // The table: watch's own key scores 64, at 14° and |k| 5.66.
  const shown = Array.from(doc.querySelectorAll('g.keys text'), (t) => Array.from(t.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('')).join('|');
  assert.match(shown, /4\. watch\|5\.66\|0\.970\|14°\|64\|/);
  assert.doesNotMatch(svg, /NaN|undefined/);
});

test('a zero query has no angle: cos θ is 0, and nothing is NaN', () => {
  const g = pairGeometry([0, 0], [1, 2]);
  assert.deepEqual([g.cos, g.degrees, g.dot], [0, 90, 0]);
});

test('a key of length 1e300 (found by the hostile property test): finite lengths and coordinates, never NaN', () => {
  const g = pairGeometry([0, 1], [0, 1e300]);
  assert.equal(g.kNorm, 1e300);
  assert.equal(g.cos, 1);
  assert.ok([...g.q2, ...g.k2, g.shadow, g.degrees].every(Number.isFinite));
});

test('the matrix view\'s cosine mode: watch → apple is 1.000 (same direction) while the raw score is 136', () => {
  const data = analyze(exampleText('apple-watch-lens.attn.json')).data!;
  const svg = renderSvg(data, 'matrix', { head: 1, matrixMode: 'cosine', width: 900 });
  const doc = new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
  const cell = doc.querySelector('rect.cell[data-query="3"][data-key="2"]')!;
  const tip = cell.querySelector('title')?.textContent ?? doc.querySelector('[data-query="3"][data-key="2"] title')?.textContent ?? '';
  assert.match(tip, /= \|q\|\|k\| cos θ = 11\.66 · 11\.66 · 1\.000 \(θ = 0°\)/);
  assert.match(doc.querySelector('g.legend')!.textContent!, /cosine q·k ÷ \(\|q\|\|k\|\): direction only.*-1.*1/);
});

test('identical directions are exactly 0° (acos of a rounded cosine gave 8.54e-7°), and small angles keep their digits', () => {
  const same = pairGeometry([1, 3, 0], [1, 3, 0]);
  assert.equal(same.degrees, 0);
  assert.equal(same.cos, 1);
  assert.equal(pairGeometry([10, 6], [20, 12]).degrees, 0, 'one direction, two lengths');
  // 1e-9 rad between two unit vectors: acos(cos θ) returns 0 or 2.1e-8 rad here; atan2 keeps it.
  const tiny = pairGeometry([1, 0], [1, 1e-9]);
  assert.ok(Math.abs(tiny.degrees - (1e-9 * 180) / Math.PI) < 1e-15, `${tiny.degrees}`);
  assert.ok(Math.abs(pairGeometry([1, 0], [-1, 0]).degrees - 180) < 1e-12);
  assert.equal(degreesText(8.54e-7), '0°');
  assert.equal(degreesText(14.036), '14°');
  assert.equal(degreesText(77.0957), '77.1°');
  assert.equal(degreesText(90), '90°');
});
