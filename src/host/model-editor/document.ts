// A model file open in the model editor, however many editors show it (VS Code's custom document:
// two editor groups on one .safetensors, or the editor and a spec that references the file, are
// two views of one document). The document owns the file: its reader (a worker thread, opened from
// the moment the document is, while the webviews boot), and its scans, one per set of options, each
// shared by every editor that shows it (shared-scan.ts). An editor closing leaves the scans the
// others watch; the document closing (its last editor closed) stops them and ends the workers.
// Pure (no VS Code): editor.ts makes one per file and wraps it for VS Code.
import type { OpenOptions } from '../../core/files/open.js';
import type { ScanOptions } from '../../core/model-attention/data.js';
import type { ModelShape } from '../../core/model-attention/scan.js';
import { ReaderError, type ModelReading } from './reader.js';
import { scanHelperCount, WEIGHTS_PER_RANGE } from './scan.js';
import { SharedScan, type ModelLog, type OpenFile, type ScanSubscriber } from './shared-scan.js';
import { hostCores } from './model-files.js';

/** An editor of the document: it watches one scan, and starts again when the file is opened anew. */
export interface DocumentView extends ScanSubscriber {
  /** The file was opened again (a spec named other tokens or another tensor): the scans began anew. */
  reopened(): void;
}

export interface ModelDocumentOptions {
  /** The file's URI (as the editors report it). */
  uri: string;
  /** What its reader opens: its path on disk (on the web, its URI, whose bytes the reader reads first). */
  path: string;
  /** The tensor and tokens a spec that references the file names. */
  open?: OpenOptions;
  /** Why the file cannot be read at all (it is not on disk): every editor shows this. */
  refused?: string;
  /** A new reader of model files (a worker thread; on the web, a Web Worker or the host's thread). */
  newReader(): ModelReading;
  /** Helpers that may join a scan of this shape (default: one per spare core, at most MAX_SCAN_HELPERS). */
  helperCount?(shape: ModelShape): number;
  /** Weights per range of a scan (tests cut small files into many ranges). */
  weightsPerRange?: number;
  log: ModelLog;
}

/** One scan per key: the options that change what a scan reads. */
const scanKey = (options: ScanOptions) => `${options.softmax ? 'softmax' : 'weights'}${options.norms ? ':norms' : ''}`;

export class ModelDocument {
  readonly uri: string;
  /** Scans begun over the document's life (one per set of options the editors asked for). */
  scansBegun = 0;
  private file!: Promise<OpenFile>;
  private reader: ModelReading | undefined;
  private open: OpenOptions | undefined;
  private readonly scans = new Map<string, SharedScan>();
  private readonly views = new Set<DocumentView>();
  private bootedNow: () => void = () => {};
  private readonly bootedOnce = new Promise<void>((resolve) => { this.bootedNow = resolve; });
  private disposed = false;

  constructor(private readonly settings: ModelDocumentOptions) {
    this.uri = settings.uri;
    this.open = settings.open;
    this.openFile();
  }

  /** The file in the document's reader (rejects with why it could not be opened). */
  get opened(): Promise<OpenFile> { return this.file; }

  /** The editors of the document. */
  get viewCount(): number { return this.views.size; }

  attach(view: DocumentView): void {
    if (this.disposed) throw new Error(`model editor: ${this.uri} is closed`);
    this.views.add(view);
  }

  detach(view: DocumentView): void { this.views.delete(view); }

  /** The scan of the file with `options`, begun now unless one is under way or done; `subscriber` hears of it from now on. */
  join(options: ScanOptions, subscriber: ScanSubscriber): SharedScan {
    if (this.disposed) throw new Error(`model editor: ${this.uri} is closed`);
    const key = scanKey(options);
    let scan = this.scans.get(key);
    if (!scan) {
      scan = new SharedScan({ ...options }, {
        opened: this.file,
        booted: this.bootedOnce,
        // A file read from deflated members is inflated whole into each reader's memory: helpers would
        // multiply it (4 readers of a 1 GB member took 4.15 GB), so its one reader scans it alone.
        helperCount: (shape) => (shape.inflated ? 0 : this.settings.helperCount?.(shape) ?? scanHelperCount(shape, hostCores(), this.weightsPerRange)),
        openHelper: () => this.openHelper(),
        weightsPerRange: this.weightsPerRange,
        log: this.settings.log,
      });
      this.scans.set(key, scan);
      this.scansBegun++;
      void scan.run();
    }
    scan.subscribers.add(subscriber);
    return scan;
  }

  /** `subscriber` no longer watches `scan`; a scan that nobody watches stops (and is forgotten). */
  leave(scan: SharedScan, subscriber: ScanSubscriber): void {
    scan.subscribers.delete(subscriber);
    const key = scanKey(scan.options);
    if (scan.subscribers.size === 0 && this.scans.get(key) === scan) {
      scan.stop();
      this.scans.delete(key);
    }
  }

  /** A webview of the file has booted: helpers may join the scans now. */
  booted(): void { this.bootedNow(); }

  /** A spec names the file with these options: when they differ, the file is opened anew and every editor starts again. */
  reopen(open: OpenOptions | undefined): void {
    if (this.disposed || JSON.stringify(open ?? {}) === JSON.stringify(this.open ?? {})) return;
    this.open = open;
    this.reread();
  }

  /** The file changed (a model run's attention was made anew): it is opened again and every editor starts again. */
  reread(): void {
    if (this.disposed) return;
    for (const scan of this.scans.values()) scan.stop();
    this.scans.clear();
    this.openFile();
    for (const view of [...this.views]) view.reopened();
  }

  /** Every editor is closed: the scans stop and the workers end. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const scan of this.scans.values()) scan.stop();
    this.scans.clear();
    this.views.clear();
    this.reader?.dispose();
    this.reader = undefined;
  }

  private get weightsPerRange(): number { return this.settings.weightsPerRange ?? WEIGHTS_PER_RANGE; }

  private openFile(): void {
    const { refused, path } = this.settings;
    if (refused !== undefined) {
      this.file = Promise.reject(new ReaderError(refused, true));
    } else {
      const reader = this.reader ??= this.settings.newReader();
      this.file = reader.open(path, this.open).then((shape) => ({ shape, reader }));
    }
    // Every scan and answer awaits it and hears its error; this only keeps Node from calling it unhandled.
    this.file.catch(() => {});
  }

  private openHelper(): { reader: ModelReading; opened: Promise<unknown> } {
    const reader = this.settings.newReader();
    return { reader, opened: reader.open(this.settings.path, this.open) };
  }
}
