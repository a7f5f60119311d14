// The linear-algebra views' numbers, checked whole when they arrive (src/core/result/linalg-check.ts):
// what the core makes always passes; each malformed field that made a view throw mid-drawing or
// write "undefined" into its SVG (found by mutating every field of a real message) is refused,
// naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { analyze } from '../../../../src/core/index.js';
import { linalgProblem } from '../../../../src/core/result/wire.js';
import { renderSvg } from '../../../../src/cli/render/spec-views.js';
import { exampleFiles, exampleText } from '../../../support/specs.js';

test('the numbers the core makes pass the check, for every example and for degenerate and extreme matrices', () => {
  for (const file of exampleFiles()) {
    const linalg = analyze(readFileSync(file, 'utf8'), { linalg: true }).data?.linalg;
    if (linalg) assert.equal(linalgProblem(linalg), undefined, file);
  }
  const value = fc.constantFrom(0, 1, -1, 1e-300, 1e150, -1e150, 5e-324, 0.5);
  fc.assert(fc.property(fc.array(value, { minLength: 24, maxLength: 24 }), fc.integer({ min: 1, max: 3 }), (v, d) => {
    let k = 0;
    const next = () => v[k++ % v.length];
    const text = JSON.stringify({
      embeddings: { a: Array.from({ length: d }, next), b: Array.from({ length: d }, next), c: Array.from({ length: d }, next) },
      inputs: [{ tokens: ['a', 'b', 'c'] }],
      heads: [0, 1].map(() => ({ wq: Array.from({ length: d }, () => [next(), next()]), wk: Array.from({ length: d }, () => [next(), next()]), wv: Array.from({ length: d }, () => [next(), next()]) })),
    });
    const linalg = analyze(text, { linalg: true }).data?.linalg;
    if (linalg) assert.equal(linalgProblem(linalg), undefined, text);
  }), { numRuns: 60 });
});

test('malformed numbers are refused naming the field (each made a view throw or draw "undefined")', () => {
  const data = analyze(exampleText('spectrum-stretch-shear-rotate.attn.json'), { linalg: true }).data!;
  const text = JSON.stringify(data.linalg);
  const withRestricted = data.linalg!.spectra[0]!.findIndex((m) => m.restricted !== null);
  const at = `spectra[0][${withRestricted}]`;
  const cases: [(l: Record<string, any>) => void, string][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
    [(l) => { l.spectra[0][withRestricted].conditionNumber = 'x'; }, `${at}.conditionNumber is not a finite number`],
    [(l) => { l.spectra[0][withRestricted].effectiveRank = {}; }, `${at}.effectiveRank is not a finite number`],
    [(l) => { l.spectra[0][withRestricted].eigenvalues = 5; }, `${at}.eigenvalues is not a list`],
    [(l) => { l.spectra[0][withRestricted].eigenvalues = [null]; }, `${at}.eigenvalues[0] is not a list`],
    [(l) => { l.spectra[0][withRestricted].restricted.rows = 0; }, `${at}.restricted.rows is not a list`],
    [(l) => { l.spectra[0][withRestricted].restricted.rows = [0, 'x']; }, `${at}.restricted.rows[1] is not a whole number`],
    [(l) => { l.spectra[0][withRestricted].restricted.picture.matrix[0] = 1; }, `${at}.restricted.picture.matrix[0] is not a list`],
    [(l) => { l.spectra[0][withRestricted].restricted.picture.circle = {}; }, `${at}.restricted.picture.circle is not a list`],
    [(l) => { l.covariance[0].spaces[0].redundant = [{ a: 0 }]; }, 'covariance[0].spaces[0].redundant[0].b is not a whole number'],
    [(l) => { l.init.curves[0].activation = 'tanh'; }, 'init.curves[0].activation is not one of linear, relu'],
    [(l) => { l.overlap = { wq: [[1, 'x']], wk: [], wv: [] }; }, 'overlap.wq[0][1] is not a number'],
  ];
  for (const [mutate, message] of cases) {
    const l = JSON.parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    mutate(l);
    assert.equal(linalgProblem(l), message);
  }
  // What the check lets through, the views draw: the unmutated numbers, in each of the four views.
  for (const view of ['spectrum', 'heads', 'covariance', 'init'] as const) assert.doesNotMatch(renderSvg(data, view), /undefined|NaN/, view);
});
