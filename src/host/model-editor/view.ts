// One model editor of a document: a webview that shows the file. It watches the document's scan for
// its options and posts to its webview what was read: a snapshot when the webview says 'ready'
// (header and thumbnails so far; a webview made anew, hidden and shown again, says it again), then the
// next heads as they come, at most every POST_EVERY_MS (each post redraws the grid). A failure (the
// scan's, or of a read this editor asked for) is posted once the webview is ready. Answers to the
// webview's requests (answer.ts) go through `answer`, which drops those for options or a file since
// replaced. Pure (no VS Code): webview.ts connects it to a webview panel.
import { thumbnailIndices, type ScanOptions } from '../../core/model-attention/data.js';
import type { ModelShape } from '../../core/model-attention/scan.js';
import type { ModelHostMessage, ModelWebviewMessage } from '../../protocol/model-editor.js';
import type { DocumentView, ModelDocument } from './document.js';
import type { ModelEditorInfo } from './info.js';
import type { ModelReading } from './reader.js';
import { readProblem, type ModelLog, type SharedScan } from './shared-scan.js';
import type { ModelViewName } from '../../core/vocabulary.js';

/** Heads read are posted to the webview at most this often (each post redraws the grid). */
export const POST_EVERY_MS = 150;

export interface ModelViewHooks {
  /** Posts to the webview (nothing once it is gone). */
  post(m: ModelHostMessage): void;
  /** Writes a picture the webview exported (a save dialog in VS Code). */
  exportView?(m: Extract<ModelWebviewMessage, { type: 'export' }>): void;
  log: ModelLog;
  /** What only the webview's owner knows of it (shown, messages heard; a model run's count), for info(). */
  describe?(): Partial<ModelEditorInfo>;
  /** Messages posted before every snapshot (a model run's model and next tokens), so a webview made anew has them. */
  preamble?(): ModelHostMessage[];
  /** The webview asked for a head in the lens (a model run's editor only). */
  lens?(m: Extract<ModelWebviewMessage, { type: 'lens' }>): void;
  /** The webview asked a model run for its logit lens, or for a step of its generation (a model run's editor only). */
  analysis?(m: Extract<ModelWebviewMessage, { type: 'logitLens' | 'step' }>): void;
  /** The webview asked for heads to be switched off (a model run's editor only: it runs again). */
  ablate?(m: Extract<ModelWebviewMessage, { type: 'ablate' }>): void;
  /** Heads read are posted at most this often (default POST_EVERY_MS; tests take 0). */
  postEveryMs?: number;
}

type Painted = Extract<ModelWebviewMessage, { type: 'painted' }>;

export class ModelView implements DocumentView {
  private scanOptions: ScanOptions = {};
  private scan: SharedScan;
  private webviewReady = false;
  /** Heads posted to this webview: −1, nothing yet (the next post is the snapshot). */
  private posted = -1;
  private postedAt = 0;
  /** Why a read this editor asked for failed. */
  private problem: string | undefined;
  /** Grows whenever the options or the file change: an answer asked for before is dropped. */
  private epoch = 0;
  private disposed = false;
  /** When the webview asked for the head it is waiting for (for lastHeadMs). */
  private headAskedAt: number | undefined;
  private readonly started = performance.now();
  private readonly own: ModelEditorInfo;

  constructor(readonly document: ModelDocument, private readonly hooks: ModelViewHooks) {
    this.own = { uri: document.uri, state: 'loading' };
    document.attach(this);
    this.scan = document.join(this.scanOptions, this);
  }

  get log(): ModelLog { return this.hooks.log; }

  /** Scan options this editor shows (the softmax, once its webview asked for it). */
  get options(): ScanOptions { return this.scanOptions; }

  /** The file's shape once it is open (the webview's requests are checked against it). */
  get shape(): ModelShape | undefined { return this.scan.shape; }

