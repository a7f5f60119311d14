// The extension host's side of a model run's worker: runs asked for as the text is edited, each a
// promise, the newest winning. A run asked for while another is under way cancels it: its promise
// rejects at once (RunCancelled), and the worker, told through a shared Int32 it reads between layers,
// stops that run within one layer's time and goes on to the next request with its model still loaded
// (and the unchanged beginning of the text's keys and values kept). The worker is the client's lane of
// the worker service's 'run' job: one that died is replaced at the next request (with the same cancel
// flag: the lane's ids only grow, so a flag left at an old run's id stops no newer run), and it is
// ended only when the session closes. The model views read the latest run's attention through
// reader(), a ModelReading whose 'open' waits for the latest run, so a model document opened anew
// when a run begins shows that run once it is done, or its error. The lane is whatever the host gives
// (RunLanes): the desktop's worker service (node worker threads), the web's Web Worker, or the web's
// host thread where there is no Worker. On the web the model's files come with the run (read through
// workspace.fs first, moved to the worker, not copied): sent once per folder and worker, since the
// worker keeps them.
import type { ScanOptions } from '../../core/model-attention/data.js';
import type { ModelShape } from '../../core/model-attention/scan.js';
import type { PassResult } from '../../core/tensors/pass.js';
import type { HeadMap, HeadTile } from '../../core/model-attention/tiles.js';
import type { HeadLens, NextToken } from '../../core/checkpoint/types.js';
import type { RunAnalysisRequest, RunReport, RunRequest, RunResponse, RunWorkerData } from '../../protocol/checkpoint-run.js';
import { RequestError, type Requests } from '../../protocol/requests.js';
import { ReaderError, type ModelReading } from '../model-editor/reader.js';
import type { AskOptions, LaneOptions } from '../workers/service.js';
import type { MemoryEntry } from '../../core/checkpoint-files/folder-files.js';

/** A run replaced by a newer one (or its session closed) before it finished. */
export class RunCancelled extends RequestError {
  override name = 'RunCancelled';
}

type Ok = Extract<RunResponse, { ok: true }>;

/** What the client asks of its worker: one lane of the 'run' job (host/workers/service.ts Lane, or the web's). */
export interface RunLane<Reply> {
  /** Workers the lane started (1, and one more per restart). */
  readonly started: number;
  /** Whether a worker of the lane is alive now (the next request starts one otherwise). */
  readonly alive: boolean;
  ask(message: object, options?: AskOptions<Reply>): Promise<Reply>;
  fail(id: number, error: Error): boolean;
  dispose(why?: Error): void;
}

/** Where the client's lane comes from: the desktop's WorkerService, or the web's run lanes. */
export interface RunLanes {
  lane<Reply>(job: 'run', options: LaneOptions<Reply>): RunLane<Reply>;
}

/**
 * A model folder's files (the web's), keyed by what they were stat'ed as (their names, kinds, sizes
 * and times): read only when the run's worker lacks them, so an edit of the text reads no weights.
 */
export interface RunFiles {
  key: string;
  read(): Promise<{ entries: ReadonlyMap<string, MemoryEntry> } | { problem: string }>;
}

/** A model folder's files read, to post with a run (their buffers are moved to the worker, not copied). */
export interface ReadRunFiles {
  key: string;
  entries: ReadonlyMap<string, MemoryEntry>;
}
type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

export class RunClient {
  private readonly lane: RunLane<Ok>;
  /**
   * The cancel flag shared with the worker: every run with an id up to it stops. A browser page that is
   * not cross-origin isolated has no SharedArrayBuffer: the worker's copy is never told, so a replaced
   * run there finishes in the worker (its promise still rejects here at once), and the next is held back.
   */
  private readonly cancelFlag = new Int32Array(typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(4) : new ArrayBuffer(4));
  /**
   * Without a shared flag the worker finishes every run it was sent: the id of the run it has not
   * answered yet (0: none), and the newest run held back until it does (a newer one replaces it unsent),
   * so the wait after many edits is one run, not one per edit.
   */
  private unanswered = 0;
  private held: ((why?: RunCancelled) => void) | undefined;
  /** The files last sent with a run, and to which worker (the lane's count of workers started then). */
  private sentFiles: { key: string; worker: number } | undefined;
  /** The id of the run under way (its request's), 0 when none. */
  private runId = 0;
  private latest: Promise<RunReport> | undefined;
  /** The shape the views read when it is a step of the latest run's generation (a prefix), not the whole run. */
  private shown: Promise<ModelShape> | undefined;
  private inFlight = 0;
  private disposed = false;
  /** Resolves when the first run (or refusal) is asked for: the views' 'open' waits for it. */
  private firstAsked!: () => void;
  private readonly first = new Promise<void>((resolve) => { this.firstAsked = resolve; });

