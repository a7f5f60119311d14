// The Spectrum view (webview/views/linalg/spectrum.ts) on weights whose singular values span the
// doubles: every σ it writes reads back as the value, each bar's
// share of the largest is between 0 and 100 %, and no NaN or Infinity is written (∞ only for a
// singular matrix's condition number).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { analyze } from '../../../../../src/core/index.js';
import { renderSvg } from '../../../../../src/cli/render/spec-views.js';
import type { SpectrumMatrixJson } from '../../../../../src/core/result/linalg-json.js';
import { seeded } from '../../../../support/random.js';
import { spreadSpec } from '../../../../support/spread-specs.js';

const doc = (svg: string) => new JSDOM(svg, { contentType: 'image/svg+xml' }).window.document;
const titles = (svg: string) => Array.from(doc(svg).querySelectorAll('title'), (t) => t.textContent ?? '');
/** The hovers of the singular values' bars, in order. */
const bars = (svg: string) => Array.from(doc(svg).querySelectorAll('rect.sigma title'), (t) => t.textContent ?? '');

/** fmt's text read back: with an exponent to half its last digit, else to half of its third decimal. */
function readsAs(s: string, v: number): boolean {
  const m = /^(-?\d+(?:\.(\d+))?)(?:e([+-]\d+))?$/.exec(s);
  if (!m) return false;
  const half = m[3] === undefined ? 0.5e-3 : 0.5 * 10 ** (Number(m[3]) - (m[2]?.length ?? 0));
  return Math.abs(Number(s) - v) <= half + Math.abs(v) * 1e-12 && (s !== '0' || v === 0);
}

test('a W_Q of σ 1e-310 and 5e-311 is 100% and 50% of its largest (a floor of 1e-300 made it 0.001%)', () => {
  const spec = { features: ['a', 'b'], embeddings: { x: [1, 0], y: [0, 1] }, inputs: [{ tokens: ['x', 'y'] }], heads: [{ wq: [[1e-310, 0], [0, 5e-311]] }] };
  const wq = bars(renderSvg(analyze(JSON.stringify(spec), { linalg: true }).data!, 'spectrum', { head: 0 })).slice(0, 2);
  assert.deepEqual(wq, ['σ1 = 1.00e-310\n100% of the largest', 'σ2 = 5.00e-311\n50% of the largest']);
});

test('150 generated specs with singular values from 1e-320 to 1e300: every σ reads back, shares are 0–100 %, no NaN or Infinity', () => {
  const rand = seeded(3030);
  let drawn = 0, refused = 0;
  for (let k = 0; k < 150; k++) {
    const data = analyze(JSON.stringify(spreadSpec(rand)), { linalg: true }).data;
    if (!data?.linalg) { refused++; continue; } // the attention itself overflows: the spec is refused before any view
    if (data.linalg.tooBig) {
      refused++;
      assert.match(data.linalg.tooBig, /past the largest double|could not be decomposed/, `spec ${k}`);
      continue;
    }
    for (let h = 0; h < data.linalg.spectra.length; h++) {
      drawn++;
      const svg = renderSvg(data, 'spectrum', { head: h });
      const text = titles(svg).join('\n');
      assert.doesNotMatch(text, /NaN|Infinity|undefined|−∞|(?<!condition number )∞(?! \(singular\))/, `spec ${k} head ${h}`);
      const sigmas = bars(svg);
      // The number written above a bar is its hover's σ, never NaN or a neighbour's.
      for (const g of Array.from(doc(svg).querySelectorAll('g.singular-values'))) {
        const rects = Array.from(g.querySelectorAll('rect.sigma'));
        for (const t of Array.from(g.querySelectorAll('text.sigma-value'))) {
          const bar = rects.find((r) => Math.abs(Number(r.getAttribute('x')) + Number(r.getAttribute('width')) / 2 - Number(t.getAttribute('x'))) < 0.01);
          assert.equal(bar?.querySelector('title')?.textContent?.split('\n')[0].replace(/^σ\d+ = /, ''), t.textContent, `spec ${k} head ${h}`);
        }
      }
      const spectra: readonly SpectrumMatrixJson[] = data.linalg.spectra[h] ?? [];
      assert.equal(sigmas.length, spectra.reduce((s, m) => s + Math.min(32, m.singularValues.length), 0), `spec ${k} head ${h}`);
      let at = 0;
      for (const m of spectra) {
        m.singularValues.forEach((v, i) => {
          const [first, second] = sigmas[at++].split('\n');
          const printed = first.replace(/^σ\d+ = /, '');
          assert.ok(readsAs(printed, v), `spec ${k} head ${h} ${m.name}: σ${i + 1} = ${v} printed ${printed}`);
          const share = /^(.+)% of the largest$/.exec(second);
          if (share) assert.ok(Number(share[1]) >= 0 && Number(share[1]) <= 100, `spec ${k} head ${h} ${m.name}: ${second}`);
          else assert.equal(second, 'every singular value is 0', `spec ${k} head ${h} ${m.name}`);
        });
      }
    }
  }
  assert.ok(drawn >= 100, `drawn ${drawn}, refused ${refused}`);
});
