// The extension host's side of the model reader: a worker per open model file (and a few helpers
// while it is scanned), each a lane of a 'scan' job, asked one thing at a time (a range of the scan,
// a head, the rollout), each answer a promise. The lanes are the desktop's worker threads (the
// worker service) or, on the web, Web Workers or the host's own thread (web/model-editor/); how a
// file is opened is the desktop's path on disk, or, on the web, its bytes read first (FileOpening). A worker that dies
// answers every pending request with its error, and every later one too (the file it held open is
// gone with it: the document opens a new reader when it reads the file again), so an editor never
// waits forever.
import type { OpenOptions } from '../../core/files/open.js';
import type { ScanOptions } from '../../core/model-attention/data.js';
import type { ModelShape } from '../../core/model-attention/scan.js';
import type { PassResult } from '../../core/tensors/pass.js';
import type { BandResult } from '../../core/tensors/band.js';
import type { HeadMap, HeadTile } from '../../core/model-attention/tiles.js';
import type { HeldAttention, ReaderResponse } from '../../protocol/model-reader.js';
import type { Requests } from '../../protocol/requests.js';
import type { AskOptions, LaneOptions } from '../workers/service.js';
import type { FileRequest } from './file-answers.js';

/** An error from the worker: `tensorError` when a reader refused the file (shown as is). */
export class ReaderError extends Error {
  constructor(message: string, readonly tensorError: boolean) { super(message); }
}

/** What the model editor asks of a reader (ModelReader; tests stand in for it with readers of their own). */
export interface ModelReading {
  open(path: string, open?: OpenOptions): Promise<ModelShape>;
  pass(from: number, to: number, options: ScanOptions): Promise<PassResult>;
  head(layer: number, head: number, options: ScanOptions): Promise<Float32Array>;
  picture(layer: number, head: number, options: ScanOptions): Promise<{ res: number; indices: Uint8Array; max: number }>;
  window(layer: number, head: number, i0: number, rows: number, j0: number, cols: number, options: ScanOptions): Promise<Float32Array>;
  rollout(options: ScanOptions): Promise<Float32Array | null>;
  /** Rows first … first + rows − 1 of a big head, for a scan that shares the head out (optional: a reader without it is given whole heads). */
  band?(layer: number, head: number, first: number, rows: number, options: ScanOptions): Promise<BandResult>;
  /** A tile of a big head's map, read from the source (model-attention/tiles.ts); `sinks` false: without its sink columns. */
  tile?(layer: number, head: number, level: number, i0: number, j0: number, rows: number, cols: number, options: ScanOptions, sinks?: boolean): Promise<HeadTile>;
  /** A model run's reader only: a big head's map when the run keeps no pyramid (q and k kept), else undefined. */
  map?(layer: number, head: number, options: ScanOptions): Promise<HeadMap | undefined>;
  /** A model run's reader only: ‖v_j W_O^h‖ of every key of one head (the norms divided by it are the weights). */
  valueNorms?(layer: number, head: number): Promise<Float32Array>;
  dispose(): void;
}

type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

type Ok = ReaderResponse & { ok: true };

/** A reader's worker: a node worker thread's lane (workers/service.ts), a Web Worker's, or the host's own thread's. */
export interface ReaderLane<Reply> {
  /** Whether the lane can work (it starts its worker now, if it has one to start). */
  ready(): boolean;
  ask(message: object, options?: AskOptions<Reply>): Promise<Reply>;
  dispose(why?: Error): void;
}

/** Where readers get their lanes: the worker service on the desktop (its 'scan' job), the web's own on the web. */
export interface ReaderLanes {
  lane<Reply>(job: 'scan', options: LaneOptions<Reply>): ReaderLane<Reply>;
}

/** The request that opens the file at `path` (with what it transfers): by default, the path itself, for a reader with a disk. */
export type FileOpening = (path: string, open: OpenOptions | undefined) => Promise<{ request: Without<FileRequest>; transfer?: ArrayBuffer[] }>;

