// The committed kernel bytes (src/core/kernels/gemm-wasm.ts) are what gemm.wat compiles to, so the
// reviewed source is the code that runs; and the memory cap sends a too-large product to JavaScript.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gemmWasmBase64 } from '../../../../src/core/kernels/gemm-wasm.js';
import { gemm, MAX_BYTES, wasmMemoryBytes } from '../../../../src/core/kernels/gemm.js';
import { zeros } from '../../../../src/core/linalg/matrix.js';
import { compileWat } from '../../../../scripts/compile-wat.js';
import { ROOT } from '../../../support/paths.js';

const dir = join(ROOT, 'src', 'core', 'kernels');

test('gemm-wasm.ts holds exactly the bytes gemm.wat compiles to (run npm run build:wasm after editing the .wat)', async () => {
  const bytes = await compileWat(readFileSync(join(dir, 'gemm.wat'), 'utf8'));
  assert.equal(Buffer.from(bytes).toString('base64'), gemmWasmBase64);
});

test('a product whose packed operands would pass the memory cap is left to JavaScript, before allocating', () => {
  // 1 × 2^25 · 2^25 × 1 packs 2 × 4 × 2^25 words = 2 GiB: over the cap; the shapes are all that is read.
  const long = 2 ** 25;
  const a = { rows: 1, cols: long, data: new Float64Array(0) };
  const b = { rows: long, cols: 1, data: new Float64Array(0) };
  assert.ok(8 * 8 * long > MAX_BYTES);
  assert.equal(gemm(a, b, false), undefined);
  assert.ok(gemm(zeros(2, 3), zeros(3, 2), false) instanceof Float64Array);
});

test('after a product that needed more than 64 MB the kernel lets its memory go and still computes right', () => {
  // 6,000 × 1,500 · 1,500 × 8: A alone packs to 72 MB.
  const n = 6000, k = 1500;
  const a = zeros(n, k), b = zeros(k, 8);
  a.data[k * (n - 1) + 1499] = 3;
  b.data[1499 * 8 + 7] = 2;
  const product = gemm(a, b, false)!;
  assert.equal(product[(n - 1) * 8 + 7], 6);
  assert.equal(wasmMemoryBytes(), 0, 'the grown memory is let go');
  assert.equal(product[0], 0);
  const small = gemm({ rows: 1, cols: 2, data: Float64Array.of(1, 2) }, { rows: 2, cols: 1, data: Float64Array.of(3, 4) }, false)!;
  assert.deepEqual(Array.from(small), [11]);
  assert.ok(wasmMemoryBytes() < 64 << 20, `${wasmMemoryBytes()} bytes kept`);
});

test('operands that are views into longer arrays are read as rows × cols only', () => {
  // 72 MB behind the view: more than the kernel's memory ever keeps, so copying it all would not fit.
  const backing = new Float64Array(9 << 20);
  backing.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  const a = { rows: 1, cols: 2, data: backing.subarray(1) }; // [2, 3]
  const b = { rows: 2, cols: 2, data: backing.subarray(4) }; // [[5, 6], [7, 8]], then more
  assert.deepEqual(Array.from(gemm(a, b, false)!), [2 * 5 + 3 * 7, 2 * 6 + 3 * 8]);
  assert.deepEqual(Array.from(gemm(a, b, true)!), [2 * 5 + 3 * 6, 2 * 7 + 3 * 8]);
});

test('the kernel itself on the smallest and emptiest shapes (matmul leaves these to the plain loop)', () => {
  const naive = (a: { rows: number; cols: number; data: Float64Array }, b: { rows: number; cols: number; data: Float64Array }) => {
    const out = new Float64Array(a.rows * b.cols);
    for (let i = 0; i < a.rows; i++) for (let j = 0; j < b.cols; j++) {
      let s = 0;
      for (let t = 0; t < a.cols; t++) s += a.data[i * a.cols + t] * b.data[t * b.cols + j];
      out[i * b.cols + j] = s;
    }
    return out;
  };
  const shapes = [[1, 1, 1], [1, 0, 1], [0, 3, 2], [2, 3, 0], [3, 5, 2], [5, 1, 7], [4, 4, 4], [7, 2, 9]];
  for (const [n, k, m] of shapes) {
    const a = zeros(n, k), b = zeros(k, m), bT = zeros(m, k);
    a.data.forEach((_, i) => { a.data[i] = ((i * 7) % 11) - 5; });
    b.data.forEach((_, i) => { b.data[i] = ((i * 5) % 9) - 4; });
    for (let t = 0; t < k; t++) for (let j = 0; j < m; j++) bT.data[j * k + t] = b.data[t * m + j];
    assert.deepEqual(gemm(a, b, false), naive(a, b), `${n}×${k}×${m}`);
    assert.deepEqual(gemm(a, bT, true), naive(a, b), `${n}×${k}×${m} transposed`);
  }
});
