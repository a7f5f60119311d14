// One Attention panel: a webview showing one spec. It posts a result (or the spec's problems)
// for each document version, follows edits with a short debounce, and acts on the webview's
// messages once they pass isWebviewMessage and are about the document it shows.
import * as vscode from 'vscode';
import { positionAt, type Problem } from '../core/problems.js';
import type { WireAttention } from '../core/model/wire.js';
import type {
  HostMessage, PanelProblem, PanelState, ProblemsMessage, RenderMessage, ViewName, WebviewMessage,
} from '../protocol.js';
import { isWebviewMessage } from '../protocol-check.js';
import type { AnalysisCache, HostAnalysis } from './analysis-cache.js';
import { Debouncer } from './debounce.js';
import { writeExport } from './export.js';
import { log } from './log.js';
import { webviewHtml } from './panel-webview.js';
import { revealInSpec } from './reveal.js';
import { baseName } from './spec-files.js';
import type { PanelInfo, PanelStatus, Timings } from './test-api.js';
import { FIRST_UPDATE_DELAY_MS, updateDelay } from './update-delay.js';

export const PANEL_VIEW_TYPE = 'attentionLens.panel';
const EXPORT_TIMEOUT_MS = 20_000;

export function toPanelProblem(text: string, p: Problem): PanelProblem {
  const { line, column } = positionAt(text, p.span.offset);
  return { severity: p.severity, message: p.message, path: p.path, line, column };
}

/** Tokens of the input the panel shows (the first one unless the user picked another). */
function shownTokens(json: WireAttention, state: PanelState | undefined): string[] {
  const input = json.inputs[state?.input ?? 0] ?? json.inputs[0];
  return input ? [...input.tokens] : [];
}

interface PendingExport {
  format: 'svg' | 'png';
  documentUri: vscode.Uri;
  timer: ReturnType<typeof setTimeout>;
}

export interface PanelContext {
  extensionUri: vscode.Uri;
  cache: AnalysisCache;
  timings: Timings;
}

