// A helper thread of the float32 products (kernel-thread.ts starts one per other core): computes the
// output columns it is given on the kernel the calling thread named (so every thread sums the same
// way), reading x and the weight where they lie in shared memory and writing into the shared output,
// then counts the job done in its flags, which wakes the calling thread blocked in Atomics.wait. A
// job it cannot do (no such kernel here, an error) is counted failed: the calling thread does those
// columns itself.
import { workerData, type MessagePort } from 'node:worker_threads';
import { productColumns } from '../kernels/gemm32-kernel.js';
import { enableRelaxedSimd } from './kernel-simd.js';
import { ANSWERED, BOOTED, FAILED, type ColumnsJob } from './kernel-thread.js';

enableRelaxedSimd();

const { port, flags } = (workerData ?? {}) as { port?: MessagePort; flags?: Int32Array };

if (port && flags) {
  port.on('message', (job: ColumnsJob) => {
    let ok = false;
    try {
      ok = productColumns(job.x, job.n, job.k, job.w, job.layout, job.j0, job.j1, job.out, job.ldo, job.variant);
    } catch {
      ok = false;
    }
    if (!ok) Atomics.store(flags, FAILED, job.id);
    Atomics.store(flags, ANSWERED, job.id);
    Atomics.notify(flags, ANSWERED);
  });
  Atomics.store(flags, BOOTED, 1);
  Atomics.notify(flags, BOOTED);
}
