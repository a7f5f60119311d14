// Every core for the float32 products, where Node runs them (the attn CLI, the editor's model worker):
// a ProductHelper (core/kernels) that shares a product's output columns out between the calling thread
// and one worker thread per other core (kernel-worker.ts). The columns are cut into runs that the
// threads claim one at a time from a shared counter (each worker's first run is set aside for it), so
// a thread whose core is busy with something else takes fewer; the calling thread then blocks in
// Atomics.wait until the workers are done. A weight over a SharedArrayBuffer (the forward stores them
// there) is read by the workers where it lies; x is copied into a shared buffer once per product, and
// every thread writes its runs into a shared output. Every thread runs the same kernel, and a cell's sum
// order depends on the depth alone, so the split changes no bit.
//
// The workers start at the first product big enough to share and take work once they have booted
// (until then the calling thread does it all). They are unref'd: they never keep a process alive. A run
// that a worker does not finish (it fails, or does not answer within a generous deadline) is computed
// here instead, and the helper stops handing work over. ATTN_THREADS=1 turns it off.
//
// The worker's script is the caller's to name: an entry point passes the bundle beside it
// (dist/kernel-worker.js), the tests and the bench the TypeScript source with their loader in
// execArgv (test/support/kernel-thread.ts).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { productColumns, productRuns, type ColumnRuns, type KernelVariant } from '../kernels/gemm32-kernel.js';
import { PANEL_COLS } from '../kernels/pack32.js';
import type { ProductHelper } from '../kernels/product-helper.js';
import { referenceColumns } from '../kernels/gemm32.js';
import type { StoredMatrix, WeightLayout } from '../kernels/stored.js';
import { enableRelaxedSimd } from './kernel-simd.js';

enableRelaxedSimd();

/** A product whose column runs the threads claim: x, the weight and out all over SharedArrayBuffers. */
export interface ColumnsJob {
  readonly id: number;
  readonly x: Float32Array;
  readonly n: number;
  readonly k: number;
  readonly w: StoredMatrix;
  readonly layout: WeightLayout;
  readonly variant: KernelVariant;
  /** n × m, rows m floats apart. */
  readonly out: Float32Array;
  readonly m: number;
  /** Columns per run (the last may be shorter). */
  readonly run: number;
  /** [0]: the next run to claim. */
  readonly counter: Int32Array;
  /** Per run: 0 until written, then 1 + the index of the thread that wrote it (0: the calling thread). */
  readonly done: Int32Array;
  /** This thread's index (1…) and so its first run. */
  readonly thread: number;
}

/** The runs of a job as a thread claims them: its own first, then the next unclaimed until none is left. */
export function claimedRuns(job: Pick<ColumnsJob, 'm' | 'run' | 'counter' | 'done' | 'thread'>): ColumnRuns {
  const runs = Math.ceil(job.m / job.run);
  let first = true;
  const span = (r: number) => (r < runs ? ([r * job.run, Math.min(job.m, (r + 1) * job.run)] as const) : undefined);
  return {
    widest: job.run,
    next: () => {
      if (first) {
        first = false;
        return span(job.thread);
      }
      return span(Atomics.add(job.counter, 0, 1));
    },
    done: (j0) => Atomics.store(job.done, j0 / job.run, job.thread + 1),
  };
}

/** A worker's flags: 1 once booted; the id of the last job it answered; of the last it could not do. */
export const BOOTED = 0, ANSWERED = 1, FAILED = 2;
/** What a worker that is ending writes as answered and failed: past every job, so a wait on any ends. */
export const ENDED = 0x7fffffff;

/**
 * Below this many multiply-adds a hand-over is not worth its message and wake-up. Measured by npm run
 * bench:kernel on two cores: one token through 768 → 2304 (1.8 M) took 0.57 ms on two threads against
 * 0.95 on one (the weight's packing is shared out too); through 768 → 768 (0.6 M) 0.30 against 0.33;
 * through 64 → 768 (0.05 M) 0.07 against 0.03.
 */
export const MIN_WORK = 1 << 20;
/** Workers at most, whatever the machine. */
const MAX_WORKERS = 15;
/** How long to wait for a worker at least, and at most this many times the calling thread's own share. */
const MIN_WAIT_MS = 10_000;
const WAIT_FACTOR = 20;

/** Atomics.waitAsync (Node 16+; newer than the lib the project's types target). */
const waitAsync = (Atomics as unknown as {
  waitAsync(a: Int32Array, index: number, value: number, ms: number): { async: boolean; value: unknown };
}).waitAsync;

interface Helper {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly flags: Int32Array;
}

export class KernelThreads implements ProductHelper {
  private helpers: Helper[] | undefined;
  private broken = false;
  private jobs = 0;
  private handed = 0;
  private sharedX = new Float32Array(new SharedArrayBuffer(0));
  private sharedOut = new Float32Array(new SharedArrayBuffer(0));

  /**
   * `script`: the worker's file (dist/kernel-worker.js); `execArgv`: its Node options (a loader, for a
   * .ts source); `minWaitMs`: how long to wait for a worker at least; `workers`: how many;
   * `minWork`: the fewest multiply-adds handed over (the bench lowers it to find the crossover).
   */
  constructor(
    private readonly script: string,
    private readonly execArgv: readonly string[] = [],
    private readonly minWaitMs = MIN_WAIT_MS,
    readonly workers = Math.min(MAX_WORKERS, availableParallelism() - 1),
    private readonly minWork = MIN_WORK,
  ) {}

