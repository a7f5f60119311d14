import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { concatColumns, fromRows, matmul, matmulEach, matmulTransposed, toRows, transpose, zeros, type Matrix } from '../../../../src/core/linalg/matrix.js';
import { useWasmKernel, wasmKernelAvailable } from '../../../../src/core/kernels/gemm.js';

test('x · W = y for the seeds\' apple: [2, 0, 2] · W = [8, 8]', () => {
  assert.deepEqual(toRows(matmul(fromRows([[2, 0, 2]]), fromRows([[4, 3], [2, 1], [0, 1]]))), [[8, 8]]);
});

test('matmul and matmulTransposed agree with the textbook formula for every shape, odd ones too', () => {
  const dims = fc.integer({ min: 1, max: 7 });
  fc.assert(fc.property(dims, dims, dims, fc.integer(), (n, k, m, seed) => {
    const a = Array.from({ length: n }, (_, i) => Array.from({ length: k }, (_, t) => ((seed + i * 31 + t * 7) % 11) - 5));
    const b = Array.from({ length: k }, (_, t) => Array.from({ length: m }, (_, j) => ((seed + t * 13 + j * 3) % 9) - 4));
    const expected = a.map((r) => b[0].map((_, j) => r.reduce((s, v, t) => s + v * b[t][j], 0)));
    assert.deepEqual(toRows(matmul(fromRows(a), fromRows(b))), expected);
    // bᵀ written out directly, so this checks matmulTransposed on its own, not through transpose().
    const bT = b[0].map((_, j) => b.map((r) => r[j]));
    assert.deepEqual(toRows(matmulTransposed(fromRows(a), fromRows(bT))), expected);
    assert.deepEqual(toRows(transpose(fromRows(b))), bT);
  }));
});

test('the heads\' outputs are joined side by side', () => {
  assert.deepEqual(toRows(concatColumns([fromRows([[1], [2]]), fromRows([[3, 4], [5, 6]])])), [[1, 3, 4], [2, 5, 6]]);
});

// The products run on the WebAssembly kernel (packed 4 × 4 panels, blocks of 256 steps and 64 rows)
// and fall back to plain JavaScript: both against the naive triple loop, on shapes that cross every
// edge of the tiles and blocks. Both sum each cell in the same order, so they agree exactly.
const naive = (a: Matrix, b: Matrix): Float64Array => {
  const out = new Float64Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i++) {
    for (let j = 0; j < b.cols; j++) {
      let s = 0;
      for (let t = 0; t < a.cols; t++) s += a.data[i * a.cols + t] * b.data[t * b.cols + j];
      out[i * b.cols + j] = s;
    }
  }
  return out;
};

function random(rows: number, cols: number, seed: number): Matrix {
  const m = zeros(rows, cols);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < m.data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    m.data[i] = (s / 2 ** 32 - 0.5) * 4;
  }
  return m;
}

const closeTo = (actual: Float64Array, expected: Float64Array, what: string) => {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) {
    const tolerance = 1e-9 * Math.max(1, Math.abs(expected[i]));
    assert.ok(Math.abs(actual[i] - expected[i]) <= tolerance, `${what}: cell ${i} is ${actual[i]}, the triple loop gives ${expected[i]}`);
  }
};

for (const path of ['the WebAssembly kernel', 'plain JavaScript'] as const) {
  test(`${path}: matmul, matmulTransposed and matmulEach agree with the triple loop on odd and edge shapes`, () => {
    useWasmKernel(path === 'the WebAssembly kernel');
    try {
      const shapes: [number, number, number][] = [
        [1, 1, 1], [1, 7, 1], [3, 0, 5], [0, 4, 3], [4, 4, 0], [5, 3, 7], [4, 8, 4], [13, 257, 6],
        [67, 300, 9], [2, 513, 3], [65, 64, 66], [129, 5, 1],
      ];
      const dims = fc.tuple(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 70 }));
      shapes.push(...fc.sample(dims, { numRuns: 12, seed: 9 }));
      shapes.forEach(([n, k, m], index) => {
        const a = random(n, k, 3 * index + 1), b = random(k, m, 3 * index + 2);
        const expected = naive(a, b);
        const what = `${n}×${k} · ${k}×${m}`;
        closeTo(matmul(a, b).data, expected, `matmul ${what}`);
        closeTo(matmulTransposed(a, transpose(b)).data, expected, `matmulTransposed ${what}`);
        const [first, second] = matmulEach(a, [b, random(k, m + 2, index)]);
        closeTo(first.data, expected, `matmulEach ${what}`);
        assert.equal(second.cols, m + 2);
        assert.deepEqual(matmul(a, b).data, expected, `the same order of sums gives the same bits: ${what}`);
      });
    } finally {
      useWasmKernel(true);
    }
  });
}

test('rows that end in zeros (causal weights) skip those steps yet give the triple loop\'s bits', () => {
  const n = 70, dv = 9;
  const weights = random(n, n, 5);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) weights.data[i * n + j] = 0;
  weights.data[3 * n + 60] = -0; // a negative zero past the end of row 3 is still skipped
  const v = random(n, dv, 6);
  assert.deepEqual(matmul(weights, v).data, naive(weights, v));
});

test('a non-finite value where weights are 0 still gives NaN there, as the triple loop does', () => {
  const weights = fromRows([[1, 0, 0, 0, 0], [0.5, 0.5, 0, 0, 0]]);
  const v = fromRows([[1], [2], [3], [Infinity], [4]]);
  const expected = naive(weights, v);
  assert.ok(Number.isNaN(expected[0]));
  assert.deepEqual(matmul(weights, v).data, expected);
  // NaN in a, too: it is not a zero, so it is never skipped.
  assert.ok(Number.isNaN(matmul(fromRows([[1, NaN]]), fromRows([[1], [1]])).data[0]));
});

test('the kernel runs here (Node has WebAssembly SIMD), so the tests above cover it', () => {
  assert.equal(wasmKernelAvailable(), true);
});
