// "Open in Attention Lens" from a notebook output: the renderer sends the cell's payload (checked
// here again, whole: a message from a webview is untrusted), and the host shows it in the model
// views beside the notebook, then answers the request by its id. The payload is never written to
// disk to be read back: its values go into shared memory that the views' reader workers read in
// place (the model editor's worker, 'openHeld'), one copy however many read it. Each output is named
// by a hash of its weights, their shape and its tokens, so a second click shows the panel already
// open. Its exports go to the extension's global storage, under that name. The renderer's 'painted'
// reports are kept for the tests. Wired by extension.ts through vscode.notebooks.createRendererMessaging.
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { readPayload } from '../../protocol/attention-payload.js';
import { NOTEBOOK_RENDERER_ID, rendererMessageProblem, type RendererMessage, type RendererReply } from '../../protocol/notebook.js';
import type { HeldAttention } from '../../protocol/model-reader.js';
import type { AttentionPayload } from '../../core/model-attention/payload.js';
import { ModelDocument } from '../model-editor/document.js';
import { ModelReader } from '../model-editor/reader.js';
import { showModelView } from '../model-editor/webview.js';
import { log } from '../log.js';
import { columnBeside } from '../editor-groups.js';
import type { WorkerService } from '../workers/service.js';

/** What the renderer reported drawing, newest last (for the tests). */
export interface NotebookOutputInfo { view: string; items: number; drawMs: number }

export const NOTEBOOK_FOLDER = 'notebook-outputs';

/**
 * The output's name: the title's letters and digits (at most 40), then 12 hex digits of a hash of what
 * is shown: the values, their shape and dtype (the same bytes as [4, 1, n, n] or as float16 are other
 * attention), and the tokens.
 */
export function outputName(payload: AttentionPayload, bytes: Uint8Array): string {
  const stem = (payload.title ?? 'attention').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'attention';
  const hash = createHash('sha256').update(JSON.stringify([payload.shape, payload.dtype])).update(bytes).update(JSON.stringify(payload.tokens)).digest('hex').slice(0, 12);
  return `${stem}-${hash}`;
}

/** The payload's values in shared memory, with what the reader needs to read them. */
function held(payload: AttentionPayload, bytes: Uint8Array, name: string): HeldAttention {
  const values = new SharedArrayBuffer(bytes.length);
  new Uint8Array(values).set(bytes);
  return { name, tokens: payload.tokens, shape: payload.shape, dtype: payload.dtype, values };
}

export class NotebookOutputs implements vscode.Disposable {
  private readonly painted: NotebookOutputInfo[] = [];
  private readonly opened: string[] = [];
  /** The outputs shown, by name: a second click shows its panel again. */
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly messaging: vscode.NotebookRendererMessaging;

  constructor(private readonly globalStorageUri: vscode.Uri, private readonly extensionUri: vscode.Uri, private readonly workers: WorkerService) {
    this.messaging = vscode.notebooks.createRendererMessaging(NOTEBOOK_RENDERER_ID);
    this.subscriptions.push(this.messaging.onDidReceiveMessage(({ editor, message }) => { void this.receive(editor, message); }));
  }

  /** The renderer's paintings so far. */
  infos(): NotebookOutputInfo[] {
    return this.painted.map((p) => ({ ...p }));
  }

  /** The outputs shown in the model views (their URIs: their names in global storage, where their exports go). */
  openedOutputs(): string[] {
    return [...this.opened];
  }

  private async receive(editor: vscode.NotebookEditor, m: unknown): Promise<void> {
    const problem = rendererMessageProblem(m);
    if (problem) {
      log().warn(`notebook renderer: ignored a message: ${problem}`);
      // A refused open request still gets its answer, so the cell says why.
      const id = (m as { id?: unknown } | null)?.id;
      if ((m as { type?: unknown } | null)?.type === 'open' && Number.isSafeInteger(id) && (id as number) >= 1) {
        await this.reply(editor, { type: 'refused', id: id as number, message: problem });
      }
      return;
    }
    const message = m as RendererMessage;
    if (message.type === 'painted') {
      this.painted.push({ view: message.view, items: message.items, drawMs: message.drawMs });
      if (this.painted.length > 200) this.painted.shift();
      return;
    }
    await this.reply(editor, await this.open(message.id, message.payload, editor.viewColumn));
  }

  /** Shows the payload beside the notebook in column `notebookColumn`: in another existing group, a new one only when there is one. */
  private async open(id: number, p: AttentionPayload, notebookColumn: vscode.ViewColumn | undefined): Promise<RendererReply> {
    const read = readPayload(p);
    if ('problem' in read) return { type: 'refused', id, message: read.problem };
    try {
      const { payload, bytes } = read;
      const name = outputName(payload, bytes);
      const shown = this.panels.get(name);
      if (shown) {
        shown.reveal(undefined); // in the group it is in: moving it would make a group
        return { type: 'opened', id, file: name };
      }
      const folder = vscode.Uri.joinPath(this.globalStorageUri, NOTEBOOK_FOLDER);
      // Only the exports are written, there.
      await vscode.workspace.fs.createDirectory(folder);
      const uri = vscode.Uri.joinPath(folder, name);
      const attention = held(payload, bytes, name);
      const document = new ModelDocument({ uri: uri.toString(), path: name, newReader: () => ModelReader.holding(this.workers, attention), log: log() });
      const column = columnBeside({ from: notebookColumn });
      const panel = vscode.window.createWebviewPanel('attentionLens.notebookOutput', payload.title ?? name, column, { retainContextWhenHidden: false });
      this.panels.set(name, panel);
      showModelView(panel, uri, document, this.extensionUri, () => {
        document.dispose();
        if (this.panels.get(name) === panel) this.panels.delete(name);
      });
      this.opened.push(uri.toString());
      return { type: 'opened', id, file: name };
    } catch (e) {
      return { type: 'refused', id, message: e instanceof Error ? e.message : String(e) };
    }
  }

  private async reply(editor: vscode.NotebookEditor, reply: RendererReply): Promise<void> {
    await this.messaging.postMessage(reply, editor);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.subscriptions.splice(0).forEach((d) => d.dispose());
  }
}