export class AttentionPanel implements vscode.Disposable {
  private documentUri: vscode.Uri;
  private locked: boolean;
  /** The webview's script is running and has asked for data. */
  private webviewReady = false;
  /** The last render/problems message: re-sent whenever the webview (re)loads. */
  private content?: RenderMessage | ProblemsMessage;
  private queued: HostMessage[] = [];
  private status: PanelStatus = 'loading';
  private shownVersion = -1;
  private shownDocument?: vscode.TextDocument;
  private tokens: string[] = [];
  private lastJson?: WireAttention;
  private view: ViewName;
  private savedState?: PanelState;
  private showStartedAt?: number;
  private nextRequestId = 1;
  private readonly pendingExports = new Map<number, PendingExport>();
  private readonly debouncer = new Debouncer(FIRST_UPDATE_DELAY_MS);
  /** Analysis time of the version last posted, and that plus its drawing once the webview reports it. */
  private lastAnalysisMs = 0;
  private lastCostMs?: number;
  /** When the first edit since the last paint arrived: stopped by the 'rendered' of a later version. */
  private editStartedAt?: { at: number; version: number };
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private disposed = false;
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    documentUri: vscode.Uri,
    private readonly context: PanelContext,
    options: { locked?: boolean; state?: PanelState } = {},
  ) {
    this.documentUri = documentUri;
    this.locked = options.locked ?? options.state?.locked ?? false;
    this.savedState = options.state;
    this.view = options.state?.view ?? 'arcs';
    const { extensionUri } = context;
    panel.iconPath = {
      light: vscode.Uri.joinPath(extensionUri, 'media', 'icon-light.svg'),
      dark: vscode.Uri.joinPath(extensionUri, 'media', 'icon-dark.svg'),
    };
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => {
        // Hidden webviews are torn down; the script sends 'ready' again when shown.
        if (!panel.visible) this.webviewReady = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
    this.setTitle();
    panel.webview.html = webviewHtml(panel.webview, extensionUri, {
      documentUri: documentUri.toString(), fileName: baseName(documentUri), locked: this.locked, state: this.savedState,
    });
    void this.update();
  }

  get uri(): vscode.Uri {
    return this.documentUri;
  }

  get isLocked(): boolean {
    return this.locked;
  }

  info(): PanelInfo {
    return {
      documentUri: this.documentUri.toString(), version: this.shownVersion, state: this.status,
      tokens: [...this.tokens], view: this.view, locked: this.locked,
    };
  }

  /** Starts the clock for show-to-paint: stopped by the next 'rendered'. */
  markShown(): void {
    this.showStartedAt = performance.now();
  }

  showDocument(uri: vscode.Uri): void {
    if (uri.toString() === this.documentUri.toString()) return;
    this.documentUri = uri;
    this.shownVersion = -1;
    this.shownDocument = undefined;
    this.status = 'loading';
    this.tokens = [];
    this.lastJson = undefined;
    this.debouncer.cancel('update');
    this.setTitle();
    void this.update();
  }

  setLocked(locked: boolean): void {
    this.locked = locked;
    this.setTitle();
    this.post({ type: 'lock', locked });
  }

  /** The document changed: show the new version once typing pauses. */
  documentChanged(version: number): void {
    this.editStartedAt ??= { at: performance.now(), version };
    const delay = updateDelay(this.lastCostMs);
    this.context.timings.lastUpdateDelayMs = delay;
    this.debouncer.schedule('update', () => void this.update(), delay);
  }

  requestExport(format: 'svg' | 'png'): void {
    const requestId = this.nextRequestId++;
    const timer = setTimeout(() => {
      if (this.pendingExports.delete(requestId)) {
        void vscode.window.showWarningMessage('Attention Lens: the panel did not send the picture to export.');
      }
    }, EXPORT_TIMEOUT_MS);
    this.pendingExports.set(requestId, { format, documentUri: this.documentUri, timer });
    // Slides and print want a light background whatever the editor's theme: a setting says which.
    const light = vscode.workspace.getConfiguration('attentionLens').get<string>('exportBackground') === 'light';
    this.post({ type: 'exportRequest', requestId, format, ...(light ? { theme: 'light' as const } : {}) });
  }

  /** Reads the document as it is now and posts its result or its problems. */
  async update(): Promise<void> {
    const uri = this.documentUri;
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (err) {
      if (this.disposed || uri.toString() !== this.documentUri.toString()) return;
      const message = `cannot open ${baseName(uri)}: ${err instanceof Error ? err.message : String(err)}`;
      this.showProblems(uri, 0, [{ severity: 'error', message, path: '', line: 1, column: 1 }]);
      return;
    }
    // The panel moved on to another document, or a newer version was shown already: drop this one.
    // (A closed and reopened document counts from 1 again, as a new TextDocument.)
    if (this.disposed || uri.toString() !== this.documentUri.toString()) return;
    if (document === this.shownDocument && document.version < this.shownVersion) return;
    const version = document.version;
    const text = document.getText();
    let analysis: HostAnalysis;
    try {
      // Read and computed in the worker; long work says how far it is in the panel's status line.
      analysis = await this.context.cache.get(document, (done, total) =>
        this.post({ type: 'progress', documentUri: uri.toString(), version, done, total }));
    } catch {
      return; // replaced by a newer version, whose update is on its way
    }
    if (this.disposed || uri.toString() !== this.documentUri.toString()) return;
    if (document === this.shownDocument && version < this.shownVersion) return;
    this.shownDocument = document;
    this.lastAnalysisMs = analysis.ms;
    this.context.timings.lastAnalysisMs = analysis.ms;
    this.showAnalysis(document, version, text, analysis);
  }

  private showAnalysis(document: vscode.TextDocument, version: number, text: string, analysis: HostAnalysis): void {
    const problems = analysis.problems.map((p) => toPanelProblem(text, p));
    if (analysis.wire) {
      this.shownVersion = version;
      this.lastJson = analysis.wire.header;
      this.content = {
        type: 'render', documentUri: document.uri.toString(), fileName: baseName(document.uri),
        version, result: analysis.wire.header, buffer: analysis.wire.buffer, warnings: problems.filter((p) => p.severity === 'warning'),
      };
      this.context.timings.lastMessageBytes = analysis.wire.buffer.byteLength;
      this.post(this.content);
    } else {
      this.showProblems(document.uri, version, problems);
    }
  }

  private showProblems(uri: vscode.Uri, version: number, problems: PanelProblem[]): void {
    this.shownVersion = version;
    this.status = 'error';
    this.content = { type: 'problems', documentUri: uri.toString(), fileName: baseName(uri), version, problems };
    this.post(this.content);
  }

  /** Posts now if the webview is listening; otherwise flush() sends the content, the lock and any export request on 'ready'. */
  private post(message: HostMessage): void {
    if (!this.webviewReady) {
      if (message.type === 'exportRequest') this.queued.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  private flush(): void {
    const messages: HostMessage[] = [{ type: 'lock', locked: this.locked }];
    if (this.content) messages.push(this.content);
    messages.push(...this.queued);
    this.queued = [];
    for (const m of messages) void this.panel.webview.postMessage(m);
  }

  private receive(message: unknown): void {
    if (!isWebviewMessage(message)) {
      log().warn('ignored a message from the webview that is not in the protocol:', safeString(message));
      return;
    }
    const current = this.documentUri.toString();
    if ('documentUri' in message && message.documentUri !== current) {
      log().info(`ignored a '${message.type}' message for ${message.documentUri}; the panel shows ${current}`);
      return;
    }
    this.handle(message);
  }

  private handle(message: WebviewMessage): void {
    switch (message.type) {
      case 'ready':
        this.webviewReady = true;
        this.flush();
        return;
      case 'rendered':
        this.rendered(message.version, message.view, message.drawMs);
        return;
      case 'reveal':
        void revealInSpec(this.documentUri, message.target, this.panel.viewColumn)
          .catch((err) => log().error('reveal failed:', err instanceof Error ? err.message : String(err)));
        return;
      case 'state':
        if (message.state.documentUri !== this.documentUri.toString()) return;
        this.savedState = message.state;
        this.view = message.state.view;
        if (this.lastJson && this.status === 'ready') this.tokens = shownTokens(this.lastJson, this.savedState);
        return;
      case 'exportResult': {
        const pending = this.pendingExports.get(message.requestId);
        if (!pending || pending.format !== message.format) {
          log().warn(`ignored an export result for unknown request ${message.requestId}`);
          return;
        }
        clearTimeout(pending.timer);
        this.pendingExports.delete(message.requestId);
        void writeExport(pending.documentUri, this.view, message.format, message.data);
        return;
      }
    }
  }

  private rendered(version: number, view: ViewName, drawMs: number): void {
    if (version < this.shownVersion) {
      log().trace(`dropped a stale 'rendered' for version ${version} (showing ${this.shownVersion})`);
      return;
    }
    this.view = view;
    if (this.content?.type === 'render' && this.lastJson) {
      this.status = 'ready';
      this.tokens = shownTokens(this.lastJson, this.savedState);
    }
    if (this.showStartedAt !== undefined) {
      this.context.timings.lastShowToPaintMs = performance.now() - this.showStartedAt;
      this.showStartedAt = undefined;
    }
    if (this.editStartedAt && version >= this.editStartedAt.version) {
      this.context.timings.lastEditToPaintMs = performance.now() - this.editStartedAt.at;
      this.editStartedAt = undefined;
    }
    this.lastCostMs = this.lastAnalysisMs + drawMs;
    log().trace(`rendered ${this.documentUri.toString()} v${version} (${view}) in ${drawMs.toFixed(1)} ms`);
  }

  private setTitle(): void {
    const name = baseName(this.documentUri);
    this.panel.title = this.locked ? `[Locked] Attention: ${name}` : `Attention: ${name}`;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.debouncer.dispose();
    for (const p of this.pendingExports.values()) clearTimeout(p.timer);
    this.pendingExports.clear();
    for (const s of this.subscriptions) s.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.panel.dispose();
  }
}

function safeString(x: unknown): string {
  try {
    return JSON.stringify(x)?.slice(0, 200) ?? String(x);
  } catch {
    return String(x);
  }
}