  /** `workers`: the host's worker service, whose 'run' job runs the model (dist/run-worker.js); `cacheFolder` holds the tokenizer cache. */
  constructor(workers: RunLanes, cacheFolder?: string) {
    const workerData: RunWorkerData = { cancel: this.cancelFlag.buffer as SharedArrayBuffer, ...(cacheFolder !== undefined ? { cacheFolder } : {}) };
    this.lane = workers.lane<Ok>('run', {
      workerData,
      receive: (message, requests) => this.receive(message as RunResponse, requests),
      died: (why) => {
        this.runId = 0;
        const unanswered = this.unanswered;
        queueMicrotask(() => this.answered(unanswered)); // after the lane has failed what the dead worker held
        return new ReaderError(`the model run stopped (${why})`, false);
      },
    });
  }

  /** Workers started (1, and another only if one died): for tests. */
  get workersStarted(): number { return this.lane.started; }

  /**
   * Runs `text` through the model in `folder` (in `precision`, float32 unless said); an older run still
   * under way is cancelled. `files`: the folder's files in memory (the web's), sent when the worker may
   * not hold them yet.
   */
  run(folder: string, text: string, maxTokens?: number, precision?: 'f32' | 'f64', analysis?: RunAnalysisRequest, ablate?: Extract<RunRequest, { op: 'run' }>['ablate'], files?: ReadRunFiles): Promise<RunReport> {
    this.stopRun(new RunCancelled('a newer edit replaced this run'));
    this.inFlight++;
    this.shown = undefined;
    const post = () => {
      const sent = this.filesToSend(files);
      const asks = { ...(analysis ? { analysis } : {}), ...(ablate?.heads.length ? { ablate } : {}), ...sent.message };
      return this.ask({ op: 'run', folder, text, ...(maxTokens !== undefined ? { maxTokens } : {}), ...(precision ? { precision } : {}), ...asks }, true, sent.transfer);
    };
    const run = this.afterUnanswered(post)
      .then((r) => (r as Extract<Ok, { run: RunReport }>).run)
      .finally(() => { this.inFlight--; });
    this.latest = run;
    this.firstAsked();
    run.catch(() => {}); // the views and the session hear of it; this only keeps Node from calling it unhandled
    return run;
  }

  /**
   * The files to post with a run: none on the desktop (the worker reads the disk), and on the web only
   * when the worker that will answer may lack them (another folder, or a fresh worker: one not alive
   * now is started by the request, with nothing kept).
   */
  private filesToSend(files: ReadRunFiles | undefined): { message: { files?: Record<string, MemoryEntry> }; transfer: ArrayBuffer[] } {
    if (!files || !this.needsFiles(files.key)) return { message: {}, transfer: [] };
    this.sentFiles = { key: files.key, worker: this.nextWorker() };
    // Moved, not copied: the worker holds the only copy (a view on part of a buffer is copied out first).
    const transfer: ArrayBuffer[] = [];
    const entries = Object.fromEntries([...files.entries].map(([name, entry]) => {
      if (entry === 'folder') return [name, entry];
      const whole = entry.buffer instanceof ArrayBuffer && entry.byteOffset === 0 && entry.byteLength === entry.buffer.byteLength && !transfer.includes(entry.buffer);
      const own = whole ? entry : entry.slice();
      transfer.push(own.buffer as ArrayBuffer);
      return [name, own];
    }));
    return { message: { files: entries }, transfer };
  }

  /** The worker that answers the next request: the live one, or the one it starts. */
  private nextWorker(): number { return this.lane.alive ? this.lane.started : this.lane.started + 1; }

  /** Whether a run of the folder whose files have `key` must bring them (the worker that will answer may lack them). */
  needsFiles(key: string): boolean {
    return !(this.sentFiles?.key === key && this.sentFiles.worker === this.nextWorker());
  }

  /** Posts the run now, or (no shared flag, the worker still on an older run) once the worker answers it. */
  private afterUnanswered(post: () => Promise<Ok>): Promise<Ok> {
    if (!(this.cancelFlag.buffer instanceof ArrayBuffer) || this.unanswered === 0) return post();
    return new Promise<Ok>((resolve, reject) => {
      this.held = (why) => {
        this.held = undefined;
        if (why) reject(why);
        else post().then(resolve, reject);
      };
    });
  }

