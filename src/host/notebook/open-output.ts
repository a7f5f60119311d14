// "Open in Attention Lens" from a notebook output: the renderer sends the cell's payload (checked
// here again, whole: a message from a webview is untrusted), the host writes it as a .safetensors in
// the extension's global storage (named by a hash of the weights, so a second click reuses the file)
// and opens the model editor on it beside the notebook, then answers the request by its id. The
// renderer's 'painted' reports are kept for the tests. Wired by extension.ts through
// vscode.notebooks.createRendererMessaging.
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { readPayload } from '../../protocol/attention-payload.js';
import { NOTEBOOK_RENDERER_ID, rendererMessageProblem, type RendererMessage, type RendererReply } from '../../protocol/notebook.js';
import { writeSafetensors } from '../../core/tensors/safetensors-write.js';
import type { AttentionPayload } from '../../core/model/payload.js';
import { log } from '../log.js';

/** What the renderer reported drawing, newest last (for the tests). */
export interface NotebookOutputInfo { view: string; items: number; drawMs: number }

export const NOTEBOOK_FOLDER = 'notebook-outputs';

/** The file's name: the title's letters and digits (at most 40), then 12 hex digits of the weights' hash. */
export function outputFileName(payload: AttentionPayload, bytes: Uint8Array): string {
  const stem = (payload.title ?? 'attention').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'attention';
  const hash = createHash('sha256').update(bytes).update(JSON.stringify(payload.tokens)).digest('hex').slice(0, 12);
  return `${stem}-${hash}.safetensors`;
}

export class NotebookOutputs implements vscode.Disposable {
  private readonly painted: NotebookOutputInfo[] = [];
  private readonly opened: string[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly messaging: vscode.NotebookRendererMessaging;

  constructor(private readonly globalStorageUri: vscode.Uri) {
    this.messaging = vscode.notebooks.createRendererMessaging(NOTEBOOK_RENDERER_ID);
    this.subscriptions.push(this.messaging.onDidReceiveMessage(({ editor, message }) => { void this.receive(editor, message); }));
  }

  /** The renderer's paintings so far. */
  infos(): NotebookOutputInfo[] {
    return this.painted.map((p) => ({ ...p }));
  }

  /** The files opened in the model editor from notebook outputs (URI strings). */
  openedFiles(): string[] {
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
    await this.reply(editor, await this.open(message.id, message.payload));
  }

  private async open(id: number, p: AttentionPayload): Promise<RendererReply> {
    const read = readPayload(p);
    if ('problem' in read) return { type: 'refused', id, message: read.problem };
    try {
      const { payload, bytes } = read;
      const folder = vscode.Uri.joinPath(this.globalStorageUri, NOTEBOOK_FOLDER);
      await vscode.workspace.fs.createDirectory(folder);
      const uri = vscode.Uri.joinPath(folder, outputFileName(payload, bytes));
      const file = writeSafetensors([{ name: 'attention', dtype: payload.dtype === 'float16' ? 'F16' : 'F32', shape: payload.shape, data: bytes }], { tokens: JSON.stringify(payload.tokens) }, { metadataLast: true });
      await vscode.workspace.fs.writeFile(uri, file);
      await vscode.commands.executeCommand('vscode.openWith', uri, 'attentionLens.model', vscode.ViewColumn.Beside);
      this.opened.push(uri.toString());
      return { type: 'opened', id, file: uri.path.split('/').pop() ?? uri.path };
    } catch (e) {
      return { type: 'refused', id, message: e instanceof Error ? e.message : String(e) };
    }
  }

  private async reply(editor: vscode.NotebookEditor, reply: RendererReply): Promise<void> {
    await this.messaging.postMessage(reply, editor);
  }

  dispose(): void {
    this.subscriptions.splice(0).forEach((d) => d.dispose());
  }
}
