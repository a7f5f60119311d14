// Every model spec shown in the model views, one session each (session.ts), and the commands that
// act on them: Show Attention on a model spec opens (or reveals) its session, an edit of the spec
// re-runs it, and "Save this head as a spec" saves the head its views show last.
import * as vscode from 'vscode';
import type { ModelEditorInfo } from '../model-editor/info.js';
import { RunSession, type RunContext } from './session.js';
import { columnBeside } from '../editor-groups.js';

export const RUN_VIEW_TYPE = 'attentionLens.modelRun';

export class RunSessions implements vscode.Disposable {
  private readonly sessions = new Map<string, RunSession>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly context: RunContext) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.sessions.get(e.document.uri.toString())?.changed();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => { if (!this.sessions.has(d.uri.toString())) context.diagnostics.delete(d.uri); }),
    ];
  }

  /** The model views on the run of the model spec at `uri`: opened beside the editor, or revealed. */
  open(uri: vscode.Uri, show: { focus: boolean } = { focus: true }): void {
    const key = uri.toString();
    const existing = this.sessions.get(key);
    if (existing) {
      existing.panel.reveal(undefined, !show.focus);
      return;
    }
    const name = uri.path.split('/').pop() ?? 'model';
    const panel = vscode.window.createWebviewPanel(RUN_VIEW_TYPE, `Run: ${name}`, { viewColumn: columnBeside({ document: uri }), preserveFocus: !show.focus }, { retainContextWhenHidden: false });
    const session = new RunSession(this.context, uri, panel, () => { if (this.sessions.get(key) === session) this.sessions.delete(key); });
    this.sessions.set(key, session);
  }

  /** Whether the model views of `uri` are open. */
  has(uri: vscode.Uri): boolean { return this.sessions.has(uri.toString()); }

  infos(): ModelEditorInfo[] { return [...this.sessions.values()].map((s) => s.info()); }

  /** Asks a session's views to show a view of a head (tests). */
  show(uri: string, view: Parameters<RunSession['view']['show']>[0], layer: number, head: number): void {
    this.sessions.get(uri)?.view.show(view, layer, head);
  }

  /** "Save this head as a spec": the head the active (or only) model run's views show. */
  async saveHead(): Promise<void> {
    const all = [...this.sessions.values()];
    const session = all.find((s) => s.panel.active) ?? (all.length === 1 ? all[0] : undefined);
    if (!session) {
      void vscode.window.showInformationMessage('Attention Lens: open a model spec\'s run (Show Attention on a spec with "model" and "text") and choose a head first.');
      return;
    }
    await session.saveShownHead();
  }

  dispose(): void {
    for (const s of this.sessions.values()) { s.dispose(); s.panel.dispose(); }
    this.sessions.clear();
    for (const d of this.subscriptions) d.dispose();
  }
}
