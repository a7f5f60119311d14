// Runs analyses in one worker thread, one at a time, newest first in spirit: a newer request for
// the same document cancels the older one (queued: dropped; running: the worker is stopped and a
// fresh one started, since a computation cannot be interrupted any other way). The request under
// way and its reply are matched by id through src/protocol/requests.ts. If the worker cannot
// start, the analysis runs here instead (with the same Analyst the worker has), so a panel is
// never left blank.
import { Worker } from 'node:worker_threads';
import { failedAnalysis, type WireAnalysis } from '../../core/result/analyze-wire.js';
import type { Progress } from '../../core/attention/attention.js';
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';
import { RequestError, Requests } from '../../protocol/requests.js';
import { Analyst } from './analyst.js';

/** The promise of a request that a newer request for the same document replaced. */
export class Cancelled extends Error {
  constructor() {
    super('replaced by a newer version');
  }
}

type Want = NonNullable<WorkerRequest['want']>;

interface Job {
  key: string;
  request: Omit<WorkerRequest, 'id'>;
  onProgress?: Progress;
  /** The id of its request to the worker, once posted. */
  id?: number;
  resolve(result: WireAnalysis): void;
  reject(err: Error): void;
}

/** The worker's last word on a request. */
type Answer = Exclude<WorkerReply, { kind: 'progress' }>;

export class AnalysisRunner {
  private worker?: Worker;
  private current?: Job;
  private readonly queue: Job[] = [];
  /** The request under way in the worker, answered by id; a stale answer (a stopped worker's) is dropped. */
  private readonly answers = new Requests<Answer>();
  private disposed = false;
  /** Workers started, for tests and the log: 1 plus one per cancelled running job. */
  started = 0;
  /** Jobs run, in the worker or here (a job cancelled while queued is not run): for tests. */
  jobs = 0;

  /**
   * workerFile: the bundled analysis-worker.js; undefined runs everything on this thread, with
   * `inPlace` (a test may pass its own, to count what it reads).
   */
  constructor(
    private workerFile: string | undefined,
    private readonly log: (line: string) => void = () => {},
    private readonly inPlace: Analyst = new Analyst(),
  ) {}

  /** `folder`: the spec's folder on disk, where the tensor files it names are read. */
  run(key: string, text: string, onProgress?: Progress, folder?: string, want: Want = 'result'): Promise<WireAnalysis> {
    return new Promise<WireAnalysis>((resolve, reject) => {
      for (let i = this.queue.length - 1; i >= 0; i--) {
        if (this.queue[i].key === key) this.queue.splice(i, 1)[0].reject(new Cancelled());
      }
      if (this.current?.key === key) this.stopCurrent();
      this.queue.push({ key, request: { text, folder, want }, onProgress, resolve, reject });
      this.pump();
    });
  }

  private stopCurrent(): void {
    const job = this.current;
    this.current = undefined;
    job?.reject(new Cancelled());
    const w = this.worker;
    this.worker = undefined;
    this.answers.failAll(new Cancelled());
    if (w) void w.terminate();
  }

  private pump(): void {
    if (this.current || this.disposed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    this.jobs++;
    const worker = this.ensureWorker();
    if (worker) {
      this.answers.ask((id) => {
        job.id = id;
        worker.postMessage({ id, ...job.request } satisfies WorkerRequest);
      }).then(
        (answer) => this.finish(job, () => (answer.kind === 'done' ? answer.analysis : failedAnalysis(answer.message))),
        (err: Error) => this.finish(job, () => failedAnalysis(err.message)),
      );
      return;
    }
    // No worker: compute here, after the current event so the caller's own work goes first.
    setImmediate(() => this.finish(job, () => this.inPlace.answer(job.request, job.onProgress)));
  }

  /** The job's answer, unless it was cancelled meanwhile; then the next job. */
  private finish(job: Job, compute: () => WireAnalysis): void {
    if (this.current !== job) return;
    this.current = undefined;
    try {
      job.resolve(compute());
    } catch (err) {
      job.resolve(failedAnalysis(err instanceof Error ? err.message : String(err)));
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
    if (worker !== this.worker) return;
    if (reply.kind === 'progress') {
      const job = this.current;
      if (job && job.id === reply.id && this.answers.isPending(reply.id)) job.onProgress?.(reply.done, reply.total);
      return;
    }
    this.answers.settle(reply.id, reply);
  }

  /** The worker died under a job (out of memory, a crash): the job gets a problem, the next job a new worker. */
  private lost(worker: Worker, why: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    this.answers.failAll(new RequestError(`the analysis stopped (${why})`));
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.queue.splice(0)) job.reject(new Cancelled());
    this.stopCurrent();
  }
}
