// Every core for the float32 products, where Node runs them (the attn CLI, the editor's model worker):
// a ProductHelper (core/kernels) that splits a product's output columns between the calling thread and
// one worker thread per other core (kernel-worker.ts), then blocks in Atomics.wait until they are done.
// A weight over a SharedArrayBuffer (the forward stores them there) is read by the workers where it
// lies; x is copied into a shared buffer once per product, and the workers' columns come back in
// another. Every thread runs the same kernel, and a cell's sum order depends on the depth alone, so
// the split changes no bit.
//
// The workers start at the first product big enough to share and take work once they have booted
// (until then the calling thread does it all). They are unref'd: they never keep a process alive. A
// worker that fails to start, throws, or does not answer within a generous deadline has its columns
// computed here instead, and the helper stops handing work over. ATTN_THREADS=1 turns it off.
//
// The worker's script is the caller's to name: an entry point passes the bundle beside it
// (dist/kernel-worker.js), the tests and the bench the TypeScript source with their loader in
// execArgv (test/support/kernel-thread.ts).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { productColumns, type KernelVariant } from '../kernels/gemm32-kernel.js';
import { PANEL_COLS } from '../kernels/pack32.js';
import type { HelpedColumns, ProductHelper } from '../kernels/product-helper.js';
import { referenceColumns } from '../kernels/gemm32.js';
import type { StoredMatrix, WeightLayout } from '../kernels/stored.js';
import { enableRelaxedSimd } from './kernel-simd.js';

enableRelaxedSimd();

/** Columns j0…j1 − 1 of x · W into out (rows ldo apart), all three arrays over SharedArrayBuffers. */
export interface ColumnsJob {
  readonly id: number;
  readonly x: Float32Array;
  readonly n: number;
  readonly k: number;
  readonly w: StoredMatrix;
  readonly layout: WeightLayout;
  readonly variant: KernelVariant;
  readonly j0: number;
  readonly j1: number;
  readonly out: Float32Array;
  readonly ldo: number;
}

/** A worker's flags: 1 once booted; the id of the last job it answered; of the last it could not do. */
export const BOOTED = 0, ANSWERED = 1, FAILED = 2;

/** Below this many multiply-adds, a hand-over costs more than it saves (measured by npm run bench:kernel). */
export const MIN_WORK = 1 << 22;
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

  start(x: Float32Array, n: number, k: number, w: StoredMatrix, layout: WeightLayout, variant: KernelVariant, out: Float32Array): HelpedColumns | undefined {
    const m = layout === 'out-in' ? w.rows : w.cols;
    if (this.broken || this.workers < 1 || n * k * m < this.minWork || !(w.data.buffer instanceof SharedArrayBuffer)) return undefined;
    const helpers = (this.helpers ??= this.boot()).filter((h) => Atomics.load(h.flags, BOOTED) === 1);
    if (this.broken || helpers.length === 0) return undefined;
    // Equal runs of whole panels, the calling thread's first.
    const panels = Math.ceil(m / PANEL_COLS), parts = helpers.length + 1;
    const edge = (p: number) => Math.min(m, Math.round((panels * p) / parts) * PANEL_COLS);
    const own = edge(1);
    if (own >= m) return undefined;
    const sx = this.scratch('sharedX', n * k), so = this.scratch('sharedOut', n * m);
    sx.set(x.subarray(0, n * k));
    const id = ++this.jobs;
    const given = helpers.map((h, i) => {
      const job: ColumnsJob = { id, x: sx, n, k, w, layout, variant, j0: edge(i + 1), j1: edge(i + 2), out: so, ldo: m };
      h.port.postMessage(job);
      return { h, j0: job.j0, j1: job.j1 };
    });
    const started = performance.now();
    return {
      own,
      finish: () => {
        const ownMs = performance.now() - started;
        for (const { h, j0, j1 } of given) {
          if (j1 <= j0) continue;
          if (this.wait(h, id, ownMs)) {
            for (let i = 0; i < n; i++) out.set(so.subarray(i * m + j0, i * m + j1), i * m + j0);
            this.handed++;
          } else if (!productColumns(x, n, k, w, layout, j0, j1, out, m, variant)) {
            referenceColumns(x, n, k, w, layout, j0, j1, out, m);
          }
        }
      },
    };
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

  /** How many column runs the workers have computed (for the tests). */
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
    if (Atomics.load(h.flags, FAILED) !== id) return true;
    this.giveUp();
    return false;
  }

  private giveUp(): void {
    this.broken = true;
    void this.close();
  }
}

/** The helper an entry point installs, its workers at `script`; undefined under ATTN_THREADS=1 or on one core. */
export function kernelThreads(script: string): KernelThreads | undefined {
  if (process.env.ATTN_THREADS === '1') return undefined;
  const threads = new KernelThreads(script);
  return threads.workers > 0 ? threads : undefined;
}
