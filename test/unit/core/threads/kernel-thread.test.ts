// The float32 products on several threads: the column runs the threads claim give the one-thread bits
// on both kernel loops, every dtype and both layouts; a row's bits still do not depend on the other rows; a weight
// that is not shared stays on the calling thread; a worker that fails or never answers has its
// columns computed by the calling thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gemmStored, type WeightLayout } from '../../../../src/core/kernels/gemm32.js';
import { useKernel, type KernelVariant } from '../../../../src/core/kernels/gemm32-kernel.js';
import { installProductHelper } from '../../../../src/core/kernels/product-helper.js';
import type { StoredMatrix } from '../../../../src/core/kernels/stored.js';
import { KernelThreads, kernelThreads, MIN_WORK } from '../../../../src/core/threads/kernel-thread.js';
import { sourceKernelThreads } from '../../../support/kernel-thread.js';
import { ROOT } from '../../../support/paths.js';
import { DTYPES, randomFloats, randomStored } from '../../../support/stored-weights.js';

const n = 37, k = 300, m = 523; // 5.8 M multiply-adds: above the hand-over's threshold, m not a panel multiple

function weightFor(dtype: StoredMatrix['dtype'], layout: WeightLayout, seed: number, shared = true): StoredMatrix {
  return layout === 'out-in' ? randomStored(dtype, m, k, seed, shared) : randomStored(dtype, k, m, seed, shared);
}

function sameBits(a: Float32Array, b: Float32Array, what: string): void {
  assert.equal(a.length, b.length, what);
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  const at = ua.findIndex((v, i) => v !== ub[i]);
  assert.equal(at, -1, `${what}: cell ${at}`);
}

/** The product on one thread, then with `threads` installed (and how many column runs they took). */
function bothWays(threads: KernelThreads, x: Float32Array, rows: number, w: StoredMatrix, layout: WeightLayout): { one: Float32Array; split: Float32Array; handed: number } {
  installProductHelper(undefined);
  const one = gemmStored(x, rows, w, layout);
  const before = threads.handedOver();
  installProductHelper(threads);
  try {
    const split = gemmStored(x, rows, w, layout);
    return { one, split, handed: threads.handedOver() - before };
  } finally {
    installProductHelper(undefined);
  }
}

test('split between threads, a product has the one-thread bits on both loops, every dtype and layout', async () => {
  assert.ok(n * k * m >= MIN_WORK);
  const threads = sourceKernelThreads(1);
  try {
    await threads.ready();
    let seed = 1;
    for (const variant of ['plain', 'fused'] as const satisfies readonly KernelVariant[]) {
      useKernel(variant);
      for (const dtype of DTYPES) {
        for (const layout of ['out-in', 'in-out'] as const) {
          const x = randomFloats(n * k, seed++), w = weightFor(dtype, layout, seed++);
          const { one, split, handed } = bothWays(threads, x, n, w, layout);
          assert.ok(handed >= 1, `${variant} ${dtype} ${layout}: the worker took its run and maybe more`);
          sameBits(split, one, `${variant} ${dtype} ${layout}`);
        }
      }
    }
  } finally {
    useKernel('auto');
    await threads.close();
  }
});

test('on two threads, rows 5… of a product have the bits of the same rows computed alone', async () => {
  const threads = sourceKernelThreads(1);
  try {
    await threads.ready();
    const x = randomFloats(n * k, 11), w = weightFor('BF16', 'out-in', 12);
    installProductHelper(threads);
    const all = gemmStored(x, n, w, 'out-in'), tail = gemmStored(x.subarray(5 * k), n - 5, w, 'out-in');
    assert.ok(threads.handedOver() >= 2);
    sameBits(all.subarray(5 * m), tail, 'rows 5… alone');
  } finally {
    installProductHelper(undefined);
    await threads.close();
  }
});

test('a weight that is not in shared memory, or a small product, stays on the calling thread', async () => {
  const threads = sourceKernelThreads(1);
  try {
    await threads.ready();
    const x = randomFloats(n * k, 21);
    const local = bothWays(threads, x, n, weightFor('F16', 'in-out', 22, false), 'in-out');
    assert.equal(local.handed, 0);
    sameBits(local.split, local.one, 'unshared weight');
    const small = bothWays(threads, x, 2, weightFor('F16', 'in-out', 23), 'in-out');
    assert.equal(small.handed, 0);
  } finally {
    await threads.close();
  }
});

test('a worker that fails its jobs has their columns computed by the calling thread', async () => {
  const threads = sourceKernelThreads(1, join(ROOT, 'test', 'support', 'faulty-kernel-worker.ts'));
  try {
    await threads.ready();
    for (const seed of [31, 33]) {
      const x = randomFloats(n * k, seed), w = weightFor('BF16', 'in-out', seed + 1);
      const { one, split, handed } = bothWays(threads, x, n, w, 'in-out');
      assert.equal(handed, 0);
      sameBits(split, one, 'after a failed worker');
    }
  } finally {
    await threads.close();
  }
});

test('a worker that never answers is given up on after the deadline, and its columns computed here', async () => {
  process.env.KERNEL_WORKER_FAULT = 'silent';
  const threads = new KernelThreads(join(ROOT, 'test', 'support', 'faulty-kernel-worker.ts'), ['--require', 'tsx/cjs'], 50, 1);
  try {
    await threads.ready();
  } finally {
    delete process.env.KERNEL_WORKER_FAULT;
  }
  try {
    const x = randomFloats(n * k, 41), w = weightFor('F32', 'out-in', 42);
    const { one, split, handed } = bothWays(threads, x, n, w, 'out-in');
    assert.equal(handed, 0);
    sameBits(split, one, 'after a silent worker');
  } finally {
    await threads.close();
  }
});

test('ATTN_THREADS=1 installs no helper', () => {
  const before = process.env.ATTN_THREADS;
  process.env.ATTN_THREADS = '1';
  try {
    assert.equal(kernelThreads('unused.js'), undefined);
  } finally {
    if (before === undefined) delete process.env.ATTN_THREADS;
    else process.env.ATTN_THREADS = before;
  }
});
