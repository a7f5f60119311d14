// One scan of a model file with one set of options (the softmax or not), shared by every editor of
// the file that shows it: the document's reader reads the heads in ranges (scan.ts), helpers join
// once a webview of the file has booted (its first paint needs the cores more than the scan), and
// each subscriber (an editor) hears of every step, so that it posts the heads read to its webview.
// What was read stays here: an editor that joins later starts from it, and nothing is read twice.
// Pure (no VS Code): the document and the editors are tested in plain Node.
import type { ModelHeader, ScanOptions } from '../../core/model-attention/data.js';
import { headerOf, type ModelShape } from '../../core/model-attention/scan.js';
import { PassAccumulator, type HeadPicture } from '../../core/tensors/pass.js';
import type { HeadBands } from '../../core/tensors/band.js';
import type { MapPart } from '../../core/tensors/map/pyramid.js';
import { ReaderError, type ModelReading } from './reader.js';
import { scanWithReaders, WEIGHTS_PER_RANGE } from './scan.js';
import { scanHelpersWithin } from '../../core/budget.js';

/** Where the editor writes what users need not see (the Output channel; tests keep the lines). */
export interface ModelLog {
  warn(line: string): void;
  error(line: string): void;
}

/** The file open in the document's reader: its shape, and the reader that has it open. */
export interface OpenFile {
  shape: ModelShape;
  reader: ModelReading;
}

/** What a scan needs of its document. */
export interface ScanSource {
  /** The file, once the document's reader has opened it (rejects with why it could not). */
  opened: Promise<OpenFile>;
  /** Resolves once a webview of the file has booted: the helpers join then. */
  booted: Promise<void>;
  /** How many helpers may join a scan of this shape. */
  helperCount(shape: ModelShape): number;
  /** A new reader and its opening of the file (the scan disposes it when it ends). */
  openHelper(): { reader: ModelReading; opened: Promise<unknown> };
  weightsPerRange?: number;
  log: ModelLog;
}

export interface ScanSubscriber {
  /** The scan knows the file's shape or read more heads; `flush`: post now (the shape, or the last heads), else at most every so often. */
  scanned(flush: boolean): void;
  /** The scan failed: `message` is for the user (the readers' one line). */
  failed(message: string): void;
}

/** A message for the user from whatever a read threw; logged too unless it is a reader's refusal of the file. */
export function readProblem(e: unknown, log: ModelLog): string {
  if (!(e instanceof ReaderError && e.tensorError)) log.error(`model editor: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  return e instanceof Error ? e.message : String(e);
}

export class SharedScan {
  readonly subscribers = new Set<ScanSubscriber>();
  /** Known once the file is open. */
  shape: ModelShape | undefined;
  /** The heads read so far, in head order (from when the shape is known). */
  done: PassAccumulator | undefined;
  /** Why the scan failed, for the user. */
  error: string | undefined;
  /** From asking for the file to having read every head. */
  scanMs: number | undefined;
  private stopped = false;
  private running = false;
  private readonly helpers: ModelReading[] = [];
  /** Big heads whose bands are coming in: their maps fill in meanwhile. */
  private readonly partial = new Map<number, HeadBands>();

  constructor(readonly options: ScanOptions, private readonly source: ScanSource) {}

  /** Heads read in order. */
  get read(): number { return this.done?.read ?? 0; }

  get finished(): boolean { return this.scanMs !== undefined; }

  /** The heads' pictures the scan kept (in head order, as far as it has read), for its options. */
  get pictures(): readonly HeadPicture[] { return this.done?.pictures ?? []; }

  /**
   * A big head's map as far as the scan has read it (flat: layer · heads + head): whole once the
   * head is read, else the bands read so far (the rest of its pyramid zero), or undefined.
   */
  mapOf(flat: number): MapPart | undefined {
    return this.done?.maps[flat] ?? this.partial.get(flat)?.map?.result();
  }

  /** Whether a head is read whole (its statistics, picture and map are final). */
  headRead(flat: number): boolean { return flat < this.read; }

  /** The header with the heads read so far (undefined before the file is open). */
  header(): ModelHeader | undefined {
    return this.shape && this.done ? headerOf(this.shape, this.done.result(), this.options) : undefined;
  }

  /** Reads every head once; settles when the scan ends (done, failed or stopped), never rejects. */
  async run(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    const t0 = performance.now();
    try {
      const { shape, reader } = await this.source.opened;
      if (this.stopped) return;
      this.shape = shape;
      this.done = new PassAccumulator(shape.layers * shape.heads, shape.thumb);
      this.tell((s) => s.scanned(true));
      const later = this.source.booted.then(() => this.helpersFor(shape));
      const done = await scanWithReaders([reader], shape, this.options, (d) => {
        this.done = d;
        this.tell((s) => s.scanned(false));
      }, () => this.stopped, this.source.weightsPerRange ?? WEIGHTS_PER_RANGE, later, this.partial);
      if (this.stopped) return;
      this.done = done;
      this.scanMs = performance.now() - t0;
      this.tell((s) => s.scanned(true));
    } catch (e) {
      if (this.stopped) return;
      this.error = readProblem(e, this.source.log);
      this.tell((s) => s.failed(this.error!));
    } finally {
      this.running = false;
      for (const h of this.helpers.splice(0)) h.dispose();
    }
  }

  /** Ends the scan after the ranges under way (nobody watches it, or the document closed); no subscriber hears of it again. */
  stop(): void {
    this.stopped = true;
    this.subscribers.clear();
  }

  /** Helpers, one at a time, while the scan runs; each is disposed when the scan ends. */
  private async helpersFor(shape: ModelShape): Promise<ModelReading[]> {
    const joining: ModelReading[] = [];
    // Estimated before any helper opens the file: each one would inflate a deflated file again.
    const count = scanHelpersWithin(shape.inflated, this.source.helperCount(shape));
    for (let k = 0; k < count; k++) {
      if (!this.running || this.stopped) break;
      const { reader, opened } = this.source.openHelper();
      this.helpers.push(reader);
      await opened;
      joining.push(reader);
    }
    return this.running && !this.stopped ? joining : [];
  }

  private tell(hear: (s: ScanSubscriber) => void): void {
    for (const s of [...this.subscribers]) hear(s);
  }
}
