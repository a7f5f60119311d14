// A kernel worker that ends in the middle of a product (src/core/threads/kernel-worker.ts): the calling
// thread, blocked in Atomics.wait, cannot see the worker's 'exit' event, so the worker says it in its
// flags as it ends. The product is then finished here with the one-thread bits, well before the wait's
// deadline, and the later products stay on the calling thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gemmStored } from '../../../../src/core/kernels/gemm32.js';
import { installProductHelper } from '../../../../src/core/kernels/product-helper.js';
import { KernelThreads } from '../../../../src/core/threads/kernel-thread.js';
import { ROOT } from '../../../support/paths.js';
import { randomFloats, randomStored, DTYPES } from '../../../support/stored-weights.js';
import { seeded } from '../../../support/random.js';

/** The wait's deadline; a product that takes half of it waited for the dead worker. */
const DEADLINE_MS = 60_000;

test('a worker that ends mid-product: its columns are computed here, without waiting out the deadline', async () => {
  const threads = new KernelThreads(join(ROOT, 'test', 'support', 'ending-kernel-worker.ts'), ['--require', 'tsx/cjs'], DEADLINE_MS, 1, 1);
  await threads.ready();
  try {
    for (let seed = 1; seed <= 3; seed++) {
      const r = seeded(seed), int = (below: number) => Math.floor(r() * below);
      // m over two column runs (64 columns at least each), so the worker has one of its own.
      const dtype = DTYPES[int(DTYPES.length)], n = 1 + int(9), k = 16 + int(200), m = 160 + int(600);
      const x = randomFloats(n * k, seed), w = randomStored(dtype, k, m, seed + 40, true);
      installProductHelper(undefined);
      const one = gemmStored(x, n, w, 'in-out');
      installProductHelper(threads);
      const started = performance.now();
      const split = gemmStored(x, n, w, 'in-out');
      const ms = performance.now() - started;
      installProductHelper(undefined);
      assert.ok(ms < DEADLINE_MS / 2, `product ${seed} took ${ms.toFixed(0)} ms: it waited for the ended worker`);
      assert.deepEqual(new Uint32Array(split.buffer, split.byteOffset, split.length), new Uint32Array(one.buffer, one.byteOffset, one.length), `${dtype} ${n}×${k}×${m}`);
    }
    assert.equal(threads.handedOver(), 0);
  } finally {
    installProductHelper(undefined);
    await threads.close();
  }
});
