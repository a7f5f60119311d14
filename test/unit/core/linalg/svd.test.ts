// The core's SVD (src/core/linalg/svd.ts): ml-matrix's, on the matrix scaled by a power of two.
// On subnormal entries ml-matrix's iteration never ends (attn analyze hung); scaled, it ends, and the
// singular values are those of the same matrix at an ordinary scale times that power of two, exactly.
// Ordinary matrices get ml-matrix's very numbers; zeros give zeros, a non-finite entry NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Matrix as MlMatrix, SVD } from 'ml-matrix';
import { svd } from '../../../../src/core/linalg/svd.js';
import { between, seeded } from '../../../support/random.js';

const sorted = (v: number[]) => [...v].sort((a, b) => b - a);

test('100 random matrices from 1e-320 to 1e300: the SVD ends, and its values are the ordinary-scale ones times 2^k exactly', () => {
  const rand = seeded(101);
  for (let c = 0; c < 100; c++) {
    const rows = between(rand, 1, 5), cols = between(rand, 1, 5);
    const base = MlMatrix.from1DArray(rows, cols, Array.from({ length: rows * cols }, () => rand() * 2 - 1));
    // A power of two from 2^-1060 to 2^990: the scaled copy is exact (its entries stay normal or become subnormal).
    const k = between(rand, -1000, 990);
    const scaled = base.clone().mul(2 ** Math.trunc(k / 2)).mul(2 ** (k - Math.trunc(k / 2)));
    const got = sorted(svd(scaled).diagonal), want = sorted(svd(base).diagonal);
    for (let i = 0; i < want.length; i++) {
      const expected = want[i] * 2 ** k;
      assert.ok(Math.abs(got[i] - expected) <= Math.abs(expected) * 1e-9 + 2 ** -1074 * 64, `case ${c}: 2^${k}, σ${i} ${got[i]} vs ${expected}`);
    }
  }
});

test('an ordinary matrix gets ml-matrix\'s own numbers; zeros give zeros; an entry that is not finite gives NaN', () => {
  const m = new MlMatrix([[4, 3], [2, 1], [0, 1]]);
  assert.deepEqual(svd(m).diagonal, new SVD(m, { computeLeftSingularVectors: false, computeRightSingularVectors: false, autoTranspose: true }).diagonal);
  assert.deepEqual(svd(MlMatrix.zeros(3, 2)).diagonal, [0, 0]);
  assert.ok(svd(new MlMatrix([[1, Infinity], [0, 1]])).diagonal.every(Number.isNaN));
  // The spec that hung attn analyze: W_Q of entries near 1e-311.
  const tiny = new MlMatrix([[-1.77484771586e-311, -1.482340825255e-312, 1.5848344166296e-311], [-1.101509965e-315, -1.991479317e-314, -1.312816274e-315], [-1.52873853e-315, 1.0435328663e-313, 1.9310143881e-312]]);
  const s = sorted(svd(tiny).diagonal);
  assert.ok(s[0] > 2e-311 && s[0] < 3e-311, String(s[0]));
});
