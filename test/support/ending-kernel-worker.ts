// The real kernel worker (kernel-worker.ts) in a thread that ends as its first job arrives: a listener
// registered before the worker's own calls process.exit, as code that dies mid-product would. The
// calling thread must learn it from the flags at once, not at its deadline.
import { workerData, type MessagePort } from 'node:worker_threads';

const { port } = (workerData ?? {}) as { port?: MessagePort };
port?.on('message', () => process.exit(3));
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../../src/core/threads/kernel-worker.ts');
