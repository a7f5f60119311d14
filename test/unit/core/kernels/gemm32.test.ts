// The float32 kernel against its contract: the committed bytes are what the .wat sources compile to;
// the separate multiply-and-add loop gives the plain JavaScript reference's bits for every stored dtype,
// both layouts and odd shapes (the depth's blocks of 256 included); the fused loop is within float32
// rounding of a float64 product; a row's bits never depend on the other rows; hostile shapes are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gemm32FmaWasmBase64, gemm32PackWasmBase64, gemm32WasmBase64 } from '../../../../src/core/kernels/gemm32-wasm.js';
import { gemm32, gemmStored, gemmStoredReference, type WeightLayout } from '../../../../src/core/kernels/gemm32.js';
import { kernelVariant, productColumns, useKernel, useRowChunks, useWasmPacking, type KernelVariant } from '../../../../src/core/kernels/gemm32-kernel.js';
import { widenInto, type StoredMatrix } from '../../../../src/core/kernels/stored.js';
import { enableRelaxedSimd } from '../../../../src/core/threads/kernel-simd.js';
import { compileWat } from '../../../../scripts/compile-wat.js';
import { ROOT } from '../../../support/paths.js';
import { DTYPES, randomFloats, randomStored } from '../../../support/stored-weights.js';

enableRelaxedSimd();
const dir = join(ROOT, 'src', 'core', 'kernels');
const LAYOUTS: readonly WeightLayout[] = ['out-in', 'in-out'];
const VARIANTS: readonly KernelVariant[] = ['plain', 'fused'];

function weightFor(dtype: StoredMatrix['dtype'], layout: WeightLayout, k: number, m: number, seed: number): StoredMatrix {
  return layout === 'out-in' ? randomStored(dtype, m, k, seed) : randomStored(dtype, k, m, seed);
}

function withKernel<T>(variant: KernelVariant | 'js', run: () => T): T {
  useKernel(variant);
  try {
    return run();
  } finally {
    useKernel('auto');
  }
}

/** Index of the first cell whose bits differ, or −1. */
function firstDifference(a: Float32Array, b: Float32Array): number {
  assert.equal(a.length, b.length);
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return i;
  return -1;
}

test('gemm32-wasm.ts holds exactly the bytes gemm32.wat, gemm32-fma.wat and gemm32-pack.wat compile to (npm run build:wasm after editing)', async () => {
  for (const [wat, base64] of [['gemm32.wat', gemm32WasmBase64], ['gemm32-fma.wat', gemm32FmaWasmBase64], ['gemm32-pack.wat', gemm32PackWasmBase64]] as const) {
    const bytes = await compileWat(readFileSync(join(dir, wat), 'utf8'), wat);
    assert.equal(Buffer.from(bytes).toString('base64'), base64, wat);
  }
});

test('both loops load here (relaxed SIMD turned on), and the runtime default is the fused one', () => {
  for (const v of VARIANTS) assert.equal(withKernel(v, kernelVariant), v);
  assert.equal(kernelVariant(), 'fused');
  assert.equal(withKernel('js', kernelVariant), undefined);
});

const SHAPES: readonly (readonly [number, number, number])[] = [
  [1, 1, 1], [3, 5, 17], [5, 17, 3], [17, 255, 9], [7, 256, 8], [6, 257, 33], [13, 513, 5], [1, 3, 257], [31, 64, 600],
];

test('the separate multiply-and-add loop gives the reference bits for every dtype, layout and odd shape', () => {
  let seed = 1;
  for (const [n, k, m] of SHAPES) {
    for (const dtype of DTYPES) {
      for (const layout of LAYOUTS) {
        const x = randomFloats(n * k, seed++), w = weightFor(dtype, layout, k, m, seed++);
        const got = withKernel('plain', () => gemmStored(x, n, w, layout));
        const at = firstDifference(got, gemmStoredReference(x, n, w, layout));
        assert.equal(at, -1, `${n} × ${k} · ${dtype} ${layout} ${m}: cell ${at}`);
      }
    }
  }
});

