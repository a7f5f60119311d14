// The panel's line to its webview: messages wait until the webview's script says 'ready' (and
// the last content is sent again whenever a hidden webview comes back, since VS Code tears hidden
// webviews down); an export is a request with an id (src/protocol/requests.ts), answered by the
// webview, or timed out.
import type * as vscode from 'vscode';
import type { ExportRequestMessage, HostMessage, ProblemsMessage, RenderMessage } from '../../protocol/panel.js';
import { RequestError, Requests } from '../../protocol/requests.js';

export const EXPORT_TIMEOUT_MS = 20_000;

export interface ExportReply {
  format: 'svg' | 'png';
  data: string;
}

/** What a webview needs of vscode.Webview here (a test passes a stand-in). */
export type PostTarget = Pick<vscode.Webview, 'postMessage'>;

export class WebviewChannel {
  /** The webview's script is running and has asked for data. */
  private ready = false;
  /** The last render or problems message: what a (re)loaded webview is sent first. */
  private content?: RenderMessage | ProblemsMessage;
  /** Export requests made while the webview was not listening. */
  private queued: HostMessage[] = [];
  private readonly exports: Requests<ExportReply>;

  constructor(private readonly webview: PostTarget, private readonly lockState: () => boolean, exportTimeoutMs = EXPORT_TIMEOUT_MS) {
    this.exports = new Requests<ExportReply>({ timeoutMs: exportTimeoutMs, timeoutMessage: () => 'the panel did not send the picture to export' });
  }

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

  /**
   * Asks the webview for a picture; resolves with the webview's answer, rejects (RequestError) when
   * none comes in time or the panel closes first.
   */
  requestExport(request: Omit<ExportRequestMessage, 'type' | 'requestId'>): Promise<ExportReply> {
    return this.exports.ask((requestId) => this.post({ type: 'exportRequest', requestId, ...request }), (reply) => reply.format === request.format);
  }

  /** Whether export request `requestId` still waits for its answer. */
  isWaiting(requestId: number): boolean {
    return this.exports.isPending(requestId);
  }

  /** The webview's answer to an export: false for an id never asked, or already answered or timed out, or another format than asked (the request waits on). */
  answer(requestId: number, reply: ExportReply): boolean {
    return this.exports.settle(requestId, reply);
  }

  dispose(): void {
    this.exports.close(new RequestError('the panel closed'));
  }
}
