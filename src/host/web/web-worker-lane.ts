// A lane on the web: a Web Worker where the runtime gives one (VS Code's web worker extension host
// lets an extension start nested workers), doing what the desktop's worker thread lane does
// (host/workers/service.ts) for a job the web build runs off its thread (named by `job`).
// The worker's script is read through vscode.workspace.fs from the extension's folder and started
// from a blob: URL, since the host can start a worker from neither a vscode-remote: URI (code-server)
// nor another origin. A script that does not load closes the lane with a WorkerStartError: the
// runner then computes on the host's thread instead, between events.
import type { AskOptions, LaneOptions } from '../workers/service.js';
import { RequestError, Requests } from '../../protocol/requests.js';
import { WorkerStartError } from '../workers/start-error.js';

/** The first message a worker posts once its script ran (web/analysis-worker.ts), answering no request. */
export const HELLO_ID = 0;

export class WebWorkerLane<Reply> {
  private worker: Worker | undefined;
  private readonly requests = new Requests<Reply>();
  private closed: Error | undefined;
  private script: string | undefined;
  private readonly loaded: Promise<void>;
  /** Workers this lane started (1, and one more per restart). */
  started = 0;
  notReady: Error | undefined;

  /** `script`: the worker's script as a URL a worker may start from (a blob: URL). */
  constructor(script: Promise<string>, private readonly options: LaneOptions<Reply> = {}, readonly job = 'analysis') {
    this.loaded = script.then(
      (url) => { this.script = url; },
      (e: unknown) => { this.close(this.cannotStart(e instanceof Error ? e.message : String(e))); },
    );
  }

  /** Whether a worker of this lane is alive now. */
  get alive(): boolean { return this.worker !== undefined; }

  /** Whether the lane may still start a worker (false once its script failed to load or start). */
  ready(): boolean {
    this.notReady = this.closed;
    return !this.closed;
  }

  /** Posts `message` with a new id once the worker's script is at hand; resolves with the reply that settles it. */
  async ask(message: object, options: AskOptions<Reply> = {}): Promise<Reply> {
    await this.loaded;
    const worker = this.ensure();
    return this.requests.ask((id) => {
      options.sent?.(id);
      worker.postMessage({ ...message, id }, options.transfer ? [...options.transfer] : []);
    }, options.answers);
  }

  /** Request `id` fails now with `error` (its answer, if it comes, is dropped). */
  fail(id: number, error: Error): boolean {
    return this.requests.fail(id, error);
  }

  /** Ends the worker under way (a computation cannot be interrupted otherwise); the next request starts a fresh one. */
  restart(why: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    this.requests.failAll(why);
    worker?.terminate();
  }

  dispose(why: Error = new RequestError(`the ${this.job} worker was ended`)): void {
    this.close(why);
    if (this.script) URL.revokeObjectURL(this.script);
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    if (this.closed) throw this.closed;
    let worker: Worker;
    try {
      worker = new Worker(this.script!, { name: `attention-lens-${this.job}` });
    } catch (e) {
      throw this.close(this.cannotStart(e instanceof Error ? e.message : String(e)));
    }
    this.started++;
    this.worker = worker;
    // A Web Worker has no workerData: the lane's (a run's cancel flag) is its first message.
    if (this.options.workerData !== undefined) worker.postMessage({ workerData: this.options.workerData });
    let heard = false;
    worker.onmessage = (event: MessageEvent) => {
      if (worker !== this.worker) return; // ended or replaced: its late answers are stale
      const message = event.data as { id?: unknown } | null;
      if (!heard) {
        heard = true;
        if (message?.id === HELLO_ID) return;
      }
      if (this.options.receive) this.options.receive(message, this.requests);
      else this.requests.settle(message?.id, message as Reply);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      if (worker !== this.worker) return;
      const why = event.message || 'its script did not run';
      // Silent until it failed: its script does not load, and a fresh worker would fail the same.
      if (!heard) { this.close(this.cannotStart(why)); return; }
      const error = this.options.died?.(why) ?? new RequestError(`the ${this.job} worker stopped (${why})`);
      // A worker that holds what it was given (a model reader's open file) may not be replaced by an
      // empty one: the lane closes for good, as the desktop's does, and its owner opens a new one.
      if (this.options.restart === false) { this.close(error); return; }
      this.worker = undefined;
      worker.terminate();
      this.requests.failAll(error);
    };
    return worker;
  }

  private cannotStart(why: string): WorkerStartError {
    return new WorkerStartError(`the ${this.job} worker could not start: ${why}`);
  }

  /** No worker from now on: the requests waiting, and every later one, fail with `why`. */
  private close(why: Error): Error {
    this.closed ??= why;
    const worker = this.worker;
    this.worker = undefined;
    this.requests.close(why);
    worker?.terminate();
    return why;
  }
}
