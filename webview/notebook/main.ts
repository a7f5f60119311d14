// The notebook renderer's entry (package.json contributes.notebookRenderer, for the MIME type
// application/vnd.attention-lens.v1+json that the Python package's show() writes): VS Code loads this
// module in the notebook's webview and calls activate(); each output is drawn by cell.ts. Through
// the renderer messaging (when the extension is there to answer), "Open in Attention Lens" is a
// request with an id (requests.ts) that the host answers once; the drawings are reported to it.
import { Requests } from '../../src/protocol/requests.js';
import { rendererReplyProblem, type RendererMessage, type RendererReply } from '../../src/protocol/notebook.js';
import { cannotShow, renderAttentionOutput, type CellHost, type RenderedCell } from './cell.js';

/** What VS Code hands a renderer (the part of vscode-notebook-renderer's RendererContext used here). */
export interface RendererContext {
  postMessage?(message: unknown): void;
  onDidReceiveMessage?(listener: (message: unknown) => void): { dispose(): void };
}

/** One output (the part of vscode-notebook-renderer's OutputItem used here). */
export interface OutputItem {
  readonly id: string;
  readonly mime: string;
  json(): unknown;
}

/** How long "Open in Attention Lens" waits for the extension's answer. */
export const OPEN_TIMEOUT_MS = 30_000;

export function activate(ctx: RendererContext) {
  const cells = new Map<string, RenderedCell>();
  const post = ctx.postMessage?.bind(ctx);
  const requests = new Requests<RendererReply>({ timeoutMs: OPEN_TIMEOUT_MS, timeoutMessage: () => 'the extension did not answer' });
  ctx.onDidReceiveMessage?.((m) => {
    // A reply is untrusted until checked, and settles only a request still waiting.
    if (rendererReplyProblem(m)) return;
    const reply = m as RendererReply;
    requests.settle(reply.id, reply);
  });
  const host: CellHost = post && ctx.onDidReceiveMessage ? {
    open: (payload) => requests.ask((id) => post({ type: 'open', id, payload } satisfies RendererMessage)),
    painted: (report) => post(report satisfies RendererMessage),
  } : {};
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement) {
      cells.get(item.id)?.dispose();
      let value: unknown, readError: string | undefined;
      try {
        value = item.json();
      } catch (e) {
        readError = e instanceof Error ? e.message : String(e);
      }
      try {
        cells.set(item.id, renderAttentionOutput(element, value, host, readError));
      } catch (e) {
        // Whatever went wrong, the cell says so in a line (never a blank output).
        const line = element.ownerDocument.createElement('p');
        line.className = 'al-notebook-error';
        line.setAttribute('role', 'alert');
        line.textContent = cannotShow(e instanceof Error ? e.message : String(e));
        element.replaceChildren(line);
      }
    },
    disposeOutputItem(id?: string) {
      if (id === undefined) {
        for (const cell of cells.values()) cell.dispose();
        cells.clear();
        return;
      }
      cells.get(id)?.dispose();
      cells.delete(id);
    },
  };
}
