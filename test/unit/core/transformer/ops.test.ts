// The layer's pieces (src/core/transformer/ops.ts) on numbers worked by hand: RoPE rotates the two
// halves of a head (not interleaved pairs) by position · θ^(−2i/d), LayerNorm and RMSNorm, gelu_new,
// the causal softmax, and the product with and without the kernel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRope, causalSoftmax, geluNew, layerNorm, matmul, rmsNorm, ropeTables } from '../../../../src/core/transformer/ops.js';
import { useWasmKernel } from '../../../../src/core/kernels/gemm.js';

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

test('causal softmax: row i over keys 0…i after the scale, exact zeros after', () => {
  const s = Float64Array.from([9, 9, 2, 0]);
  causalSoftmax(s, 2, 2);
  close(s, [1, 0, Math.exp(1) / (Math.exp(1) + 1), 1 / (Math.exp(1) + 1)]);
});

test('matmul: the kernel and the plain loops agree, plain and transposed', () => {
  const a = Float64Array.from({ length: 15 }, (_, i) => i - 7), b = Float64Array.from({ length: 20 }, (_, i) => (i * 3) % 7 - 3);
  const fast = [matmul(a, 3, 5, b, 4, false), matmul(a, 3, 5, b, 4, true)];
  useWasmKernel(false);
  try {
    const slow = [matmul(a, 3, 5, b, 4, false), matmul(a, 3, 5, b, 4, true)];
    assert.deepEqual(fast, slow);
    let s = 0;
    for (let t = 0; t < 5; t++) s += a[5 + t] * b[t * 4 + 2];
    assert.equal(slow[0][4 + 2], s);
  } finally {
    useWasmKernel(true);
  }
});
