// A helper thread of the float32 products (kernel-thread.ts starts one per other core): claims runs of
// a product's output columns until none is left and computes them on the kernel the calling thread
// named (so every thread sums the same way), reading x and the weight where they lie in shared memory
// and writing into the shared output, then counts the job done in its flags, which wakes the calling
// thread blocked in Atomics.wait. A job it cannot do (no such kernel here, an error) is counted failed:
// the calling thread computes the runs it left unwritten.
import { workerData, type MessagePort } from 'node:worker_threads';
import { productRuns } from '../kernels/gemm32-kernel.js';
import { enableRelaxedSimd } from './kernel-simd.js';
import { minorCollector } from './worker-collect.js';
import { ANSWERED, BOOTED, claimedRuns, ENDED, FAILED, type ColumnsJob } from './kernel-thread.js';

enableRelaxedSimd();

const { port, flags } = (workerData ?? {}) as { port?: MessagePort; flags?: Int32Array };

if (port && flags) {
  const collect = minorCollector();
  // A worker that ends (an uncaught error, process.exit) is seen by the calling thread only through its
  // flags: the 'error' and 'exit' events reach that thread after its Atomics.wait, which would otherwise
  // last the whole deadline (10 s at least). Registered first, so it runs however the worker ends.
  process.on('exit', () => {
    Atomics.store(flags, BOOTED, 0);
    Atomics.store(flags, FAILED, ENDED);
    Atomics.store(flags, ANSWERED, ENDED);
    Atomics.notify(flags, ANSWERED);
  });
  port.on('message', (job: ColumnsJob) => {
    let ok = false;
    try {
      ok = productRuns(job.x, job.n, job.k, job.w, job.layout, claimedRuns(job), job.out, job.m, job.variant);
    } catch {
      ok = false;
    }
    if (!ok) Atomics.store(flags, FAILED, job.id);
    Atomics.store(flags, ANSWERED, job.id);
    Atomics.notify(flags, ANSWERED);
    // Once this handler has returned (the job unreachable), before the next: no weight is held here.
    setImmediate(collect);
  });
  Atomics.store(flags, BOOTED, 1);
  Atomics.notify(flags, BOOTED);
}
