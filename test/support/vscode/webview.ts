// The `vscode` stand-in's webviews (see index.ts). A Webview records what the host posts (a
// structured clone, as VS Code carries it) while its page is live, refuses posts once disposed, and
// lets a test speak as the page's script (`fromPage`). A WebviewPanel has VS Code's lifetime: hidden
// (its page torn down, nothing delivered until shown again), shown, active, disposed (by the user's
// close or the host's dispose(), onDidDispose firing once). No page runs: the test is the page.
import { EventEmitter, Uri, type ViewColumn } from './values.js';

/** The origin VS Code serves a webview's local resources from. */
export const RESOURCE_ORIGIN = 'https://file+.vscode-resource.vscode-cdn.net';

export interface WebviewOptions { enableScripts?: boolean; enableFindWidget?: boolean; localResourceRoots?: readonly Uri[]; retainContextWhenHidden?: boolean }

export class Webview {
  options: WebviewOptions;
  html = '';
  readonly cspSource = 'https://*.vscode-cdn.net';
  /** What the page received, in order (nothing while the panel was hidden or after it closed). */
  readonly received: unknown[] = [];
  private readonly messages = new EventEmitter<unknown>();
  readonly onDidReceiveMessage = this.messages.event;

  constructor(private readonly panel: WebviewPanel, options: WebviewOptions) {
    this.options = options;
  }

  asWebviewUri(uri: Uri): Uri {
    return Uri.parse(`${RESOURCE_ORIGIN}${uri.path}`);
  }

  postMessage(message: unknown): Thenable<boolean> {
    if (this.panel.disposed) return Promise.reject(new Error('Webview is disposed'));
    const live = this.panel.visible || this.options.retainContextWhenHidden === true;
    if (live) this.received.push(structuredClone(message));
    return Promise.resolve(live);
  }

  /** The page's script posts `message` to the host (a clone: the page and the host share nothing). */
  fromPage(message: unknown): void {
    if (this.panel.disposed || !this.panel.visible) throw new Error('stand-in: a hidden or closed page cannot post');
    this.messages.fire(structuredClone(message));
  }

  /** Messages of one type the page received (messages are the protocol's objects with a `type`). */
  receivedOf(type: string): Record<string, unknown>[] {
    return this.received.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type);
  }

  dispose(): void {
    this.messages.dispose();
  }
}

export interface ViewStateEvent { webviewPanel: WebviewPanel }

export class WebviewPanel {
  readonly webview: Webview;
  iconPath?: unknown;
  visible = true;
  active = true;
  disposed = false;
  private readonly viewState = new EventEmitter<ViewStateEvent>();
  private readonly disposeEmitter = new EventEmitter<void>();
  readonly onDidChangeViewState = this.viewState.event;
  readonly onDidDispose = this.disposeEmitter.event;

  constructor(readonly viewType: string, public title: string, public viewColumn: ViewColumn | undefined, readonly options: WebviewOptions = {}) {
    this.webview = new Webview(this, options);
  }

  reveal(viewColumn?: ViewColumn, preserveFocus?: boolean): void {
    if (this.disposed) throw new Error('Webview is disposed');
    if (viewColumn !== undefined) this.viewColumn = viewColumn;
    this.changeView(true, !preserveFocus || this.active);
  }

  /** The user switched to another tab of the group: the page is torn down (unless retained). */
  hide(): void {
    this.changeView(false, false);
  }

  /** The user came back to the tab: a new page loads (its script will say 'ready' again: the test says it). */
  show(): void {
    this.changeView(true, true);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.visible = false;
    this.active = false;
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
    this.viewState.dispose();
    this.webview.dispose();
  }

  private changeView(visible: boolean, active: boolean): void {
    if (this.visible === visible && this.active === active) return;
    this.visible = visible;
    this.active = active;
    this.viewState.fire({ webviewPanel: this });
  }
}