const openByPath: FileOpening = async (path, open) => ({ request: { op: 'open', path, ...(open ? { open } : {}) } });

export class ModelReader implements ModelReading {
  private readonly lane: ReaderLane<Ok>;

  /**
   * A reader whose 'open' opens attention the host holds (a notebook output's), whatever path it is
   * given: what ModelDocument asks of a reader of a file.
   */
  static holding(workers: ReaderLanes, attention: HeldAttention): ModelReading {
    return new ModelReader(workers, attention);
  }

  /**
   * `workers`: where its lane comes from (the host's worker service: its 'scan' job, dist/scan-worker.js).
   * `held`: the attention 'open' opens in place of a file (see holding()). `opening`: how a file is
   * opened (default: by its path, in a worker with a disk).
   */
  constructor(workers: ReaderLanes, private readonly held?: HeldAttention, private readonly opening: FileOpening = openByPath) {
    this.lane = workers.lane<Ok>('scan', {
      receive: (message, requests: Requests<Ok>) => {
        const r = message as ReaderResponse;
        if (r.ok) requests.settle(r.id, r);
        else requests.fail(r.id, new ReaderError(r.error, r.tensorError));
      },
      died: (why) => new Error(`the model reader stopped (${why})`),
      restart: false,
    });
    // The document's reader opens its file at once, while the webviews boot: its worker starts now.
    this.lane.ready();
  }

  private ask(request: Without<FileRequest>, transfer?: ArrayBuffer[]): Promise<Ok> {
    return this.lane.ask(request, transfer ? { transfer } : {});
  }

  /** Opens the file (its header only). `open`: the tensor and tokens a spec that references the file names (see read/reference.ts). */
  async open(path: string, open?: OpenOptions): Promise<ModelShape> {
    if (this.held) return this.openHeld(this.held);
    const { request, transfer } = await this.opening(path, open);
    return (await this.ask(request, transfer)).shape!;
  }

  /** Opens attention the host holds (its values shared with the worker, not copied). */
  async openHeld(held: HeldAttention): Promise<ModelShape> {
    return (await this.ask({ op: 'openHeld', held })).shape!;
  }

  /** The pass over heads from … to − 1 of the open file (statistics, thumbnails, row checks). */
  async pass(from: number, to: number, options: ScanOptions): Promise<PassResult> {
    return (await this.ask({ op: 'pass', from, to, options })).pass!;
  }

  async head(layer: number, head: number, options: ScanOptions): Promise<Float32Array> {
    return (await this.ask({ op: 'head', layer, head, options })).weights!;
  }

  /** A big head's picture (colour indices, max-pooled) and its strongest weight. */
  async picture(layer: number, head: number, options: ScanOptions): Promise<{ res: number; indices: Uint8Array; max: number }> {
    return (await this.ask({ op: 'picture', layer, head, options })).picture!;
  }

  /** Exact weights of a window of a head. */
  async window(layer: number, head: number, i0: number, rows: number, j0: number, cols: number, options: ScanOptions): Promise<Float32Array> {
    return (await this.ask({ op: 'window', layer, head, i0, rows, j0, cols, options })).weights!;
  }

  /** Rows of a big head (its share of the scan). */
  async band(layer: number, head: number, first: number, rows: number, options: ScanOptions): Promise<BandResult> {
    return (await this.ask({ op: 'band', layer, head, first, rows, options })).band!;
  }

  /** A tile of a big head's map, read from the file. */
  async tile(layer: number, head: number, level: number, i0: number, j0: number, rows: number, cols: number, options: ScanOptions, sinks = true): Promise<HeadTile> {
    return (await this.ask({ op: 'tile', layer, head, level, i0, j0, rows, cols, options, ...(sinks ? {} : { sinks: false }) })).tile!;
  }

  async rollout(options: ScanOptions): Promise<Float32Array | null> {
    return (await this.ask({ op: 'rollout', options })).rollout ?? null;
  }

  dispose(): void {
    this.lane.dispose(new Error('the model reader was closed'));
  }
}
