// The layer's pieces (src/core/checkpoint/ops.ts) on numbers worked by hand: RoPE rotates the two
// halves of a head (not interleaved pairs) by position · θ^(−2i/d), on its first dims only when asked,
// LayerNorm and RMSNorm, gelu_new; erf, erfc and the exact GELU against Python's math.erf and
// PyTorch's float64 gelu.
// The causal softmax and the products are the attention op's and linalg's, tested with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seeded } from '../../../support/random.js';
import { applyRope, gelu, geluNew, layerNorm, rmsNorm, ropeTables } from '../../../../src/core/checkpoint/ops.js';
import { erf, erfc } from '../../../../src/core/checkpoint/erf.js';

const close = (a: ArrayLike<number>, b: readonly number[], tol = 1e-12) => {
  assert.equal(a.length, b.length);
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i] - b[i]) < tol, `${i}: ${a[i]} vs ${b[i]}`);
};

test('RoPE: position p turns (x[i], x[i + d/2]) by p · θ^(−2i/d); position 0 is unchanged', () => {
  const d = 4, theta = 100;
  const x = Float64Array.from([1, 2, 3, 4, /* position 1 */ 1, 2, 3, 4]);
  applyRope(x, 2, 1, d, ropeTables(2, d, theta));
  close(x.subarray(0, 4), [1, 2, 3, 4]);
  const a0 = 1, a1 = 1 / 100 ** (2 / 4);
  close(x.subarray(4), [1 * Math.cos(a0) - 3 * Math.sin(a0), 2 * Math.cos(a1) - 4 * Math.sin(a1), 3 * Math.cos(a0) + 1 * Math.sin(a0), 4 * Math.cos(a1) + 2 * Math.sin(a1)]);
});

test('LayerNorm (biased variance, eps inside the root), RMSNorm, gelu_new', () => {
  const w = Float32Array.from([1, 2]), b = Float32Array.from([0, 1]);
  close(layerNorm(Float64Array.from([1, 3]), 2, w, b, 0), [-1, 3]);
  close(rmsNorm(Float64Array.from([3, 4]), 2, w, 0), [3 / Math.sqrt(12.5), 8 / Math.sqrt(12.5)]);
  const g = Float64Array.from([1, -2]);
  geluNew(g);
  close(g, [0.8411919906082768, -0.04540230591222], 1e-12);
});

test('gelu_new on float32 activations is the float64 formula rounded to float32, to within one float32 step, over its whole range (seeded)', () => {
  // Where 1 + tanh u cancels in float64 (u below about −3), the tanh form keeps only |v| · 2⁻⁵³ of
  // absolute accuracy (0 below u ≈ −19) while the float32 form keeps the tiny value's digits: there
  // the two differ by the tanh form's own error, a few |v| · 2⁻⁵³.
  const rand = seeded(51);
  const values = [0, -0, 1e-30, -1e-30, 40, -40, 1e6, -1e6, ...Array.from({ length: 20000 }, () => (rand() - 0.5) * 2 * 10 ** (rand() * 4 - 2))];
  const narrow = Float32Array.from(values), wide = Float64Array.from(narrow);
  geluNew(narrow);
  geluNew(wide);
  for (let i = 0; i < values.length; i++) {
    const want = Math.fround(wide[i]), got = narrow[i];
    const step = Math.max(Math.abs(want) * 2 ** -23, Math.abs(values[i]) * 2 ** -50);
    assert.ok(Math.abs(got - want) <= step, `gelu_new(${Math.fround(values[i])}): ${got} vs ${want}`);
    assert.ok(Number.isFinite(got), `gelu_new(${values[i]}) = ${got}`);
  }
});

test('RoPE on the first dims of a head: the tables made for them turn those dims, the rest stay', () => {
  const x = Float64Array.from([1, 2, 3, 4, 5, 6, /* head 2 */ 7, 8, 9, 10, 11, 12]);
  applyRope(x, 1, 2, 6, ropeTables(1, 4, 100, 0), 4);
  close(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  const y = Float64Array.from([1, 2, 3, 4, 5, 6, /* position 1 */ 1, 2, 3, 4, 5, 6]);
  applyRope(y, 2, 1, 6, ropeTables(2, 4, 100), 4);
  const a0 = 1, a1 = 1 / 100 ** (2 / 4);
  close(y.subarray(6), [1 * Math.cos(a0) - 3 * Math.sin(a0), 2 * Math.cos(a1) - 4 * Math.sin(a1), 3 * Math.cos(a0) + 1 * Math.sin(a0), 4 * Math.cos(a1) + 2 * Math.sin(a1), 5, 6]);
});

test('erf and erfc to a few ulps of Python\'s math.erf and math.erfc; the exact GELU as PyTorch computes it in float64', () => {
  // Python 3's math.erf(z) and math.erfc(z), printed with repr.
  const want: [number, number][] = [[0.5, 0.5204998778130465], [-1.3, -0.9340079449406524], [2.7, 0.9998656672600594], [-4.2, -0.9999999971445058], [5.9, 0.9999999999999999], [7, 1]];
  for (const [z, e] of want) assert.ok(Math.abs(erf(z) - e) < 1e-15, `erf(${z}) ${erf(z)} vs ${e}`);
  for (const [a, e] of [[0.5, 0.4795001221869535], [2, 0.004677734981047265], [3.5, 7.430983723414128e-07], [9, 4.13703174651381e-37]]) {
    assert.ok(Math.abs(erfc(a) / e - 1) < 1e-14, `erfc(${a}) ${erfc(a)} vs ${e}`);
  }
  assert.ok(Number.isNaN(erf(NaN)));
  // torch.nn.functional.gelu(torch.tensor([1, -2, 3.5], dtype=torch.float64)).
  const g = Float64Array.from([1, -2, 3.5, -7]);
  gelu(g);
  const torch = [0.841344746068543, -0.04550026389635842, 3.4991857982233756];
  torch.forEach((t, i) => assert.ok(Math.abs(g[i] / t - 1) < 1e-13, `gelu ${i}: ${g[i]} vs ${t}`));
  // In the tail PyTorch's 1 + erf(x / √2) keeps 4 digits (−8.958667141456544e-12 at −7); −3.5 ·
  // math.erfc(7 / √2) keeps them all, as we do. Either is within 1e-16 of the other, far below 1e-9.
  assert.ok(Math.abs(g[3] / -8.958687807200846e-12 - 1) < 1e-13, `gelu(-7): ${g[3]}`);
});