  /** What the tests see of this editor. */
  info(): ModelEditorInfo {
    const scan = this.scan, shape = scan.shape, failure = this.failure();
    return {
      ...this.own,
      ...this.hooks.describe?.(),
      ...(failure !== undefined ? { state: 'error', error: failure } : {}),
      ...(shape ? { tokens: shape.tokenTexts.slice(0, 8), read: scan.read, total: shape.layers * shape.heads } : {}),
      ...(scan.scanMs !== undefined ? { scanMs: scan.scanMs } : {}),
      scans: this.document.scansBegun,
    };
  }

  /** The webview booted (or was made anew): it gets the snapshot, or the failure. */
  ready(): void {
    if (this.disposed) return;
    this.webviewReady = true;
    this.own.readyMs ??= performance.now() - this.started;
    this.document.booted();
    this.refresh();
  }

  /** Shows the file with `options`: the editor watches their scan (begun if no editor watches it yet). */
  scanWith(options: ScanOptions): void {
    // A message that was on its way when the editor closed: joining would begin a scan nobody leaves.
    if (this.disposed) return;
    const before = this.scan;
    this.scanOptions = { ...options };
    this.epoch++;
    this.problem = undefined;
    // Join first: when it is the same scan, leaving must not stop it.
    this.scan = this.document.join(this.scanOptions, this);
    if (before !== this.scan) this.document.leave(before, this);
    this.refresh();
  }

  reopened(): void {
    // The document stopped and forgot its scans: this editor joins the new one for its options.
    this.epoch++;
    this.problem = undefined;
    this.scan = this.document.join(this.scanOptions, this);
    this.refresh();
  }

  scanned(flush: boolean): void { this.sync(flush); }

  failed(message: string): void {
    if (this.webviewReady && this.problem === undefined) this.post({ type: 'error', message });
  }

  /**
   * Answers a request of the webview: `read` makes the message from the document's reader and this
   * editor's scan. The answer is posted unless the options or the file changed meanwhile (then the
   * webview asks again); a read that fails becomes the error panel.
   */
  async answer(read: (reader: ModelReading, scan: SharedScan) => Promise<ModelHostMessage | undefined>): Promise<void> {
    const epoch = this.epoch, scan = this.scan;
    const current = () => !this.disposed && epoch === this.epoch;
    try {
      const { reader } = await this.document.opened;
      const message = await read(reader, scan);
      if (current() && message) this.post(message);
    } catch (e) {
      if (!current()) return;
      this.problem = readProblem(e, this.hooks.log);
      if (this.webviewReady) this.post({ type: 'error', message: this.problem });
    }
  }

  /**
   * Posts why the file cannot be read, when it cannot (a webview asking for a head then would wait
   * for ever); false when there is no failure to tell, or no webview ready to hear it.
   */
  explainFailure(): boolean {
    const failure = this.failure();
    if (failure === undefined || !this.webviewReady || this.disposed) return false;
    this.post({ type: 'error', message: failure });
    return true;
  }

  /** The head the webview asked for last (a command acts on it: "Save this head as a spec"). */
  lastHead: { layer: number; head: number } | undefined;

  /** The tiles computed one at a time (a run's, from its q and k), in the order asked. */
  private tileTurns: Promise<unknown> = Promise.resolve();

  /**
   * Runs `job` once the tiles asked before it are answered, or drops it (undefined) when by then the
   * webview has asked for another head: a tile computed from q and k costs up to one pass over the
   * head, and a user stepping through heads would otherwise queue every head's tiles in the worker.
   */
  inTileTurn<T>(layer: number, head: number, job: () => Promise<T>): Promise<T | undefined> {
    const turn = this.tileTurns.then(() => {
      const shown = this.lastHead;
      return shown && (shown.layer !== layer || shown.head !== head) ? undefined : job();
    });
    this.tileTurns = turn.catch(() => undefined);
    return turn;
  }

  /** The webview asked for a head: the time it asked (its paint ends the switch). */
  headAsked(layer?: number, head?: number): number {
    if (layer !== undefined && head !== undefined) this.lastHead = { layer, head };
    this.headAskedAt = performance.now();
    return this.headAskedAt;
  }

