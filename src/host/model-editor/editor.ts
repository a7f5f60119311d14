// The read-only custom editor for model attention files (*.safetensors, *.npy, *.npz; "Open With…
// Attention Lens", or the explorer's command). A worker thread (model-reader.ts) opens the file
// (header and offsets only) and the grid is posted at once; then the worker, with a helper per
// spare core (model-scan.ts), reads every head once for the statistics and thumbnails, posted as
// Float32Arrays as they come in order; then one head or the rollout when the webview asks. Every message from the webview is checked; a file
// the readers refuse becomes an error panel with their one-line message, never a blank editor.
import type { OpenOptions } from '../../core/files/open.js';
import * as vscode from 'vscode';
import { availableParallelism } from 'node:os';
import { thumbnailIndices, WHOLE_HEAD_MAX, type ModelHeader, type ScanOptions } from '../../core/model/data.js';
import { headerOf, type ModelShape } from '../../core/model/scan.js';
import { PassAccumulator, type HeadPicture } from '../../core/tensors/pass.js';
import { headRanges, scanWithReaders, WEIGHTS_PER_RANGE } from './scan.js';
import { ModelReader, ReaderError } from './reader.js';
import { webviewMessageProblem, type ModelHostMessage, type ModelWebviewMessage } from '../../protocol/model-editor.js';
import { makeNonce } from '../../pages/panel-html.js';
import { modelEditorHtml } from '../../pages/model-editor-html.js';
import { log } from '../log.js';
import { writeExport } from '../panel/export.js';

export const MODEL_VIEW_TYPE = 'attentionLens.model';

/** Heads read are posted to the webview at most this often (each post redraws the grid). */
const POST_EVERY_MS = 150;
/** Workers reading a scan besides the editor's own (memory: a few rows each). */
const MAX_SCAN_HELPERS = 3;

/** What the integration tests see of each open model editor. */
export interface ModelEditorInfo {
  uri: string;
  state: 'loading' | 'ready' | 'error';
  view?: string;
  /** Heads, cells, rows or bars the webview drew in its last paint. */
  items?: number;
  /** The first tokens of the file (or of the spec that references it). */
  tokens?: string[];
  error?: string;
  /** From resolving the editor to the webview's 'ready' (its boot: page, script, first message). */
  readyMs?: number;
  /** From resolving the editor to the webview's first paint. */
  firstPaintMs?: number;
  /** From asking for the file to having read every head (statistics and thumbnails). */
  scanMs?: number;
  /** Heads read so far, of `total`. */
  read?: number;
  total?: number;
  /** From resolving the editor to the first paint that shows every head. */
  fullPaintMs?: number;
  /** The webview's own drawing time of its last paint. */
  lastDrawMs?: number;
  /** The last head switch: from the webview asking for the head to its paint, and the worker's read within it. */
  lastHeadMs?: number;
  lastHeadReadMs?: number;
  /** The webview's own drawing time of that head view (the rest is reading and carrying the message). */
  lastHeadDrawMs?: number;
}

class ModelSession {
  reader: ModelReader | undefined;
  header: ModelHeader | undefined;
  options: ScanOptions = {};
  /** When the webview asked for the head it is waiting for (for lastHeadMs). */
  headAskedAt: number | undefined;
  /** The heads' pictures the scan kept (in head order, as far as it has read), for the options it read with. */
  pictures: readonly HeadPicture[] = [];
  constructor(readonly info: ModelEditorInfo, readonly post: (m: ModelHostMessage) => void) {}
  close(): void { this.reader?.dispose(); this.reader = undefined; }
}

export class ModelEditorProvider implements vscode.CustomReadonlyEditorProvider {
  private readonly sessions = new Set<ModelSession>();
  /** The tensor and tokens a spec named for a file it references, by the file's URI (Show Attention on such a spec). */
  private readonly references = new Map<string, OpenOptions>();

  /** Opens the model editor on a file a spec references, with the spec's tensor and tokens. */
  openReference(file: vscode.Uri, open: OpenOptions): Thenable<unknown> {
    this.references.set(file.toString(), open);
    return vscode.commands.executeCommand('vscode.openWith', file, MODEL_VIEW_TYPE, vscode.ViewColumn.Beside);
  }
  constructor(private readonly extensionUri: vscode.Uri) {}

  private workerScript(): string {
    return vscode.Uri.joinPath(this.extensionUri, 'dist', 'model-worker.js').fsPath;
  }

