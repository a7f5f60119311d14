// The layer's pieces (src/core/checkpoint/ops.ts) on numbers worked by hand: RoPE rotates the two
// halves of a head (not interleaved pairs) by position · θ^(−2i/d), LayerNorm and RMSNorm, gelu_new.
// The causal softmax and the products are the attention op's and linalg's, tested with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRope, geluNew, layerNorm, rmsNorm, ropeTables } from '../../../../src/core/checkpoint/ops.js';

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
