// The extension host's worker threads, in one place: the jobs it runs off its own thread (a spec's
// analysis, a model file's scan, a model's run) are named here with their scripts, and each client
// (the analysis runner, a model reader, a model run) gets a lane: a worker of its job, started on
// its first request, asked through the one request/reply helper (src/protocol/requests.ts), with
// every request it waits on failed when the worker dies, so nobody waits for ever. A lane whose
// worker died starts a fresh one at its next request (the run keeps a model loaded, the analysis a
// few results: both rebuild them), unless its client cannot rebuild what the worker held (a reader's
// open file: it is closed for good instead). A worker that cannot start (its script missing, or one
// that throws before the worker's first message: a broken bundle) closes its lane with a
// WorkerStartError: starting it again would fail again, so its client is told once and can do the
// work some other way. Disposing the service ends every worker it started.
// This is the only file of the host that starts a thread, so their number and lifetimes are
// answered here and nowhere else. Threads are not shared between lanes: a run keeps its loaded
// model and a reader its open file, which another client's request must not disturb.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { RequestError, Requests } from '../../protocol/requests.js';
import { WorkerStartError } from './start-error.js';

export { WorkerStartError };

/** The jobs the host runs in worker threads. */
export const JOB_NAMES = ['analysis', 'scan', 'run'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** A job's script: a bundle of dist/, or (tests) a TypeScript entry with its loader in `execArgv`. */
export interface JobScript {
  readonly file: string;
  readonly execArgv?: readonly string[];
}

export type JobScripts = Readonly<Partial<Record<JobName, JobScript>>>;

/** The bundles scripts/build.mjs writes, in the extension's dist folder. */
export function distScripts(dist: string): Required<JobScripts> {
  return {
    analysis: { file: path.join(dist, 'analysis-worker.js') },
    scan: { file: path.join(dist, 'scan-worker.js') },
    run: { file: path.join(dist, 'run-worker.js') },
  };
}


export interface LaneOptions<Reply> {
  /** Given to every worker the lane starts (a run's shared cancel flag: the same for each). */
  workerData?: unknown;
  /**
   * A message from the worker: what it settles. By default a message `{ id }` settles that request
   * with itself; a lane whose worker posts progress, or errors, between its answers routes them here.
   */
  receive?(message: unknown, requests: Requests<Reply>): void;
  /** The error the requests waiting get when the worker dies (default: a RequestError naming the job). */
  died?(why: string): Error;
  /** Whether a fresh worker may replace one that died (default true); false closes the lane for good. */
  restart?: boolean;
}

export interface AskOptions<Reply> {
  transfer?: readonly ArrayBuffer[];
  /** Whether a reply answers this request (see Requests.ask). */
  answers?: (reply: Reply) => boolean;
  /** The request's id, before it is posted (the run client cancels a run by it). */
  sent?: (id: number) => void;
}

/** What a lane tells its service. */
interface LaneOwner {
  /** A worker of `job` is about to start: throws when the service is disposed. */
  mayStart(job: JobName): void;
  /** A worker of `job` started. */
  startedOne(job: JobName): void;
  /** The lane is disposed: the service forgets it. */
  forget(lane: Lane<unknown>): void;
}

/** One client's worker of a job. */
export class Lane<Reply> {
  private worker: Worker | undefined;
  private readonly requests: Requests<Reply>;
  /** Set once the lane can start no worker again (disposed, or a dead worker that may not restart). */
  private closed: Error | undefined;
  /** Workers this lane started (1, and one more per restart). */
  started = 0;
  /** Why the last ready() was false, for the client to say. */
  notReady: Error | undefined;

  constructor(
    readonly job: JobName,
    private readonly script: JobScript,
    private readonly options: LaneOptions<Reply>,
    private readonly owner: LaneOwner,
  ) {
    this.requests = new Requests<Reply>();
  }

  /** Whether a worker of this lane is alive now. */
  get alive(): boolean { return this.worker !== undefined; }

  /**
   * Whether the lane has a worker, starting one if it has none: false when it cannot (its script does
   * not start, or the lane is closed), so the caller can do the work some other way.
   */
  ready(): boolean {
    try {
      this.ensure();
      this.notReady = undefined;
      return true;
    } catch (e) {
      this.notReady = e instanceof Error ? e : new WorkerStartError(String(e));
      return false;
    }
  }

  /** Posts `message` with a new id (added as `id`); resolves with the reply that settles it. */
  ask(message: object, options: AskOptions<Reply> = {}): Promise<Reply> {
    let worker: Worker;
    try {
      worker = this.ensure();
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new WorkerStartError(String(e)));
    }
    return this.requests.ask((id) => {
      options.sent?.(id);
      worker.postMessage({ ...message, id }, options.transfer ? [...options.transfer] : []);
    }, options.answers);
  }

  /** Request `id` fails now with `error` (its answer, if it comes, is dropped). */
  fail(id: number, error: Error): boolean {
    return this.requests.fail(id, error);
  }

  /**
   * Ends the worker under way (work in a thread cannot be interrupted any other way): the requests
   * waiting fail with `why`; the next request starts a fresh worker.
   */
  restart(why: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    this.requests.failAll(why);
    if (worker) void worker.terminate();
  }

  /** Ends the worker and the lane: the requests waiting, and every later one, fail with `why`. */
  dispose(why: Error = new RequestError(`the ${this.job} worker was ended`)): void {
    if (!this.closed) this.closed = why;
    const worker = this.worker;
    this.worker = undefined;
    this.requests.close(why);
    if (worker) void worker.terminate();
    this.owner.forget(this as Lane<unknown>);
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    if (this.closed) throw this.closed;
    this.owner.mayStart(this.job);
    // Node says a missing script only later, as the worker's 'error': asked here, it is a start that fails at once.
    if (!fs.existsSync(this.script.file)) {
      throw this.cannotStart(`no script at ${this.script.file} (is the extension built?)`);
    }
    let worker: Worker;
    try {
      worker = new Worker(this.script.file, {
        execArgv: [...(this.script.execArgv ?? [])],
        ...(this.options.workerData !== undefined ? { workerData: this.options.workerData } : {}),
      });
    } catch (e) {
      throw this.cannotStart(e instanceof Error ? e.message : String(e));
    }
    this.started++;
    this.owner.startedOne(this.job);
    this.worker = worker;
    let heard = false;
    worker.on('message', (message: unknown) => {
      heard = true;
      if (worker !== this.worker) return; // a worker ended or replaced: its late answers are stale
      if (this.options.receive) this.options.receive(message, this.requests);
      else this.requests.settle((message as { id?: unknown } | null)?.id, message as Reply);
    });
    worker.on('error', (e) => {
      // Silent until it threw: its script does not load (a broken bundle), and a fresh worker would throw the same.
      // Running out of memory is a death under a request's load, which a fresh worker may survive.
      if (!heard && (e as { code?: unknown }).code !== 'ERR_WORKER_OUT_OF_MEMORY') this.failedToStart(worker, e.message);
      else this.lost(worker, e.message);
    });
    worker.on('exit', (code) => this.lost(worker, `exit code ${code}`));
    return worker;
  }

  private cannotStart(why: string): WorkerStartError {
    return new WorkerStartError(`the ${this.job} worker could not start: ${why}`);
  }

  /** The worker threw before it said anything: the lane closes, its requests fail with why. */
  private failedToStart(worker: Worker, why: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    const error = this.cannotStart(why.split('\n')[0]);
    this.closed = error;
    this.requests.close(error);
    this.owner.forget(this as Lane<unknown>);
    void worker.terminate();
  }

  /** The worker died under its requests (out of memory, a crash): they fail; the next one restarts it, if the lane may. */
  private lost(worker: Worker, why: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    const error = this.options.died?.(why) ?? new RequestError(`the ${this.job} worker stopped (${why})`);
    if (this.options.restart === false) {
      this.closed = error;
      this.requests.close(error);
      this.owner.forget(this as Lane<unknown>);
    } else {
      this.requests.failAll(error);
    }
  }
}