  /** The worker read the head asked for at `askedAt`. */
  headRead(askedAt: number): void { this.own.lastHeadReadMs = performance.now() - askedAt; }

  /** The webview drew a view: the tests' record of it. */
  painted(m: Painted): void {
    const since = performance.now() - this.started;
    const info = this.own;
    info.state = 'ready';
    info.view = m.view;
    info.items = m.items;
    info.lastDrawMs = m.drawMs;
    if (m.items > 0 || m.view !== 'model') info.firstPaintMs ??= since;
    if (m.view === 'model' && this.scan.shape && m.items === this.scan.shape.layers * this.scan.shape.heads) info.fullPaintMs ??= since;
    if (m.view === 'head' && m.items > 0 && this.headAskedAt !== undefined) {
      info.lastHeadMs = performance.now() - this.headAskedAt;
      info.lastHeadDrawMs = m.drawMs;
      this.headAskedAt = undefined;
    }
  }

  exportView(m: Extract<ModelWebviewMessage, { type: 'export' }>): void { this.hooks.exportView?.(m); }

  /** The webview asked for a head in the lens. */
  lens(m: Extract<ModelWebviewMessage, { type: 'lens' }>): void { this.hooks.lens?.(m); }

  /** The webview asked for the run's logit lens or a step of its generation. */
  analysis(m: Extract<ModelWebviewMessage, { type: 'logitLens' | 'step' }>): void { this.hooks.analysis?.(m); }
  /** Whether the attention shown is a model run's (it has norms, and heads to ablate). */
  get runs(): boolean { return this.hooks.ablate !== undefined; }

  /** The webview asked for heads to be ablated. */
  ablate(m: Extract<ModelWebviewMessage, { type: 'ablate' }>): void { this.hooks.ablate?.(m); }

  /** Posts a message of the editor's owner (a model run's news) to the webview, once it is ready. */
  say(m: ModelHostMessage): void { if (this.webviewReady) this.post(m); }

  /** Shows a view (of a head) in the webview (tests and benches drive the editor with it). */
  show(view: ModelViewName, layer: number, head: number): void {
    this.post({ type: 'show', view, layer, head });
  }

  /** The editor closed: its scan goes on for the other editors (or stops, if none watches it). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.epoch++;
    this.document.leave(this.scan, this);
    this.document.detach(this);
  }

  private failure(): string | undefined { return this.problem ?? this.scan.error; }

  private post(m: ModelHostMessage): void { if (!this.disposed) this.hooks.post(m); }

  /** Everything again, to a webview that has nothing (new, or its options changed): the snapshot or the failure. */
  private refresh(): void {
    this.posted = -1;
    if (!this.webviewReady) return;
    for (const m of this.hooks.preamble?.() ?? []) this.post(m);
    const failure = this.failure();
    if (failure !== undefined) this.post({ type: 'error', message: failure });
    else this.sync(true);
  }

  /** Posts what was read since the last post (at most every POST_EVERY_MS unless `flush`). */
  private sync(flush: boolean): void {
    const { shape, done } = this.scan;
    if (!this.webviewReady || this.disposed || !shape || !done || this.failure() !== undefined) return;
    const now = performance.now();
    const all = done.result();
    const header = this.scan.header()!;
    const side = shape.thumb ** 2;
    if (this.posted < 0) {
      this.post({ type: 'model', header, thumbnails: thumbnailIndices(all.thumbnails, shape.thumb) });
    } else {
      if (this.posted === done.read || (!flush && now - this.postedAt < (this.hooks.postEveryMs ?? POST_EVERY_MS))) return;
      this.post({
        type: 'scanned', from: this.posted, stats: all.stats.slice(this.posted, done.read),
        thumbnails: thumbnailIndices(all.thumbnails.subarray(this.posted * side, done.read * side), shape.thumb),
        offRows: all.offRows, warnings: header.warnings,
      });
    }
    this.posted = done.read;
    this.postedAt = now;
  }
}
