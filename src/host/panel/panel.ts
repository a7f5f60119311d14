// One Attention panel: a webview showing one spec. It posts a result (or the spec's problems)
// for each document version, follows edits with a short debounce, and acts on the webview's
// messages once they pass isWebviewMessage and are about the document it shows. Its parts: the
// channel to the webview (channel.ts), its clocks (metrics.ts) and what it knows of
// the document it shows (preview.ts, made anew for each document). Its analyses come from the
// shared cache (host/analysis/cache.ts): one per document version, whoever else asks.
import * as vscode from 'vscode';
import { positionAt, type Problem } from '../../core/json/problems.js';
import type { PanelElsewhere, PanelProblem, PanelState, ViewName, WebviewMessage } from '../../protocol/panel.js';
import { isWebviewMessage } from '../../protocol/panel-check.js';
import type { AnalysisCache, HostAnalysis } from '../analysis/cache.js';
import type { AttentionReference } from '../../core/spec/read/reference.js';
import type { OpenOptions } from '../../core/files/open.js';
import { Debouncer } from '../debounce.js';
import { writeExport } from './export.js';
import { askExportTarget } from './save-dialog.js';
import { userDialogs, type Dialogs } from '../dialogs.js';
import { log } from '../log.js';
import { WebviewChannel } from './channel.js';
import { PanelMetrics } from './metrics.js';
import { webviewHtml } from './webview.js';
import { DocumentPreview } from './preview.js';
import { revealInSpec } from '../spec-editor/reveal.js';
import { baseName } from '../spec-documents.js';
import type { PanelInfo, Timings } from './info.js';
import { FIRST_UPDATE_DELAY_MS } from '../update-delay.js';
import { panelStory, siblingSpec } from './story.js';
import { referenceOpenOptions } from './reference-options.js';

export const PANEL_VIEW_TYPE = 'attentionLens.panel';

export function toPanelProblem(text: string, p: Problem): PanelProblem {
  const { line, column } = positionAt(text, p.span.offset);
  return { severity: p.severity, message: p.message, path: p.path, line, column };
}

export interface PanelContext {
  extensionUri: vscode.Uri;
  cache: AnalysisCache;
  timings: Timings;
  /** How the panel asks where to save (Export); the user's dialogs when absent. */
  dialogs?: Dialogs;
  /** Opens the model editor on a file a spec references ({ "attention": { "file" } }), beside the spec's editor. */
  openModel?: (file: vscode.Uri, open: OpenOptions, show: { focus: boolean; beside?: vscode.Uri }) => Thenable<unknown>;
  /**
   * Where the file a spec references lies (reference.ts on a disk), or a sentence saying why it cannot
   * be opened: the web build, with no disk, gives its own sentence.
   */
  referencedFile: (spec: vscode.Uri, ref: AttentionReference) => vscode.Uri | string;
  /** Opens the model views on the run of a model spec ({ "model", "text" }). */
  runModel?: (spec: vscode.Uri, show: { focus: boolean }) => void;
  /** Opens the spec the story names next (the webview's "Next"), in its editor and in `panel`. */
  openNext?: (spec: vscode.Uri, panel: AttentionPanel) => Thenable<unknown>;
}

/**
 * The model editor did not open on `file`: logged, and when the file is gone (deleted or moved since
 * the spec was read), the user is told in one line.
 */
async function modelNotOpened(file: vscode.Uri, error: unknown): Promise<void> {
  const gone = await Promise.resolve(vscode.workspace.fs.stat(file)).then(() => false, () => true);
  log().warn(`could not open the model editor on ${file.fsPath}${gone ? ' (the file is gone)' : ''}:`, error instanceof Error ? error.message : String(error));
  if (gone) void vscode.window.showErrorMessage(`Attention Lens: ${file.fsPath} is no longer there; the spec's "attention.file" names it.`);
}

