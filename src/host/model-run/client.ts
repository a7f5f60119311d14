// The extension host's side of a model run's worker: runs asked for as the text is edited, each a
// promise, the newest winning. A run asked for while another is under way cancels it: its promise
// rejects at once (RunCancelled), and the worker, told through a shared Int32 it reads between layers,
// stops that run within one layer's time and goes on to the next request with its model still loaded
// (and the unchanged beginning of the text's keys and values kept). The worker is ended only when the
// session closes. The model views read the latest run's attention through
// reader(), a ModelReading whose 'open' waits for the latest run, so a model document opened anew
// when a run begins shows that run once it is done, or its error.
import { Worker } from 'node:worker_threads';
import type { ScanOptions } from '../../core/model/data.js';
import type { ModelShape } from '../../core/model/scan.js';
import type { PassResult } from '../../core/tensors/pass.js';
import type { HeadLens } from '../../core/transformer/types.js';
import type { RunReport, RunRequest, RunResponse, RunWorkerData } from '../../protocol/model-run.js';
import { RequestError, Requests } from '../../protocol/requests.js';
import { ReaderError, type ModelReading } from '../model-editor/reader.js';

/** A run replaced by a newer one (or its session closed) before it finished. */
export class RunCancelled extends RequestError {
  override name = 'RunCancelled';
}

type Ok = Extract<RunResponse, { ok: true }>;
type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Channel {
  worker: Worker;
  requests: Requests<Ok>;
  /** The cancel flag shared with the worker: every run with an id up to it stops. */
  cancel: Int32Array;
  /** The id of the run under way (its request's), 0 when none. */
  runId: number;
}

export class RunClient {
  private channel: Channel | undefined;
  private latest: Promise<RunReport> | undefined;
  private inFlight = 0;
  private disposed = false;
  /** Resolves when the first run (or refusal) is asked for: the views' 'open' waits for it. */
  private firstAsked!: () => void;
  private readonly first = new Promise<void>((resolve) => { this.firstAsked = resolve; });
  /** Workers started (1, and another only if one died): for tests. */
  workersStarted = 0;

  /** `script`: dist/model-run-worker.js (tests pass a .ts entry with tsx in `execArgv`). */
  constructor(private readonly script: string, private readonly execArgv: string[] = []) {}

  /** Runs `text` through the model in `folder`; an older run still under way is cancelled. */
  run(folder: string, text: string, maxTokens?: number): Promise<RunReport> {
    this.stopRun(new RunCancelled('a newer edit replaced this run'));
    this.inFlight++;
    const run = this.ask({ op: 'run', folder, text, ...(maxTokens !== undefined ? { maxTokens } : {}) }, true)
      .then((r) => (r as Extract<Ok, { run: RunReport }>).run)
      .finally(() => { this.inFlight--; });
    this.latest = run;
    this.firstAsked();
    run.catch(() => {}); // the views and the session hear of it; this only keeps Node from calling it unhandled
    return run;
  }

  /** The latest run could not even begin (its model cannot be found): the views show `message`. */
  refuse(message: string): void {
    this.stopRun(new RunCancelled('a newer edit replaced this run'));
    this.latest = Promise.reject(new ReaderError(message, true));
    this.latest.catch(() => {});
    this.firstAsked();
  }

  /** Whether a run is under way. */
  get running(): boolean { return this.inFlight > 0; }

  /** The run under way stops (the progress notification's Cancel): the views say so. */
  cancel(): void {
    this.stopRun(new RunCancelled('the run was cancelled: edit the text to run it again'));
  }

  /** The numbers of one head of the latest run. */
  async lens(layer: number, head: number): Promise<HeadLens> {
    await this.latest;
    return ((await this.ask({ op: 'lens', layer, head })) as Extract<Ok, { lens: HeadLens }>).lens;
  }

  /** The latest run's attention, as the model views read a file. */
  reader(): ModelReading {
    const read = async <T>(request: Without<RunRequest>, pick: (r: Ok) => T): Promise<T> => pick(await this.ask(request));
    return {
      open: async (): Promise<ModelShape> => {
        await this.first;
        try {
          return (await this.latest!).shape;
        } catch (e) {
          // Shown as it is (a cancelled run, a folder that cannot run), never logged as a bug.
          throw e instanceof ReaderError ? e : new ReaderError(e instanceof Error ? e.message : String(e), true);
        }
      },
      pass: (from: number, to: number, options: ScanOptions) => read({ op: 'pass', from, to, options }, (r) => (r as { pass: PassResult }).pass),
      head: (layer: number, head: number, options: ScanOptions) => read({ op: 'head', layer, head, options }, (r) => (r as { weights: Float32Array }).weights),
      picture: (layer: number, head: number, options: ScanOptions) => read({ op: 'picture', layer, head, options }, (r) => (r as { picture: { res: number; indices: Uint8Array; max: number } }).picture),
      window: (layer: number, head: number, i0: number, rows: number, j0: number, cols: number, options: ScanOptions) =>
        read({ op: 'window', layer, head, i0, rows, j0, cols, options }, (r) => (r as { weights: Float32Array }).weights),
      rollout: (options: ScanOptions) => read({ op: 'rollout', options }, (r) => (r as { rollout?: Float32Array | null }).rollout ?? null),
      // The document's reader is this client's: the session ends it, not the document.
      dispose: () => {},
    };
  }

  dispose(): void {
    this.disposed = true;
    this.end(new RunCancelled('the model view was closed'));
  }

  private ask(request: Without<RunRequest>, isRun = false): Promise<Ok> {
    if (this.disposed) return Promise.reject(new RunCancelled('the model view was closed'));
    const channel = this.channel ??= this.start();
    return channel.requests.ask((id) => {
      if (isRun) channel.runId = id;
      channel.worker.postMessage({ ...request, id });
    });
  }

  /** The run under way (if any) stops: its promise rejects with `why` now, the worker stops it after its current layer. */
  private stopRun(why: RunCancelled): void {
    const channel = this.channel;
    if (!channel || channel.runId === 0) return;
    Atomics.store(channel.cancel, 0, channel.runId);
    channel.requests.fail(channel.runId, why);
    channel.runId = 0;
  }

  private start(): Channel {
    this.workersStarted++;
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const workerData: RunWorkerData = { cancel: cancel.buffer as SharedArrayBuffer };
    const worker = new Worker(this.script, { execArgv: this.execArgv, workerData });
    const requests = new Requests<Ok>();
    const channel: Channel = { worker, requests, cancel, runId: 0 };
    worker.on('message', (r: RunResponse) => {
      if (channel.runId === r.id) channel.runId = 0; // the run's answer (or a late one for a run already failed here)
      if (r.ok) requests.settle(r.id, r);
      else if ('cancelled' in r) requests.fail(r.id, new RunCancelled('the run was cancelled'));
      else requests.fail(r.id, new ReaderError(r.error, r.tensorError));
    });
    const die = (e: Error) => {
      requests.close(e);
      if (this.channel === channel) this.channel = undefined;
    };
    worker.on('error', die);
    worker.on('exit', (code) => die(new ReaderError(`the model run stopped (exit ${code})`, false)));
    return channel;
  }

  private end(why: Error): void {
    const old = this.channel;
    this.channel = undefined;
    if (!old) return;
    old.requests.close(why);
    void old.worker.terminate();
  }
}
