// Both cores for a big compute, where Node runs it (the analysis worker, the attn CLI): a HeadsHelper
// (core/attention) that hands the later half of an input's heads to one worker thread
// (heads-worker.ts) while the calling thread computes the first half, then blocks in Atomics.wait
// until they are back: computeAttention stays synchronous and every number the same, since both
// threads run the same computeHeads. A 512-token, 12-head layer takes a little over half the time.
//
// The worker starts at the first compute big enough to hand over and stays (unref'd: it never keeps a
// process alive). A job comes back through receiveMessageOnPort, its buffers moved, not copied. If the
// worker fails to start, throws, or does not answer within a generous deadline, the heads are computed
// here instead and the helper stops handing work over. ATTN_THREADS=1 in the environment turns it off.
//
// The worker's script is the caller's to name: an entry point passes the bundle beside it
// (dist/heads-worker.js), the tests and the bench the TypeScript source with their loader in
// execArgv (test/support/heads-thread.ts). The core knows no loader.
import { existsSync } from 'node:fs';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { computeHeads, type HeadsHelper, type HelpedHead } from '../attention/attention.js';
import { matmul, type Matrix } from '../linalg/matrix.js';
import type { HeadSpec, Scale } from '../spec/spec.js';

export interface HeadsJob {
  readonly id: number;
  readonly x: Matrix;
  readonly heads: readonly HeadSpec[];
  readonly scale: Scale;
  readonly masked: Uint8Array;
}

/** The later rows of concat · W_O. */
export interface ProductJob {
  readonly id: number;
  readonly a: Matrix;
  readonly b: Matrix;
}

export type HeadsReply =
  | { readonly id: number; readonly heads: HelpedHead[] }
  | { readonly id: number; readonly product: Float64Array }
  | { readonly id: number; readonly error: string };

/** Below this many multiply-adds in the handed-over heads (about 4 ms), the hand-over costs more than it saves (measured: 16 tokens × 768 × 12 heads, 14 M, ran slower on two threads). */
const MIN_WORK = 5e7;
/** How long to wait for the worker at least (its first start included), and at most this many times the first half's time. */
const MIN_WAIT_MS = 10_000;
const WAIT_FACTOR = 20;

function work(x: Matrix, heads: readonly HeadSpec[]): number {
  const n = x.rows, d = x.cols;
  return heads.reduce((s, h) => s + n * d * (h.wq.matrix.cols + h.wk.matrix.cols + h.wv.matrix.cols) + n * n * (h.wq.matrix.cols + h.wv.matrix.cols), 0);
}

export class HeadsThread implements HeadsHelper {
  /**
   * `script`: the worker's file (dist/heads-worker.js); `execArgv`: its Node options (a loader, for a
   * .ts source); `minWaitMs`: how long to wait for the worker at least. A worker that compiles its
   * TypeScript as it starts on a loaded machine can take longer than the product's bundle ever does,
   * so the tests, which must see the hand-over happen, wait as long as it takes.
   */
  constructor(private readonly script: string, private readonly execArgv: readonly string[] = [], private readonly minWaitMs = MIN_WAIT_MS) {}

  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  /** [0]: 1 once the worker has started; [1]: the id of the last job it answered. */
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  private jobs = 0;
  private broken = false;

  start(x: Matrix, heads: readonly HeadSpec[], scale: Scale, masked: Uint8Array): (() => HelpedHead[]) | undefined {
    if (this.broken || work(x, heads) < MIN_WORK) return undefined;
    const port = this.port ?? this.boot();
    if (!port) return undefined;
    const id = ++this.jobs;
    const job: HeadsJob = { id, x, heads, scale, masked };
    port.postMessage(job);
    const started = performance.now();
    return () => this.finish(id, performance.now() - started) ?? computeHeads(x, heads, scale, masked);
  }

  startProduct(a: Matrix, b: Matrix): (() => Float64Array) | undefined {
    if (this.broken || a.rows * a.cols * b.cols < MIN_WORK) return undefined;
    const port = this.port ?? this.boot();
    if (!port) return undefined;
    const id = ++this.jobs;
    // The rows alone (a may be a view into the whole concat), copied as they are posted.
    const job: ProductJob = { id, a: { rows: a.rows, cols: a.cols, data: a.data.slice() }, b };
    port.postMessage(job);
    const started = performance.now();
    return () => {
      const reply = this.answer(id, performance.now() - started);
      return reply && 'product' in reply ? reply.product : matmul(a, b).data;
    };
  }

  /** How many jobs the worker has answered (for the tests). */
  handedOver(): number {
    return Atomics.load(this.flags, 1);
  }

  /** Stops the worker (tests; a process that ends needs nothing: the worker is unref'd). */
  async close(): Promise<void> {
    this.port?.close();
    await this.worker?.terminate();
    this.worker = undefined;
    this.port = undefined;
  }

  private boot(): MessagePort | undefined {
    if (!existsSync(this.script)) {
      this.broken = true;
      return undefined;
    }
    try {
      const { port1, port2 } = new MessageChannel();
      this.worker = new Worker(this.script, { execArgv: [...this.execArgv], workerData: { port: port2, flags: this.flags }, transferList: [port2] });
      this.worker.unref();
      this.worker.on('error', () => { this.broken = true; });
      port1.unref();
      this.port = port1;
      return port1;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /** The worker's heads for job `id`, or undefined (then the heads are computed here). */
  private finish(id: number, ownMs: number): HelpedHead[] | undefined {
    const reply = this.answer(id, ownMs);
    return reply && 'heads' in reply ? reply.heads : undefined;
  }

  /** The worker's reply to job `id`, or undefined when it failed or gave up waiting. */
  private answer(id: number, ownMs: number): HeadsReply | undefined {
    const deadline = performance.now() + Math.max(this.minWaitMs, WAIT_FACTOR * ownMs);
    for (;;) {
      const answered = Atomics.load(this.flags, 1);
      if (answered >= id) break;
      const left = deadline - performance.now();
      if (left <= 0 || this.broken) {
        this.giveUp();
        return undefined;
      }
      Atomics.wait(this.flags, 1, answered, Math.min(left, 100));
    }
    for (;;) {
      const message = this.port && receiveMessageOnPort(this.port);
      if (!message) {
        this.giveUp();
        return undefined;
      }
      const reply = message.message as HeadsReply;
      if (reply.id !== id) continue; // an answer to a job given up on
      return 'error' in reply ? undefined : reply;
    }
  }

  private giveUp(): void {
    this.broken = true;
    void this.close();
  }
}

/** The helper an entry point passes to computeAttention, its worker at `script`; undefined under ATTN_THREADS=1. */
export function headsThread(script: string): HeadsThread | undefined {
  return process.env.ATTN_THREADS === '1' ? undefined : new HeadsThread(script);
}