export class AttentionPanel implements vscode.Disposable {
  private preview: DocumentPreview;
  private locked: boolean;
  private view: ViewName;
  private savedState?: PanelState;
  private readonly channel: WebviewChannel;
  private readonly metrics: PanelMetrics;
  /** An update is scheduled at once (an edit after a quiet spell) and has not run yet. */
  private atOnce = false;
  private readonly debouncer = new Debouncer(FIRST_UPDATE_DELAY_MS);
  /** Opens the editor that draws the spec shown, when another editor draws it (the page's 'openElsewhere'). */
  private openElsewhere?: () => void;
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
    this.preview = new DocumentPreview(documentUri);
    this.locked = options.locked ?? options.state?.locked ?? false;
    this.savedState = options.state;
    this.view = options.state?.view ?? 'arcs';
    this.channel = new WebviewChannel(panel.webview, () => this.locked);
    this.metrics = new PanelMetrics(context.timings);
    const { extensionUri } = context;
    panel.iconPath = {
      light: vscode.Uri.joinPath(extensionUri, 'media', 'icon-light.svg'),
      dark: vscode.Uri.joinPath(extensionUri, 'media', 'icon-dark.svg'),
    };
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
      panel.onDidChangeViewState(() => {
        // Hidden webviews are torn down; the script sends 'ready' again when shown.
        if (!panel.visible) this.channel.hidden();
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
    return this.preview.uri;
  }

  get isLocked(): boolean {
    return this.locked;
  }

  info(): PanelInfo {
    const p = this.preview;
    return {
      documentUri: p.uri.toString(), version: p.shownVersion, state: p.status,
      tokens: [...p.tokens], view: this.view, locked: this.locked,
    };
  }

  /** Starts the clock for show-to-paint: stopped by the next 'painted'. */
  markShown(): void {
    this.metrics.shown();
  }

  showDocument(uri: vscode.Uri): void {
    if (uri.toString() === this.uri.toString()) return;
    this.preview = new DocumentPreview(uri);
    this.debouncer.cancel('update');
    this.setTitle();
    void this.update();
  }

  setLocked(locked: boolean): void {
    this.locked = locked;
    this.setTitle();
    this.channel.post({ type: 'lock', locked });
  }

  /**
   * The document changed: show the new version once typing pauses. An edit after a quiet spell (one
   * edit, not typing) is shown at once: 0 ms still gathers the change events of the same moment, and
   * an event of that same moment (a paste and its format-on-paste) keeps the update at once instead
   * of putting it back by the typing debounce.
   */
  documentChanged(version: number): void {
    const delay = this.metrics.edited(version);
    this.atOnce = this.metrics.afterQuiet || this.atOnce;
    this.debouncer.schedule('update', () => { this.atOnce = false; void this.update(); }, this.atOnce ? 0 : delay);
  }

  /** Export: asks where to write (save-dialog.ts), then the webview for the picture (resolved once asked), then writes it. */
  async requestExport(format: 'svg' | 'png'): Promise<void> {
    // Slides and print want a light background whatever the editor's theme: a setting says which.
    const light = vscode.workspace.getConfiguration('attentionLens').get<string>('exportBackground') === 'light';
    // An export asked for the document and view shown now.
    const documentUri = this.uri;
    const view = this.view;
    const target = await askExportTarget(documentUri, view, format, this.context.extensionUri, this.context.dialogs ?? userDialogs);
    if (!target || this.disposed) return;
    // The channel settles the request only with a reply in the format asked (a PNG answering an SVG
    // request is refused below and the request waits on), so the reply's format is the one asked.
    void this.channel.requestExport({ format, ...(light ? { theme: 'light' as const } : {}) }).then((reply) => {
      void writeExport(documentUri, view, reply.format, reply.data, target);
    }, () => {
      if (!this.disposed) void vscode.window.showWarningMessage('Attention Lens: the panel did not send the picture to export.');
    });
  }

  /** Reads the document as it is now and posts its result or its problems. */
  async update(): Promise<void> {
    const preview = this.preview;
    const uri = preview.uri;
    this.metrics.updating();
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch (err) {
      if (this.disposed || preview !== this.preview) return;
      const message = `cannot open ${baseName(uri)}: ${err instanceof Error ? err.message : String(err)}`;
      this.showProblems(0, [{ severity: 'error', message, path: '', line: 1, column: 1 }]);
      return;
    }
    // The panel moved on to another document, or a newer version was shown already: drop this one.
    // (A closed and reopened document counts from 1 again, as a new TextDocument.)
    if (this.disposed || preview !== this.preview || !preview.isNew(document, document.version)) return;
    const version = document.version;
    const text = document.getText();
    let analysis: HostAnalysis;
    try {
      // Read and computed in the worker; long work says how far it is in the panel's status line.
      analysis = await this.context.cache.get(document, (done, total) =>
        this.channel.post({ type: 'progress', documentUri: uri.toString(), version, done, total }));
    } catch {
      return; // replaced by a newer version, whose update is on its way
    }
    if (this.disposed || preview !== this.preview || !preview.isNew(document, version)) return;
    preview.shownDocument = document;
    this.metrics.analysed(analysis.ms, analysis.wire?.buffer.byteLength);
    const problems = analysis.problems.map((p) => toPanelProblem(text, p));
    if (analysis.reference) {
      this.showReference(document, version, text, analysis.reference, problems);
      return;
    }
    if (analysis.model) {
      // A model spec is drawn by the model views on its run (beside this panel), which re-run as it is edited.
      // The panel says so as a fact, not as a problem: Problems has none to show for it.
      const { line, column } = positionAt(text, analysis.model.modelSpan.offset);
      const runModel = this.context.runModel;
      const elsewhere: PanelElsewhere = {
        message: `This is a model spec: it runs ${analysis.model.model} (line ${line}, column ${column}) on its text, `
          + 'and every head\'s attention is drawn in the model editor, not in this panel.',
        action: 'Open the model editor',
      };
      this.showProblems(version, problems, runModel && { ...elsewhere, open: () => runModel(document.uri, { focus: true }) });
      runModel?.(document.uri, { focus: false });
      return;
    }
    if (!analysis.wire) {
      this.showProblems(version, problems);
      return;
    }
    const wire = analysis.wire;
    // The next spec's title is read from its file: a short wait, after which this version may be stale.
    const story = analysis.story ? await panelStory(uri, analysis.story) : undefined;
    if (this.disposed || preview !== this.preview || !preview.isNew(document, version)) return;
    preview.shownVersion = version;
    preview.data = analysis.data;
    preview.next = story?.next?.file;
    this.openElsewhere = undefined;
    this.channel.show({
      type: 'render', documentUri: uri.toString(), fileName: baseName(uri),
      version, result: wire.header, buffer: wire.buffer, warnings: problems.filter((p) => p.severity === 'warning'),
      ...(story ? { story } : {}),
    });
    this.metrics.posted(version);
    this.context.timings.lastPostMs = this.channel.lastPostMs;
  }

  /**
   * The spec shows a model's attention from a file: the model editor opens on it (once per version
   * shown), and the panel says where the picture is instead of listing no problems.
   */
  private showReference(document: vscode.TextDocument, version: number, text: string, ref: AttentionReference, problems: PanelProblem[]): void {
    const { line, column } = positionAt(text, ref.span.offset);
    const file = this.context.referencedFile(document.uri, ref);
    if (typeof file === 'string') {
      this.showProblems(version, [{ severity: 'error', path: 'attention.file', line, column, message: file }, ...problems]);
      return;
    }
    const openModel = this.context.openModel;
    const elsewhere: PanelElsewhere = {
      message: `This spec shows the attention stored in ${ref.file} (line ${line}, column ${column}): `
        + 'it is drawn in the model editor (layers × heads, head finder, rollout), not in this panel.',
      action: 'Open the model editor',
    };
    // Beside the spec's editor: from the panel's own group, beside would be the spec's, or a new one.
    const open = openModel && ((focus: boolean) => {
      void Promise.resolve(openModel(file, referenceOpenOptions(ref), { focus, beside: this.uri })).catch((e: unknown) => modelNotOpened(file, e));
    });
    this.showProblems(version, problems, open && { ...elsewhere, open: () => open(true) });
    if (this.preview.referenced !== ref.file) {
      this.preview.referenced = ref.file;
      open?.(false);
    }
  }

  /** Lists the spec's problems; `elsewhere`: the spec is drawn by another editor, which `open` shows. */
  private showProblems(version: number, problems: PanelProblem[], elsewhere?: PanelElsewhere & { open: () => void }): void {
    const p = this.preview;
    p.shownVersion = version;
    p.status = 'error';
    this.openElsewhere = elsewhere?.open;
    this.channel.show({
      type: 'problems', documentUri: p.uri.toString(), fileName: baseName(p.uri), version, problems,
      ...(elsewhere ? { elsewhere: { message: elsewhere.message, action: elsewhere.action } } : {}),
    });
  }

  private receive(message: unknown): void {
    if (!isWebviewMessage(message)) {
      log().warn('ignored a message from the webview that is not in the protocol:', safeString(message));
      return;
    }
    const current = this.uri.toString();
    if ('documentUri' in message && message.documentUri !== current) {
      log().info(`ignored a '${message.type}' message for ${message.documentUri}; the panel shows ${current}`);
      return;
    }
    this.handle(message);
  }

  private handle(message: WebviewMessage): void {
    switch (message.type) {
      case 'ready':
        this.metrics.ready();
        this.channel.becameReady();
        return;
      case 'painted':
        this.painted(message.version, message.view, message.drawMs);
        return;
      case 'reveal':
        void revealInSpec(this.uri, message.target, this.panel.viewColumn)
          .catch((err) => log().error('reveal failed:', err instanceof Error ? err.message : String(err)));
        return;
      case 'state':
        if (message.state.documentUri !== this.uri.toString()) return;
        this.savedState = message.state;
        this.view = message.state.view;
        if (this.preview.status === 'ready') this.preview.tokens = this.preview.tokensFor(this.savedState);
        return;
      case 'need':
        void this.sendLinalg(message.version);
        return;
      case 'openNext': {
        // Only the spec this panel offered as next, beside the spec it shows.
        const next = message.file === this.preview.next ? siblingSpec(this.uri, message.file) : undefined;
        if (!next) {
          log().warn(`ignored an 'openNext' for ${message.file}: the panel offered ${this.preview.next ?? 'no next spec'}`);
          return;
        }
        void Promise.resolve(this.context.openNext?.(next, this))
          .catch((err) => log().error('opening the next spec failed:', err instanceof Error ? err.message : String(err)));
        return;
      }
      case 'openElsewhere':
        if (this.openElsewhere) this.openElsewhere();
        else log().warn(`ignored an 'openElsewhere': ${this.uri.toString()} is drawn in this panel`);
        return;
      case 'exportResult':
        if (!this.channel.answer(message.requestId, { format: message.format, data: message.data })) {
          log().warn(this.channel.isWaiting(message.requestId)
            ? `ignored an export result in ${message.format} for request ${message.requestId}: another format was asked, and the request waits on`
            : `ignored an export result for unknown request ${message.requestId}`);
        }
        return;
    }
  }

  /**
   * A view asked for the linear-algebra numbers of the version it shows: made in the worker from the
   * result it kept of that version (once per version, however many views or panels ask), posted when ready.
   */
  private async sendLinalg(version: number): Promise<void> {
    const preview = this.preview;
    const document = preview.shownDocument;
    if (!document || document.isClosed || version !== preview.shownVersion || document.version !== version) return;
    try {
      const linalg = await this.context.cache.linalg(document);
      if (!linalg || this.disposed || preview !== this.preview || preview.shownVersion !== version) return;
      this.channel.post({ type: 'linalg', documentUri: preview.uri.toString(), version, linalg });
    } catch {
      // Replaced by a newer request; the newer version's view asks again.
    }
  }

  private painted(version: number, view: ViewName, drawMs: number): void {
    const p = this.preview;
    if (version < p.shownVersion) {
      log().trace(`dropped a stale 'painted' for version ${version} (showing ${p.shownVersion})`);
      return;
    }
    this.view = view;
    if (this.channel.current?.type === 'render' && p.data) {
      p.status = 'ready';
      p.tokens = p.tokensFor(this.savedState);
    }
    this.metrics.painted(version, drawMs);
    log().trace(`painted ${p.uri.toString()} v${version} (${view}) in ${drawMs.toFixed(1)} ms`);
  }

  private setTitle(): void {
    const name = baseName(this.uri);
    this.panel.title = this.locked ? `[Locked] Attention: ${name}` : `Attention: ${name}`;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.debouncer.dispose();
    this.channel.dispose();
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
