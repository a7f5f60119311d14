// Runs analyses in one worker thread (the worker service's 'analysis' lane), one at a time, newest
// first in spirit: a newer request for the same document cancels the older one (queued: dropped;
// running: the lane's worker is ended and a fresh one started, since a computation cannot be
// interrupted any other way). The request under way and its reply are matched by id through the
// lane (src/protocol/requests.ts). If the worker cannot start (its script missing, found when the
// lane starts it, or broken, found when the worker throws before its first answer), the analysis runs
// here instead (with the same Analyst the worker has), so a panel is never left blank.
import { failedAnalysis, type WireAnalysis } from '../../core/result/analyze-wire.js';
import type { Progress } from '../../core/attention/attention.js';
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';
import type { Requests } from '../../protocol/requests.js';
import type { Lane, LaneOptions } from '../workers/service.js';
import { WorkerStartError } from '../workers/start-error.js';
import { Analyst } from './analyst.js';

/** The promise of a request that a newer request for the same document replaced. */
export class Cancelled extends Error {
  constructor() {
    super('replaced by a newer version');
  }
}

type Want = NonNullable<WorkerRequest['want']>;

/** What the runner asks of its lane: the desktop's worker thread (workers/service.ts), or the web's Web Worker. */
export type AnalysisLane<Reply> = Pick<Lane<Reply>, 'started' | 'notReady' | 'ready' | 'ask' | 'restart' | 'dispose'>;

/** Where the runner gets its lane: the host's WorkerService, or the web build's own. */
export interface AnalysisLanes {
  lane<Reply>(job: 'analysis', options: LaneOptions<Reply>): AnalysisLane<Reply>;
}

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
  /** The worker's lane; undefined once it could not start (everything then runs here). */
  private lane: AnalysisLane<Answer> | undefined;
  private current?: Job;
  private readonly queue: Job[] = [];
  private disposed = false;
  /** Jobs run, in the worker or here (a job cancelled while queued is not run): for tests. */
  jobs = 0;

  /**
   * workers: the host's worker service (its 'analysis' job); undefined runs everything on this
   * thread, with `inPlace` (a test may pass its own, to count what it reads). `prepare`: what is done
   * to each request before it is computed, in its turn (the web build reads the spec's tensor files
   * through workspace.fs, which the analysis cannot call); a job replaced meanwhile is not computed.
   */
  constructor(
    workers: AnalysisLanes | undefined,
    private readonly log: (line: string) => void = () => {},
    private readonly inPlace: Analyst = new Analyst(),
    private readonly prepare?: (request: Omit<WorkerRequest, 'id'>) => Promise<Omit<WorkerRequest, 'id'>>,
  ) {
    this.lane = workers?.lane<Answer>('analysis', {
      receive: (reply, answers) => this.receive(reply as WorkerReply, answers),
      died: (why) => new Error(`the analysis stopped (${why})`),
    });
  }

  /** Workers started, for tests and the log: 1 plus one per cancelled running job. */
  get started(): number { return this.lane?.started ?? 0; }

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
    if (job?.id !== undefined) this.lane?.restart(new Cancelled());
  }

  private pump(): void {
    if (this.current || this.disposed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    this.jobs++;
    if (!this.prepare) { this.compute(job); return; }
    this.prepare(job.request).then(
      (request) => { if (this.current === job) { job.request = request; this.compute(job); } },
      (err: unknown) => this.finish(job, () => failedAnalysis(err instanceof Error ? err.message : String(err))),
    );
  }

  /** The job computed: in the worker when its lane has one, else here. */
  private compute(job: Job): void {
    if (this.laneReady()) {
      this.lane!.ask(job.request satisfies Omit<WorkerRequest, 'id'>, { sent: (id) => { job.id = id; } }).then(
        (answer) => this.finish(job, () => (answer.kind === 'done' ? answer.analysis : failedAnalysis(answer.message))),
        (err: Error) => {
          if (err instanceof WorkerStartError) this.withoutWorker(err.message);
          if (this.lane || this.current !== job) this.finish(job, () => failedAnalysis(err.message));
          else this.inPlaceLater(job);
        },
      );
      return;
    }
    this.inPlaceLater(job);
  }

  /** No worker: compute here, after the current event so the caller's own work goes first. */
  private inPlaceLater(job: Job): void {
    afterThisEvent(() => this.finish(job, () => this.inPlace.answer(job.request, job.onProgress)));
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

  /** Whether the worker's lane has a worker (started now if need be); a worker that cannot start leaves everything to this thread. */
  private laneReady(): boolean {
    if (!this.lane) return false;
    if (this.lane.ready()) return true;
    this.withoutWorker(this.lane.notReady?.message ?? 'its lane is closed');
    return false;
  }

  /** The worker cannot start: this analysis and every later one run here. */
  private withoutWorker(why: string): void {
    if (!this.lane) return;
    this.log(`analysis worker could not start (${why}); computing on the host`);
    this.lane.dispose();
    this.lane = undefined;
  }

  /** A message of the worker: progress goes to the job under way, its last word settles the request. */
  private receive(reply: WorkerReply, answers: Requests<Answer>): void {
    if (reply.kind === 'progress') {
      const job = this.current;
      if (job && job.id === reply.id && answers.isPending(reply.id)) job.onProgress?.(reply.done, reply.total);
      return;
    }
    answers.settle(reply.id, reply);
  }

  dispose(): void {
    this.disposed = true;
    for (const job of this.queue.splice(0)) job.reject(new Cancelled());
    this.stopCurrent();
    this.lane?.dispose(new Cancelled());
  }
}

/** Runs `f` after the current event: setImmediate on Node, a zero timeout where there is none (a web worker). */
function afterThisEvent(f: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(f);
  else setTimeout(f, 0);
}