  product(x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout, variant: KernelVariant, out: Float32Array): boolean {
    const m = layout === 'out-in' ? w.rows : w.cols;
    if (this.broken || this.workers < 1 || n * k * m < this.minWork || !(w.data.buffer instanceof SharedArrayBuffer)) return false;
    const helpers = (this.helpers ??= this.boot()).filter((h) => Atomics.load(h.flags, BOOTED) === 1);
    if (this.broken || helpers.length === 0) return false;
    const threads = helpers.length + 1;
    // About four runs a thread, whole panels, no wider than the kernel's tile.
    const run = Math.min(512, PANEL_COLS * Math.max(4, Math.ceil(m / (4 * threads * PANEL_COLS))));
    const runs = Math.ceil(m / run);
    if (runs < threads) return false;
    const x0 = this.scratch('sharedX', n * k), out0 = this.scratch('sharedOut', n * m);
    x0.set(x.subarray(0, n * k));
    const id = ++this.jobs;
    const counter = new Int32Array(new SharedArrayBuffer(4)), done = new Int32Array(new SharedArrayBuffer(4 * runs));
    counter[0] = threads; // runs 0…threads − 1 are each thread's first
    const job = (thread: number): ColumnsJob => ({ id, x: x0, n, k, w, layout, variant, out: out0, m, run, counter, done, thread });
    helpers.forEach((h, i) => h.port.postMessage(job(i + 1)));
    const started = performance.now();
    try {
      // Where this thread's kernel cannot run it claims nothing, and its runs are computed below.
      productRuns(x0, n, k, w, layout, claimedRuns(job(0)), out0, m, variant);
    } finally {
      // Even after an error here: no worker may still be writing when the buffers serve the next product.
      const ownMs = performance.now() - started;
      for (const h of helpers) this.wait(h, id, ownMs);
    }
    // Which runs are written, read before they are copied: a worker given up on may still be writing.
    const written = Array.from({ length: runs }, (_, r) => Atomics.load(done, r));
    out.set(out0.subarray(0, n * m));
    for (let r = 0; r < runs; r++) {
      if (written[r] > 1) this.handed++;
      if (written[r] > 0) continue;
      const j0 = r * run, j1 = Math.min(m, j0 + run);
      if (!productColumns(x, n, k, w, layout, j0, j1, out, m, variant)) referenceColumns(x, n, k, w, layout, j0, j1, out, m);
    }
    return true;
  }

  /** Boots the workers, if they are not already, without waiting for them. */
  prepare(): void {
    this.helpers ??= this.boot();
  }

  /** Resolves once every worker has booted (or failed to): the tests and the bench wait for it. */
  async ready(): Promise<void> {
    const helpers = (this.helpers ??= this.boot());
    for (const h of helpers) {
      h.worker.ref(); // an unref'd worker alone would let the process end while it boots
      try {
        while (!this.broken && Atomics.load(h.flags, BOOTED) !== 1) {
          const r = waitAsync(h.flags, BOOTED, 0, 100);
          if (r.async) await r.value;
        }
      } finally {
        h.worker.unref();
      }
    }
  }

  /** How many column runs the workers have computed (for the tests and the bench). */
  handedOver(): number {
    return this.handed;
  }

  /** Stops the workers (tests; a process that ends needs nothing: they are unref'd). */
  async close(): Promise<void> {
    const helpers = this.helpers ?? [];
    this.helpers = [];
    for (const h of helpers) h.port.close();
    await Promise.all(helpers.map((h) => h.worker.terminate()));
  }

  private scratch(which: 'sharedX' | 'sharedOut', floats: number): Float32Array {
    if (this[which].length < floats) this[which] = new Float32Array(new SharedArrayBuffer(4 * floats));
    return this[which].subarray(0, floats);
  }

  private boot(): Helper[] {
    if (!existsSync(this.script)) {
      this.broken = true;
      return [];
    }
    const helpers: Helper[] = [];
    try {
      for (let i = 0; i < this.workers; i++) {
        const { port1, port2 } = new MessageChannel();
        const flags = new Int32Array(new SharedArrayBuffer(12));
        const worker = new Worker(this.script, { execArgv: [...this.execArgv], workerData: { port: port2, flags }, transferList: [port2] });
        worker.unref();
        worker.on('error', () => { this.broken = true; });
        port1.unref();
        helpers.push({ worker, port: port1, flags });
      }
    } catch {
      this.broken = true;
    }
    return helpers;
  }

  /** Whether worker h did job `id`: false when it failed, died or passed the deadline (then it is given up on). */
  private wait(h: Helper, id: number, ownMs: number): boolean {
    const deadline = performance.now() + Math.max(this.minWaitMs, WAIT_FACTOR * ownMs);
    for (;;) {
      const answered = Atomics.load(h.flags, ANSWERED);
      if (answered >= id) break;
      const left = deadline - performance.now();
      if (left <= 0 || this.broken) {
        this.giveUp();
        return false;
      }
      Atomics.wait(h.flags, ANSWERED, answered, Math.min(left, 100));
    }
    // Failed ids only grow (ENDED is past them all): this job's or a later one's is a failure of this one.
    if (Atomics.load(h.flags, FAILED) < id) return true;
    this.giveUp();
    return false;
  }

  private giveUp(): void {
    this.broken = true;
    // A worker given up on may still write: into buffers no later product uses.
    this.sharedX = new Float32Array(new SharedArrayBuffer(0));
    this.sharedOut = new Float32Array(new SharedArrayBuffer(0));
    void this.close();
  }
}

/** The helper an entry point installs, its workers at `script`; undefined under ATTN_THREADS=1 or on one core. */
export function kernelThreads(script: string): KernelThreads | undefined {
  if (process.env.ATTN_THREADS === '1') return undefined;
  const threads = new KernelThreads(script);
  return threads.workers > 0 ? threads : undefined;
}
