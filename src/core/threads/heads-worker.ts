// The second thread of a compute (heads-thread.ts starts it): takes the later half of an input's heads
// (or the later rows of concat · W_O), computes them with the core's own computeHeads (or matmul: the
// same code, so the same bits as on the first thread), posts them back with their buffers transferred (moved, not copied), and then counts the job
// done in the shared flags, which wakes the first thread blocked in Atomics.wait. Errors are posted
// as a message: the first thread then computes those heads itself.
import { workerData, type MessagePort } from 'node:worker_threads';
import { computeHeads, type HeadResult } from '../attention/attention.js';
import { matmul } from '../linalg/matrix.js';
import type { HeadsJob, HeadsReply, ProductJob } from './heads-thread.js';

const { port, flags } = (workerData ?? {}) as { port?: MessagePort; flags?: Int32Array };

function buffersOf(results: readonly HeadResult[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const r of results) {
    for (const m of [r.q, r.k, r.v, r.scores, r.scaled, r.weights, r.output]) buffers.add(m.data.buffer as ArrayBuffer);
  }
  return [...buffers];
}

if (port && flags) {
  port.on('message', (job: HeadsJob | ProductJob) => {
    let reply: HeadsReply;
    let transfer: ArrayBuffer[] = [];
    try {
      if ('a' in job) {
        const product = matmul(job.a, job.b).data;
        port.postMessage({ id: job.id, product }, [product.buffer as ArrayBuffer]);
        Atomics.store(flags, 1, job.id);
        Atomics.notify(flags, 1);
        return;
      }
      // The mask stays on the first thread, which puts its own in every result.
      const heads = computeHeads(job.x, job.heads, job.scale, job.masked).map(({ result, emptyRows }) => ({ result: { ...result, masked: new Uint8Array(0) }, emptyRows }));
      transfer = buffersOf(heads.map((h) => h.result));
      reply = { id: job.id, heads };
    } catch (e) {
      reply = { id: job.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply, transfer);
    Atomics.store(flags, 1, job.id);
    Atomics.notify(flags, 1);
  });
  Atomics.store(flags, 0, 1); // booted
  Atomics.notify(flags, 0);
}