test('packing the weight in JavaScript gives the same bits as packing it in WebAssembly', () => {
  let seed = 50;
  for (const [n, k, m] of SHAPES) {
    for (const dtype of DTYPES) {
      for (const layout of LAYOUTS) {
        const x = randomFloats(n * k, seed++), w = weightFor(dtype, layout, k, m, seed++);
        const packed = withKernel('fused', () => gemmStored(x, n, w, layout));
        useWasmPacking(false);
        try {
          assert.equal(firstDifference(withKernel('fused', () => gemmStored(x, n, w, layout)), packed), -1, `${n} × ${k} · ${dtype} ${layout} ${m}`);
        } finally {
          useWasmPacking(true);
        }
      }
    }
  }
});

test('the fused loop is within float32 rounding of a float64 product for every dtype and layout', () => {
  let seed = 100;
  for (const [n, k, m] of SHAPES) {
    for (const dtype of DTYPES) {
      for (const layout of LAYOUTS) {
        const x = randomFloats(n * k, seed++), w = weightFor(dtype, layout, k, m, seed++);
        const got = withKernel('fused', () => gemmStored(x, n, w, layout));
        const column = new Float32Array(k), one = new Float32Array(1);
        for (let j = 0; j < m; j++) {
          for (let t = 0; t < k; t++) {
            widenInto(w, layout === 'out-in' ? j * k + t : t * m + j, 1, one, 0);
            column[t] = one[0];
          }
          for (let i = 0; i < n; i++) {
            let exact = 0, size = 0;
            for (let t = 0; t < k; t++) { exact += x[i * k + t] * column[t]; size += Math.abs(x[i * k + t] * column[t]); }
            // A float32 sum of k terms, each step rounded once: |error| ≤ k · 2⁻²⁴ · Σ|terms|.
            assert.ok(Math.abs(got[i * m + j] - exact) <= k * 2 ** -24 * size + 1e-30, `${n} × ${k} · ${dtype} ${layout}: cell ${i}, ${j}`);
          }
        }
      }
    }
  }
});

test('a row of a product has the same bits as that row computed alone, on both loops', () => {
  const n = 23, k = 300, m = 45;
  for (const variant of VARIANTS) {
    for (const layout of LAYOUTS) {
      const x = randomFloats(n * k, 7), w = weightFor('BF16', layout, k, m, 8);
      withKernel(variant, () => {
        const all = gemmStored(x, n, w, layout);
        const tail = gemmStored(x.subarray(5 * k), n - 5, w, layout);
        assert.equal(firstDifference(all.subarray(5 * m), tail), -1, `${variant} ${layout}: rows 5… alone`);
        for (const i of [0, 6, n - 1]) {
          const row = gemmStored(x.subarray(i * k, (i + 1) * k), 1, w, layout);
          assert.equal(firstDifference(all.subarray(i * m, (i + 1) * m), row), -1, `${variant} ${layout}: row ${i}`);
        }
      });
    }
  }
});

test('an input too long for one chunk of packed rows gives the same bits a chunk at a time, also split in runs of columns', () => {
  const n = 29, k = 40, m = 37;
  const x = randomFloats(n * k, 61), w = weightFor('BF16', 'out-in', k, m, 62);
  for (const variant of VARIANTS) {
    const whole = withKernel(variant, () => gemmStored(x, n, w, 'out-in'));
    useRowChunks(4 * k * 12); // two panels of rows a chunk: 12, 12 and 5 rows (or 10, 10, 9 on 5-row panels)
    try {
      assert.equal(firstDifference(withKernel(variant, () => gemmStored(x, n, w, 'out-in')), whole), -1, `${variant}: in chunks`);
      const runs = new Float32Array(n * m);
      for (const [j0, j1] of [[0, 8], [8, 9], [9, 37]]) assert.ok(productColumns(x, n, k, w, 'out-in', j0, j1, runs, m, variant));
      assert.equal(firstDifference(runs, whole), -1, `${variant}: in chunks and runs`);
    } finally {
      useRowChunks(undefined);
    }
  }
});

