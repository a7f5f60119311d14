// Runs analyses in one worker thread, one at a time, newest first in spirit: a newer request for
// the same document cancels the older one (queued: dropped; running: the worker is stopped and a
// fresh one started, since a computation cannot be interrupted any other way). If the worker
// cannot start, the analysis runs here instead, so a panel is never left blank.
import { Worker } from 'node:worker_threads';
import { analyzeForWire, linalgForWire, type WireAnalysis } from '../../core/result/analyze-wire.js';
import type { Progress } from '../../core/attention/attention.js';
import type { WorkerReply } from '../../protocol/analysis-worker.js';
import { folderFiles } from '../../core/files/spec-files.js';

/** The promise of a request that a newer request for the same document replaced. */
export class Cancelled extends Error {
  constructor() {
    super('replaced by a newer version');
  }
}

interface Job {
  id: number;
  key: string;
  text: string;
  folder?: string;
  want: 'result' | 'linalg';
  onProgress?: Progress;
  resolve(result: WireAnalysis): void;
  reject(err: Error): void;
}

export class AnalysisRunner {
  private worker?: Worker;
  private current?: Job;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private disposed = false;
  /** Workers started, for tests and the log: 1 plus one per cancelled running job. */
  started = 0;

  /** workerFile: the bundled analysis-worker.js; undefined runs everything on this thread. */
  constructor(private workerFile: string | undefined, private readonly log: (line: string) => void = () => {}) {}

  /** `folder`: the spec's folder on disk, where the tensor files it names are read. */
  run(key: string, text: string, onProgress?: Progress, folder?: string, want: 'result' | 'linalg' = 'result'): Promise<WireAnalysis> {
    return new Promise<WireAnalysis>((resolve, reject) => {
      for (let i = this.queue.length - 1; i >= 0; i--) {
        if (this.queue[i].key === key) this.queue.splice(i, 1)[0].reject(new Cancelled());
      }
      if (this.current?.key === key) this.stopCurrent();
      this.queue.push({ id: this.nextId++, key, text, folder, want, onProgress, resolve, reject });
      this.pump();
    });
  }

  private stopCurrent(): void {
    const job = this.current;
    this.current = undefined;
    job?.reject(new Cancelled());
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
  }

  private pump(): void {
    if (this.current || this.disposed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    const worker = this.ensureWorker();
    if (worker) {
      worker.postMessage({ id: job.id, text: job.text, folder: job.folder, want: job.want });
      return;
    }
    // No worker: compute here, after the current event so the caller's own work goes first.
    setImmediate(() => {
      if (this.current !== job) return;
      this.finish(job, () => {
        const files = job.folder ? folderFiles(job.folder) : undefined;
        if (job.want === 'linalg') return { problems: [], linalg: linalgForWire(job.text, files) };
        return analyzeForWire(job.text, job.onProgress, files);
      });
    });
  }

  private finish(job: Job, compute: () => WireAnalysis): void {
    this.current = undefined;
    try {
      job.resolve(compute());
    } catch (err) {
      job.resolve(failure(err instanceof Error ? err.message : String(err)));
    }
    this.pump();
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!this.workerFile) return undefined;
    let worker: Worker;
    try {
      worker = new Worker(this.workerFile);
    } catch (err) {
      this.log(`analysis worker could not start (${err instanceof Error ? err.message : String(err)}); computing on the host`);
      this.workerFile = undefined;
      return undefined;
    }
    this.started++;
    worker.on('message', (reply: WorkerReply) => this.receive(worker, reply));
    worker.on('error', (err) => this.lost(worker, err.message));
    worker.on('exit', (code) => this.lost(worker, `exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private receive(worker: Worker, reply: WorkerReply): void {
    const job = this.current;
    if (worker !== this.worker || !job || reply.id !== job.id) return;
    if (reply.kind === 'progress') {
      job.onProgress?.(reply.done, reply.total);
      return;
    }
    this.finish(job, () => {
      if (reply.kind === 'failed') return failure(reply.message);
      if (reply.kind === 'linalg') return { problems: [], ...(reply.linalg ? { linalg: reply.linalg } : {}) };
      return { problems: reply.problems, ...(reply.header && reply.buffer ? { wire: { header: reply.header, buffer: reply.buffer } } : {}), ...(reply.reference ? { reference: reply.reference } : {}) };
    });
  }

  /** The worker died under a job (out of memory, a crash): the job gets a problem, the next job a new worker. */
  private lost(worker: Worker, why: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    const job = this.current;
    if (job) this.finish(job, () => failure(`the analysis stopped (${why})`));
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.queue.splice(0)) job.reject(new Cancelled());
    this.stopCurrent();
  }
}

function failure(message: string): WireAnalysis {
  return { problems: [{ severity: 'error', path: '', message: `internal error: ${message}`, span: { offset: 0, length: 0 } }] };
}
