// The two-thread compute's helper for tests and the bench, which run from the TypeScript sources: its
// worker is heads-worker.ts under tsx's require hook (a worker does not inherit --import hooks), where
// the product's entry points pass the bundle dist/heads-worker.js.
import { join } from 'node:path';
import { HeadsThread } from '../../src/core/threads/heads-thread.js';
import { ROOT } from './paths.js';

/**
 * The helper on the TypeScript source. It waits for its worker up to two minutes (a worker compiling
 * its sources on a busy machine can pass the product's ten seconds), so a test of the hand-over waits
 * for the event; the bound only ends a wait on a worker that died while this thread was blocked.
 */
export function sourceHeadsThread(): HeadsThread {
  return new HeadsThread(join(ROOT, 'src', 'core', 'threads', 'heads-worker.ts'), ['--require', 'tsx/cjs'], 120_000);
}