  /** More readers for a scan that is more than one range of heads, one per spare core (the host keeps one). */
  private scanHelpers(shape: ModelShape): ModelReader[] {
    const spare = Math.min(MAX_SCAN_HELPERS, availableParallelism() - 1, headRanges(shape).length - 1);
    return Array.from({ length: Math.max(0, spare) }, () => new ModelReader(this.workerScript()));
  }

  static register(context: vscode.ExtensionContext): ModelEditorProvider {
    const provider = new ModelEditorProvider(context.extensionUri);
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(MODEL_VIEW_TYPE, provider, { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true }),
      vscode.commands.registerCommand('attentionLens.openModel', (uri?: unknown) => {
        const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
        if (target) return vscode.commands.executeCommand('vscode.openWith', target, MODEL_VIEW_TYPE);
        return vscode.window.showInformationMessage('Attention Lens: choose a .safetensors, .npy or .npz file in the explorer.');
      }),
    );
    return provider;
  }

  infos(): ModelEditorInfo[] { return [...this.sessions].map((s) => ({ ...s.info })); }

  /** Shows a view (of a head) in the editors open on `uri` (tests and benches drive the editor with it). */
  show(uri: string, view: 'model' | 'head' | 'finder' | 'rollout', layer: number, head: number): void {
    for (const s of this.sessions) if (s.info.uri === uri) s.post({ type: 'show', view, layer, head });
  }

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => {} };
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
    const started = performance.now();
    const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')];
    panel.webview.options = { enableScripts: true, localResourceRoots: roots };
    const asset = (...p: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...p)).toString();
    panel.webview.html = modelEditorHtml({
      nonce: makeNonce(), cspSource: panel.webview.cspSource,
      scriptUri: asset('dist', 'model-webview.js'), styleUri: asset('media', 'model.css'),
      fileName: document.uri.path.split('/').pop() ?? 'attention',
    });
    let disposed = false;
    const post = (m: ModelHostMessage) => { if (!disposed) void panel.webview.postMessage(m); };
    const session = new ModelSession({ uri: document.uri.toString(), state: 'loading' }, post);
    this.sessions.add(session);
    // The file is read while the webview boots: an error found before it is ready is posted when it is.
    let failed: string | undefined;
    const fail = (message: string) => {
      session.info.state = 'error';
      session.info.error = message;
      failed = message;
      if (webviewReady) post({ type: 'error', message });
    };
    /** Runs a read in the worker; a reader's refusal becomes the error panel, anything else is logged too. */
    const guarded = async (work: (reader: ModelReader) => Promise<void>) => {
      try {
        if (!session.reader) throw new ReaderError('the model file is not open', false);
        await work(session.reader);
      } catch (e) {
        if (disposed) return;
        if (!(e instanceof ReaderError && e.tensorError)) log().error(`model editor: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
        fail(e instanceof Error ? e.message : String(e));
      }
    };
    // The file is opened and read from the moment the editor resolves, while the webview boots; the
    // webview gets what is read so far when it says 'ready' (a snapshot: header and thumbnails), then
    // the next heads as they come. A webview made anew (hidden and shown again) says 'ready' again.
    let generation = 0;
    let webviewReady = false;
    let booted: () => void = () => {};
    const webviewBooted = new Promise<void>((resolve) => { booted = resolve; });
    /** Posts what was read since the last post (at most every POST_EVERY_MS unless `last`); `fresh`: all of it, to a new webview. */
    let sync: (last: boolean, fresh?: boolean) => void = () => {};
    const load = async () => {
      if (document.uri.scheme !== 'file') { fail(`${document.uri.toString()}: Attention Lens reads model files from disk only (this one is on ${document.uri.scheme})`); return; }
      const mine = ++generation;
      const stale = () => disposed || mine !== generation;
      failed = undefined;
      session.header = undefined;
      session.pictures = [];
      sync = () => {};
      session.reader ??= new ModelReader(this.workerScript());
      await guarded(async (reader) => {
        const t0 = performance.now();
        const path = document.uri.fsPath, open = this.references.get(document.uri.toString());
        const shape = await reader.open(path, open);
        if (stale()) return;
        const options = session.options;
        const side = shape.thumb ** 2;
        let read: PassAccumulator = new PassAccumulator(shape.layers * shape.heads, shape.thumb);
        let posted = -1, postedAt = 0; // −1: nothing posted to this webview yet
        session.header = headerOf(shape, read.result(), options);
        session.info.tokens = shape.tokenTexts.slice(0, 8);
        session.info.read = 0;
        session.info.total = shape.layers * shape.heads;
        sync = (last, fresh = false) => {
          if (fresh) posted = -1;
          if (!webviewReady || stale()) return;
          const now = performance.now();
          const all = read.result();
          session.header = headerOf(shape, all, options);
          if (posted < 0) {
            post({ type: 'model', header: session.header, thumbnails: thumbnailIndices(all.thumbnails, shape.thumb) });
          } else {
            if (posted === read.read || (!last && now - postedAt < POST_EVERY_MS)) return;
            post({
              type: 'scanned', from: posted, stats: all.stats.slice(posted, read.read),
              thumbnails: thumbnailIndices(all.thumbnails.subarray(posted * side, read.read * side), shape.thumb),
              offRows: all.offRows, warnings: session.header.warnings,
            });
          }
          posted = read.read;
          postedAt = now;
        };
        sync(true);
        // Helpers join once the webview has booted (its first paint needs the cores more than the scan).
        const helpers: ModelReader[] = [];
        let scanning = true;
        const later = webviewBooted.then(async () => {
          if (!scanning || stale()) return [];
          for (const h of this.scanHelpers(shape)) {
            if (!scanning) { h.dispose(); break; }
            helpers.push(h);
            await h.open(path, open);
          }
          return scanning ? helpers : [];
        });
        try {
          const done = await scanWithReaders([reader], shape, options, (d) => {
            read = d;
            session.pictures = d.pictures;
            session.info.read = d.read;
            sync(false);
          }, stale, WEIGHTS_PER_RANGE, later);
          if (stale()) return;
          read = done;
          sync(true);
          session.info.scanMs = performance.now() - t0;
        } finally {
          scanning = false;
          for (const h of helpers) h.dispose();
        }
      });
    };
    panel.webview.onDidReceiveMessage((m: unknown) => {
      const problem = webviewMessageProblem(m, session.header);
      if (problem) { log().warn(`model editor: ignored a message from the webview: ${problem}`); return; }
      const message = m as ModelWebviewMessage;
      switch (message.type) {
        case 'ready':
          webviewReady = true;
          session.info.readyMs ??= performance.now() - started;
          booted();
          if (failed !== undefined) post({ type: 'error', message: failed });
          else sync(true, true);
          break;
        case 'softmax': session.options = { softmax: true }; void load(); break;
        case 'head':
          session.headAskedAt = performance.now();
          void guarded(async (r) => {
            const { layer, head } = message;
            // A small head goes whole; a big one as its picture, with exact weights in windows on request.
            if (session.header!.tokens <= WHOLE_HEAD_MAX) {
              const weights = await r.head(layer, head, session.options);
              session.info.lastHeadReadMs = performance.now() - session.headAskedAt!;
              post({ type: 'head', layer, head, weights });
            } else {
              // The scan kept it (a switch then reads nothing), else the worker reads it now.
              const kept = session.pictures[layer * session.header!.heads + head];
              const { res, indices, max } = kept ?? await r.picture(layer, head, session.options);
              session.info.lastHeadReadMs = performance.now() - session.headAskedAt!;
              post({ type: 'head', layer, head, picture: { res, indices }, max });
            }
          });
          break;
        case 'window': {
          const { layer, head, i0, rows, j0, cols } = message;
          void guarded(async (r) => post({ type: 'window', layer, head, i0, rows, j0, cols, weights: await r.window(layer, head, i0, rows, j0, cols, session.options) }));
          break;
        }
        case 'rollout': void guarded(async (r) => post({ type: 'rollout', rollout: await r.rollout(session.options) })); break;
        case 'export': void writeExport(document.uri, message.view, message.format, message.data); break;
        case 'painted':
          if (session.info.state !== 'error') session.info.state = 'ready';
          session.info.view = message.view;
          session.info.items = message.items;
          session.info.lastDrawMs = message.ms;
          if (message.items > 0 || message.view !== 'model') session.info.firstPaintMs ??= performance.now() - started;
          if (message.view === 'model' && message.items === session.info.total) session.info.fullPaintMs ??= performance.now() - started;
          if (message.view === 'head' && message.items > 0 && session.headAskedAt !== undefined) {
            session.info.lastHeadMs = performance.now() - session.headAskedAt;
            session.info.lastHeadDrawMs = message.ms;
            session.headAskedAt = undefined;
          }
          break;
      }
    });
    void load();
    panel.onDidDispose(() => { disposed = true; session.close(); this.sessions.delete(session); });
  }
}