export class WorkerService {
  private readonly lanes = new Set<Lane<unknown>>();
  private disposed = false;
  /** Workers started per job since the service began: for tests and the log. */
  readonly started: Record<JobName, number> = { analysis: 0, scan: 0, run: 0 };
  private readonly owner: LaneOwner = {
    mayStart: (job) => { if (this.disposed) throw new WorkerStartError(`the ${job} worker cannot start: the worker service was disposed`); },
    startedOne: (job) => { this.started[job]++; },
    forget: (lane) => { this.lanes.delete(lane); },
  };

  constructor(private readonly scripts: JobScripts) {}

  /** A lane of the named job; throws for a job the service does not know or has no script for. */
  lane<Reply>(job: JobName, options: LaneOptions<Reply> = {}): Lane<Reply> {
    if (!(JOB_NAMES as readonly string[]).includes(job)) throw new Error(`no worker job named "${String(job)}" (the jobs are ${JOB_NAMES.join(', ')})`);
    const script = this.scripts[job];
    if (!script) throw new Error(`the worker job "${job}" has no script here`);
    const lane = new Lane<Reply>(job, script, options, this.owner);
    if (this.disposed) lane.dispose(new WorkerStartError(`the ${job} worker cannot start: the worker service was disposed`));
    else this.lanes.add(lane as Lane<unknown>);
    return lane;
  }

  /** Worker threads alive now, of one job or of all. */
  alive(job?: JobName): number {
    let n = 0;
    for (const l of this.lanes) if (l.alive && (job === undefined || l.job === job)) n++;
    return n;
  }

  /** Lanes open now (a client's lane is forgotten when it disposes it). */
  get lanesOpen(): number { return this.lanes.size; }

  /** Ends every worker of every lane; every lane refuses requests from now on. */
  dispose(): void {
    this.disposed = true;
    for (const lane of [...this.lanes]) lane.dispose(new WorkerStartError('the worker service was disposed'));
    this.lanes.clear();
  }
}
