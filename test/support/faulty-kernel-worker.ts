// A kernel worker that boots but never does its job: by default it reports every job
// failed (as the real worker does when its kernel throws); with KERNEL_WORKER_FAULT=silent it never answers (a worker
// stuck or dead). The calling thread must then compute those columns itself.
import { workerData, type MessagePort } from 'node:worker_threads';
import { ANSWERED, BOOTED, FAILED, type ColumnsJob } from '../../src/core/threads/kernel-thread.js';

const { port, flags } = (workerData ?? {}) as { port?: MessagePort; flags?: Int32Array };
const silent = process.env.KERNEL_WORKER_FAULT === 'silent';

if (port && flags) {
  port.on('message', (job: ColumnsJob) => {
    if (silent) return;
    Atomics.store(flags, FAILED, job.id);
    Atomics.store(flags, ANSWERED, job.id);
    Atomics.notify(flags, ANSWERED);
  });
  Atomics.store(flags, BOOTED, 1);
  Atomics.notify(flags, BOOTED);
}