test('the activation product is the same kernel: a · b and a · bᵀ match the stored-weight product', () => {
  const n = 9, k = 70, m = 21;
  const a = randomFloats(n * k, 3), b = randomFloats(k * m, 4);
  for (const variant of VARIANTS) {
    withKernel(variant, () => {
      const plain = gemm32(a, n, k, b, m, false);
      assert.equal(firstDifference(plain, gemmStored(a, n, { dtype: 'F32', rows: k, cols: m, data: b }, 'in-out')), -1);
      const transposed = gemm32(a, n, k, b, m, true);
      assert.equal(firstDifference(transposed, gemmStored(a, n, { dtype: 'F32', rows: m, cols: k, data: b }, 'out-in')), -1);
    });
  }
  assert.equal(firstDifference(withKernel('plain', () => gemm32(a, n, k, b, m, true)), gemmStoredReference(a, n, { dtype: 'F32', rows: m, cols: k, data: b }, 'out-in')), -1);
});

test('zero sizes give empty or zero products; a zero depth gives +0 in every cell', () => {
  const w = randomStored('BF16', 4, 0, 1);
  const out = gemmStored(new Float32Array(0), 3, w, 'out-in');
  assert.deepEqual([...out], new Array(12).fill(0));
  assert.ok(out.every((v) => Object.is(v, 0)));
  assert.equal(gemmStored(new Float32Array(0), 0, randomStored('F32', 5, 4, 2), 'in-out').length, 0);
  assert.equal(gemmStored(new Float32Array(10), 2, randomStored('F16', 0, 5, 3), 'out-in').length, 0);
});

test('hostile shapes are refused with a RangeError that names what is wrong, before any work', () => {
  const w = randomStored('F32', 8, 4, 1);
  assert.throws(() => gemmStored(new Float32Array(10), 3, w, 'out-in'), /x holds 10 numbers, not 3 × 4/);
  assert.throws(() => gemmStored(new Float32Array(10), -1, w, 'out-in'), /n is -1/);
  assert.throws(() => gemmStored(new Float32Array(10), 1.5, w, 'out-in'), /n is 1.5/);
  assert.throws(() => gemmStored(new Float32Array(10), NaN, w, 'out-in'), /n is NaN/);
  assert.throws(() => gemmStored(new Float32Array(8), 1, { ...w, rows: 2 ** 40 }, 'in-out'), /the weight holds 32 numbers/);
  assert.throws(() => gemmStored(new Float32Array(8), 2 ** 40, { ...w }, 'out-in'), RangeError);
  assert.throws(() => gemm32(new Float32Array(6), 2, 3, new Float32Array(5), 2, false), /the weight holds 5 numbers, not 3 × 2/);
});

test('every half float (subnormals, infinities and NaN included) and a rounded F64 widen as the reference widens them', () => {
  // x = 1 picks out each weight: row 0 of x · W is W's first row, widened (and added to +0).
  const halves = { dtype: 'F16', rows: 1, cols: 65536, data: Uint16Array.from({ length: 65536 }, (_, i) => i) } as const;
  const doubles = { dtype: 'F64', rows: 1, cols: 5, data: Float64Array.of(0.1, -1e-40, 1e300, 2 ** -149 * 0.75, 1 + 2 ** -24) } as const;
  for (const w of [halves, doubles]) {
    for (const wasmPacking of [true, false]) {
      useWasmPacking(wasmPacking);
      try {
        const got = withKernel('plain', () => gemmStored(Float32Array.of(1), 1, w, 'in-out'));
        const want = gemmStoredReference(Float32Array.of(1), 1, w, 'in-out'); // +0 + 1 · w: −0 comes out +0
        if (w.dtype === 'F16') assert.ok(want.some((v) => v > 0 && v < 2 ** -14) && want.includes(Infinity) && want.some(Number.isNaN));
        // 1 · NaN is a NaN whose payload the hardware may change: compare NaN by being NaN.
        const at = [...got].findIndex((v, i) => !(Object.is(v, want[i]) || (Number.isNaN(v) && Number.isNaN(want[i]))));
        assert.equal(at, -1, `${w.dtype} ${wasmPacking ? 'WebAssembly' : 'JavaScript'} packing: element ${at}`);
      } finally {
        useWasmPacking(true);
      }
    }
  }
});

test('where no kernel runs, gemmStored is the reference', () => {
  const x = randomFloats(6 * 20, 5), w = randomStored('F16', 20, 11, 6);
  assert.equal(firstDifference(withKernel('js', () => gemmStored(x, 6, w, 'in-out')), gemmStoredReference(x, 6, w, 'in-out')), -1);
});
