// The read-only custom editor for model attention files (*.safetensors, *.npy, *.npz; "Open With…
// Attention Lens", or the explorer's command). A worker thread (model-reader.ts) opens the file
// (header and offsets only) and reads every head once for the statistics and thumbnails; the host
// posts them as Float32Arrays, then one head or the rollout when the webview asks. Every message from the webview is checked; a file
// the readers refuse becomes an error panel with their one-line message, never a blank editor.
import type { OpenOptions } from '../core/tensors/open.js';
import * as vscode from 'vscode';
import type { ModelHeader, ScanOptions } from '../core/model-attention/data.js';
import { ModelReader, ReaderError } from './model-reader.js';
import { webviewMessageProblem, type ModelHostMessage, type ModelWebviewMessage } from '../core/model-attention/messages.js';
import { makeNonce } from './panel-html.js';
import { modelEditorHtml } from './model-editor-html.js';
import { log } from './log.js';
import { writeExport } from './export.js';

export const MODEL_VIEW_TYPE = 'attentionLens.model';

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
  /** The host's time for the streaming pass (statistics and thumbnails). */
  scanMs?: number;
}

class ModelSession {
  reader: ModelReader | undefined;
  header: ModelHeader | undefined;
  options: ScanOptions = {};
  constructor(readonly info: ModelEditorInfo) {}
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
    const session = new ModelSession({ uri: document.uri.toString(), state: 'loading' });
    this.sessions.add(session);
    let disposed = false;
    const post = (m: ModelHostMessage) => { if (!disposed) void panel.webview.postMessage(m); };
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
    const load = async () => {
      if (document.uri.scheme !== 'file') { fail(`${document.uri.toString()}: Attention Lens reads model files from disk only (this one is on ${document.uri.scheme})`); return; }
      session.header = undefined;
      session.reader ??= new ModelReader(vscode.Uri.joinPath(this.extensionUri, 'dist', 'model-worker.js').fsPath);
      await guarded(async (reader) => {
        const { header, thumbnails, ms } = await reader.scan(document.uri.fsPath, session.options, this.references.get(document.uri.toString()));
        session.info.scanMs = ms;
        session.header = header;
        session.info.tokens = header.tokenTexts.slice(0, 8);
        post({ type: 'model', header, thumbnails });
      });
    };
    panel.webview.onDidReceiveMessage((m: unknown) => {
      const problem = webviewMessageProblem(m, session.header);
      if (problem) { log().warn(`model editor: ignored a message from the webview: ${problem}`); return; }
      const message = m as ModelWebviewMessage;
      switch (message.type) {
        case 'ready': void load(); break;
        case 'softmax': session.options = { softmax: true }; void load(); break;
        case 'head': void guarded(async (r) => post({ type: 'head', layer: message.layer, head: message.head, weights: await r.head(message.layer, message.head, session.options) })); break;
        case 'rollout': void guarded(async (r) => post({ type: 'rollout', rollout: await r.rollout(session.options) })); break;
        case 'export': void writeExport(document.uri, message.view, message.format, message.data); break;
        case 'painted':
          if (session.info.state !== 'error') session.info.state = 'ready';
          session.info.view = message.view;
          session.info.items = message.items;
          session.info.firstPaintMs ??= performance.now() - started;
          break;
      }
    });
    panel.onDidDispose(() => { disposed = true; session.close(); this.sessions.delete(session); });
  }
}
