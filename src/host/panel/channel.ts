// The panel's line to its webview: messages wait until the webview's script says 'ready' (and
// the last content is sent again whenever a hidden webview comes back, since VS Code tears hidden
// webviews down); an export is a request with an id, answered by the webview, or timed out.
import type * as vscode from 'vscode';
import type { ExportRequestMessage, HostMessage, ProblemsMessage, RenderMessage } from '../../protocol/panel.js';

const EXPORT_TIMEOUT_MS = 20_000;

export interface ExportReply {
  format: 'svg' | 'png';
  data: string;
}

interface Pending<T> {
  format: 'svg' | 'png';
  context: T;
  timer: ReturnType<typeof setTimeout>;
}

export class WebviewChannel<T> {
  /** The webview's script is running and has asked for data. */
  private ready = false;
  /** The last render or problems message: what a (re)loaded webview is sent first. */
  private content?: RenderMessage | ProblemsMessage;
  /** Export requests made while the webview was not listening. */
  private queued: HostMessage[] = [];
  private nextRequestId = 1;
  private readonly pending = new Map<number, Pending<T>>();

  constructor(private readonly webview: vscode.Webview, private readonly lockState: () => boolean) {}

  /** The webview was hidden (VS Code tears it down): nothing is posted until it says 'ready' again. */
  hidden(): void {
    this.ready = false;
  }

  /** The webview's 'ready': the lock, the content and anything queued go now. */
  becameReady(): void {
    this.ready = true;
    const messages: HostMessage[] = [{ type: 'lock', locked: this.lockState() }];
    if (this.content) messages.push(this.content);
    messages.push(...this.queued);
    this.queued = [];
    for (const m of messages) void this.webview.postMessage(m);
  }

  /** The picture's content for a version: posted now, and kept for a webview that comes back. */
  show(content: RenderMessage | ProblemsMessage): void {
    this.content = content;
    this.post(content);
  }

  get current(): RenderMessage | ProblemsMessage | undefined {
    return this.content;
  }

  /** Milliseconds the last postMessage held this thread (VS Code serialises the message there). */
  lastPostMs = 0;

  /** Posts now if the webview is listening; an export request waits for 'ready', anything else is dropped (the content is re-sent then). */
  post(message: HostMessage): void {
    if (!this.ready) {
      if (message.type === 'exportRequest') this.queued.push(message);
      return;
    }
    const t0 = performance.now();
    void this.webview.postMessage(message);
    this.lastPostMs = performance.now() - t0;
  }

  /** Asks the webview for a picture; `onTimeout` runs if no answer comes. `context` comes back with the answer. */
  requestExport(request: Omit<ExportRequestMessage, 'type' | 'requestId'>, context: T, onTimeout: () => void): void {
    const requestId = this.nextRequestId++;
    const timer = setTimeout(() => {
      if (this.pending.delete(requestId)) onTimeout();
    }, EXPORT_TIMEOUT_MS);
    this.pending.set(requestId, { format: request.format, context, timer });
    this.post({ type: 'exportRequest', requestId, ...request });
  }

  /** The webview's answer to a request: its context, or undefined for an id we never asked (or a changed format). */
  answer(requestId: number, format: 'svg' | 'png'): T | undefined {
    const p = this.pending.get(requestId);
    if (!p || p.format !== format) return undefined;
    clearTimeout(p.timer);
    this.pending.delete(requestId);
    return p.context;
  }

  dispose(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}