  /** The worker answered run `id` (or can no longer): the run held back, if any, is posted. */
  private answered(id: number): void {
    if (id === 0 || id !== this.unanswered) return;
    this.unanswered = 0;
    this.held?.();
  }

  /** The latest run could not even begin (its model cannot be found): the views show `message`. */
  refuse(message: string): void {
    this.stopRun(new RunCancelled('a newer edit replaced this run'));
    this.shown = undefined;
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

  /**
   * The latest run's logit lens (computed in the worker at the first ask, kept until the next run):
   * a pass of the model again, so a newer run stops it between layers as it stops a run.
   */
  async logitLens(): Promise<NextToken[][][]> {
    await this.latest;
    return ((await this.ask({ op: 'logitLens' }, true)) as Extract<Ok, { logitLens: NextToken[][][] }>).logitLens;
  }

  /**
   * The views read the latest run's first `tokens` positions (a step through its generation) until
   * the next run; the document's next 'open' gets that prefix's shape.
   */
  step(tokens: number): Promise<ModelShape> {
    const latest = this.latest;
    if (!latest) return Promise.reject(new ReaderError('no run yet', false));
    const shown = latest.then(() => this.ask({ op: 'step', tokens })).then((r) => (r as { shape: ModelShape }).shape);
    this.shown = shown;
    shown.catch(() => {});
    return shown;
  }

  /** The latest run's attention, as the model views read a file. */
  reader(): ModelReading {
    const read = async <T>(request: Without<RunRequest>, pick: (r: Ok) => T): Promise<T> => pick(await this.ask(request));
    return {
      open: async (): Promise<ModelShape> => {
        await this.first;
        try {
          const report = await this.latest!;
          return this.shown ? await this.shown : report.shape;
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
      valueNorms: (layer: number, head: number) => read({ op: 'valueNorms', layer, head }, (r) => (r as { valueNorms: Float32Array }).valueNorms),
      // A run that kept q and k: a big head's map and its tiles, computed in the worker (no pyramid is kept).
      map: (layer: number, head: number, options: ScanOptions) => read({ op: 'map', layer, head, options }, (r) => (r as { map: HeadMap | null }).map ?? undefined),
      tile: (layer: number, head: number, level: number, i0: number, j0: number, rows: number, cols: number, options: ScanOptions, sinks = true) =>
        read({ op: 'tile', layer, head, level, i0, j0, rows, cols, options, ...(sinks ? {} : { sinks: false }) }, (r) => (r as { tile: HeadTile }).tile),
      // The document's reader is this client's: the session ends it, not the document.
      dispose: () => {},
    };
  }

  dispose(): void {
    this.disposed = true;
    this.held?.(new RunCancelled('the model view was closed'));
    this.lane.dispose(new RunCancelled('the model view was closed'));
  }

  private ask(request: Without<RunRequest>, isRun = false, transfer: ArrayBuffer[] = []): Promise<Ok> {
    if (this.disposed) return Promise.reject(new RunCancelled('the model view was closed'));
    if (!isRun) return this.lane.ask(request);
    let id = 0;
    const asked = this.lane.ask(request, { sent: (sent) => { id = sent; this.runId = sent; this.unanswered = sent; }, ...(transfer.length ? { transfer } : {}) });
    // A run refused before any worker took it (none could start) is answered by nobody: the next may go.
    asked.catch((e: unknown) => { if (!(e instanceof RunCancelled)) this.answered(id); });
    return asked;
  }

  private receive(r: RunResponse, requests: Requests<Ok>): void {
    if (this.runId === r.id) this.runId = 0; // the run's answer (or a late one for a run already failed here)
    this.answered(r.id);
    if (r.ok) requests.settle(r.id, r);
    else if ('cancelled' in r) requests.fail(r.id, new RunCancelled('the run was cancelled'));
    else requests.fail(r.id, new ReaderError(r.error, r.tensorError));
  }

  /** The run under way (if any) stops: its promise rejects with `why` now, the worker stops it after its current layer. */
  private stopRun(why: RunCancelled): void {
    this.held?.(why);
    if (this.runId === 0) return;
    Atomics.store(this.cancelFlag, 0, this.runId);
    this.lane.fail(this.runId, why);
    this.runId = 0;
  }
}
