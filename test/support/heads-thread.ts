// The two-thread compute's helper for tests and the bench, which run from the TypeScript sources: its
// worker is heads-worker.ts under tsx's require hook (a worker does not inherit --import hooks), where
// the product's entry points pass the bundle dist/heads-worker.js.
import { join } from 'node:path';
import { HeadsThread } from '../../src/core/threads/heads-thread.js';
import { ROOT } from './paths.js';

export function sourceHeadsThread(): HeadsThread {
  return new HeadsThread(join(ROOT, 'src', 'core', 'threads', 'heads-worker.ts'), ['--require', 'tsx/cjs']);
}
