// The float32 products' helper threads for tests and the bench, which run from the TypeScript sources:
// the worker is kernel-worker.ts under tsx's require hook (a worker does not inherit --import hooks),
// where the product's entry points pass the bundle dist/kernel-worker.js.
import { join } from 'node:path';
import { KernelThreads } from '../../src/core/threads/kernel-thread.js';
import { ROOT } from './paths.js';

/**
 * The helper on the TypeScript source with `workers` workers (default: one per other core). It waits
 * for a worker up to two minutes (one compiling its sources on a busy machine can be slow), so a test
 * waits for the event; the bound only ends a wait on a worker that died while this thread was blocked.
 */
export function sourceKernelThreads(workers?: number, script = join(ROOT, 'src', 'core', 'threads', 'kernel-worker.ts'), minWork?: number): KernelThreads {
  return new KernelThreads(script, ['--require', 'tsx/cjs'], 120_000, workers, minWork);
}
