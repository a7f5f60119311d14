// The read-only custom editor for model attention files (*.safetensors, *.npy, *.npz; "Open With…
// Attention Lens", or the explorer's command). A worker thread (model-reader.ts) opens the file
// (header and offsets only) and the grid is posted at once; then the worker, with a helper per
// spare core (model-scan.ts), reads every head once for the statistics and thumbnails, posted as
// Float32Arrays as they come in order; then one head or the rollout when the webview asks. Every message from the webview is checked; a file
// the readers refuse becomes an error panel with their one-line message, never a blank editor.
import type { OpenOptions } from '../core/tensors/open.js';
import * as vscode from 'vscode';
import { availableParallelism } from 'node:os';
import { WHOLE_HEAD_MAX, type ModelHeader, type ScanOptions } from '../core/model-attention/data.js';
import { headerOf, type ModelShape } from '../core/model-attention/scan.js';
import { PassAccumulator, type HeadPicture } from '../core/tensors/pass.js';
import { headRanges, scanWithReaders } from './model-scan.js';
import { ModelReader, ReaderError } from './model-reader.js';
import { webviewMessageProblem, type ModelHostMessage, type ModelWebviewMessage } from '../core/model-attention/messages.js';
import { makeNonce } from './panel-html.js';
import { modelEditorHtml } from './model-editor-html.js';
import { log } from './log.js';
import { writeExport } from './export.js';

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
  /** From resolving the editor to the webview's first paint. */
  firstPaintMs?: number;
  /** From asking for the file to having read every head (statistics and thumbnails). */
  scanMs?: number;
  /** Heads read so far, of `total`. */
  read?: number;
  total?: number;
  /** From resolving the editor to the first paint that shows every head. */
  fullPaintMs?: number;
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
    const fail = (message: string) => {
      session.info.state = 'error';
      session.info.error = message;
      post({ type: 'error', message });
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
    let generation = 0;
    const load = async () => {
      if (document.uri.scheme !== 'file') { fail(`${document.uri.toString()}: Attention Lens reads model files from disk only (this one is on ${document.uri.scheme})`); return; }
      const mine = ++generation;
      const stale = () => disposed || mine !== generation;
      session.header = undefined;
      session.pictures = [];
      session.reader ??= new ModelReader(this.workerScript());
      await guarded(async (reader) => {
        const t0 = performance.now();
        const path = document.uri.fsPath, open = this.references.get(document.uri.toString());
        const shape = await reader.open(path, open);
        if (stale()) return;
        // The header first (the grid of every head, none read yet), then the heads as they are read.
        const options = session.options;
        session.header = headerOf(shape, new PassAccumulator(0, 0).result(), options);
        session.info.tokens = shape.tokenTexts.slice(0, 8);
        session.info.read = 0;
        session.info.total = shape.layers * shape.heads;
        post({ type: 'model', header: session.header, thumbnails: new Float32Array(shape.layers * shape.heads * shape.thumb ** 2) });
        const helpers = this.scanHelpers(shape);
        try {
          for (const h of helpers) await h.open(path, open);
          let posted = 0, postedAt = 0;
          const postRead = (done: PassAccumulator, last: boolean) => {
            const now = performance.now();
            if (posted === done.read || (!last && now - postedAt < POST_EVERY_MS)) return;
            const all = done.result();
            session.header = headerOf(shape, all, options);
            post({
              type: 'scanned', from: posted, stats: all.stats.slice(posted, done.read),
              thumbnails: all.thumbnails.slice(posted * shape.thumb ** 2, done.read * shape.thumb ** 2),
              offRows: all.offRows, warnings: session.header.warnings,
            });
            posted = done.read;
            postedAt = now;
            session.info.read = done.read;
          };
          const done = await scanWithReaders([reader, ...helpers], shape, options, (d) => { session.pictures = d.pictures; postRead(d, false); }, stale);
          if (stale()) return;
          postRead(done, true);
          session.info.scanMs = performance.now() - t0;
        } finally {
          for (const h of helpers) h.dispose();
        }
      });
    };
    panel.webview.onDidReceiveMessage((m: unknown) => {
      const problem = webviewMessageProblem(m, session.header);
      if (problem) { log().warn(`model editor: ignored a message from the webview: ${problem}`); return; }
      const message = m as ModelWebviewMessage;
      switch (message.type) {
        case 'ready': void load(); break;
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
    panel.onDidDispose(() => { disposed = true; session.close(); this.sessions.delete(session); });
  }
}
