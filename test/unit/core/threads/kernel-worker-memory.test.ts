// The shared memory of weights a run has dropped is freed though the kernel worker read them
// (src/core/threads/kernel-worker.ts, worker-collect.ts): a job's message gives the worker an object
// for the weight's SharedArrayBuffer, which holds its memory until the worker's collector runs, and a
// worker that allocates almost nothing seldom collects. Switching between two models in the editor,
// that held the closed one's weights. The worker now collects its young objects after each job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gemmStored } from '../../../../src/core/kernels/gemm32.js';
import { installProductHelper } from '../../../../src/core/kernels/product-helper.js';
import { sourceKernelThreads } from '../../../support/kernel-thread.js';
import { randomFloats, randomStored } from '../../../support/stored-weights.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const sharedBytes = () => process.memoryUsage().arrayBuffers;

/** Products over `count` fresh shared weights of `bytes` each, on the threads; the weights then dropped. */
function productsOver(count: number, bytes: number): number {
  const k = 256, m = bytes / 4 / k, n = 4;
  let handed = 0;
  for (let i = 0; i < count; i++) {
    const w = randomStored('F32', k, m, i + 1, true);
    gemmStored(randomFloats(n * k, i + 100), n, w, 'in-out');
    handed++;
  }
  return handed;
}

test('weights the worker multiplied are freed once dropped: its memory returns to what it was', async () => {
  const threads = sourceKernelThreads(1, undefined, 1);
  await threads.ready();
  installProductHelper(threads);
  try {
    collect();
    const before = sharedBytes();
    const MB = 2 ** 20, count = 12, each = 16 * MB;
    productsOver(count, each);
    assert.ok(threads.handedOver() >= count, 'the worker took part in every product');
    // One small product more: the worker's collection after the last big job is then under way.
    productsOver(1, MB);
    // Until the worker has collected (a hang guard, not a measure: it takes microseconds).
    const deadline = performance.now() + 20_000;
    let now = sharedBytes();
    while (now - before > 4 * each && performance.now() < deadline) {
      collect();
      await new Promise((resolve) => setImmediate(resolve));
      now = sharedBytes();
    }
    assert.ok(now - before <= 4 * each, `${((now - before) / MB).toFixed(0)} MB of the ${count * each / MB} MB of dropped weights still held`);
  } finally {
    installProductHelper(undefined);
    await threads.close();
  }
});
