// All Attention panels, like the Markdown preview's: Show Attention reuses the panel that follows
// the active editor, a locked panel stays on its spec, and panels come back after a reload.
import * as vscode from 'vscode';
import { columnBeside } from '../editor-groups.js';
import type { PanelState } from '../../protocol/panel.js';
import { isPanelState } from '../../protocol/panel-check.js';
import { log } from '../log.js';
import { AttentionPanel, PANEL_VIEW_TYPE, type PanelContext } from './panel.js';
import { panelOptions } from './webview.js';
import { isSpecDocument, isSpecUri, SPEC_GLOB } from '../spec-documents.js';
import type { PanelInfo } from './info.js';
import { referenceOpenOptions } from './reference-options.js';
import { readModelSpecText } from '../checkpoint-run/spec-text.js';

const LOCKED_CONTEXT = 'attentionLens.panelLocked';

export class PanelManager implements vscode.Disposable {
  private readonly panels = new Set<AttentionPanel>();
  /** The panel the user touched last: the one Toggle Lock and Export act on. */
  private active?: AttentionPanel;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly context: PanelContext) {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        const uri = e.document.uri.toString();
        for (const p of this.panels) if (p.uri.toString() === uri) p.documentChanged(e.document.version);
      }),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (!editor || !isSpecDocument(editor.document)) return;
        for (const p of this.panels) if (!p.isLocked) p.showDocument(editor.document.uri);
      }),
      vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, {
        deserializeWebviewPanel: (panel, state: unknown) => this.restore(panel, state),
      }),
    ];
  }

  /** Show Attention: for the given spec, else the active editor's, else one picked from the workspace. */
  async show(arg?: unknown): Promise<AttentionPanel | undefined> {
    const uri = await this.specToShow(arg);
    if (!uri) return undefined;
    // A spec that references a model's attention file is drawn by the model editor: open that, focused, and no panel.
    if (await this.openReferenced(uri)) return undefined;
    const key = uri.toString();
    const existing = [...this.panels].find((p) => p.uri.toString() === key)
      ?? [...this.panels].find((p) => !p.isLocked);
    if (existing) {
      // Only a panel that has something new to draw restarts the show-to-paint clock.
      if (existing.uri.toString() !== key) existing.markShown();
      existing.showDocument(uri);
      existing.panel.reveal(undefined, true); // in the column it is already in
      this.setActive(existing);
      return existing;
    }
    const webviewPanel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE, 'Attention', { viewColumn: columnBeside({ document: uri }), preserveFocus: true },
      panelOptions(this.context.extensionUri),
    );
    const panel = this.adopt(webviewPanel, uri, {});
    panel.markShown();
    return panel;
  }

  /**
   * "Next" in a panel: the next spec opens in the editor column of the spec the panel shows (and the
   * panel shows it, a locked one too: the user asked this panel for it).
   */
  async openNext(uri: vscode.Uri, panel: AttentionPanel): Promise<void> {
    const shown = panel.uri.toString();
    const column = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === shown)?.viewColumn ?? vscode.ViewColumn.One;
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: column, preview: false });
    if (panel.uri.toString() !== uri.toString()) {
      panel.markShown();
      panel.showDocument(uri);
    }
  }

  /** True when the spec at `uri` references a model file that the model editor was opened on. */
  private async openReferenced(uri: vscode.Uri): Promise<boolean> {
    const openModel = this.context.openModel;
    if (!openModel) return false;
    let reference, model;
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      // A model spec is read here (three fields: no round trip to the analysis worker before its run).
      const here = readModelSpecText(document.getText());
      ({ reference, model } = here ? { reference: undefined, model: here.model } : await this.context.cache.get(document));
    } catch {
      return false; // unreadable, or replaced by a newer version: the panel says what it finds
    }
    // A model spec runs in the model views (focused, no panel), as a referenced file opens in them.
    if (model && this.context.runModel) { this.context.runModel(uri, { focus: true }); return true; }
    if (!reference) return false;
    const file = this.context.referencedFile(uri, reference);
    if (typeof file === 'string') return false; // the panel lists why the file cannot be opened
    await openModel(file, referenceOpenOptions(reference), { focus: true });
    return true;
  }

  toggleLock(): void {
    const panel = this.target();
    if (!panel) {
      void vscode.window.showInformationMessage('Attention Lens: no Attention panel is open.');
      return;
    }
    panel.setLocked(!panel.isLocked);
    if (!panel.isLocked) {
      // Unlocked again: pick up the spec in the active editor, as the Markdown preview does.
      const editor = vscode.window.activeTextEditor;
      if (editor && isSpecDocument(editor.document)) panel.showDocument(editor.document.uri);
    }
    void vscode.commands.executeCommand('setContext', LOCKED_CONTEXT, panel.isLocked);
  }

  async exportPicture(format: 'svg' | 'png'): Promise<void> {
    const panel = this.target() ?? await this.show();
    if (!panel) return;
    await panel.requestExport(format);
  }

  /** The spec a command acts on: the active editor's, else the one the focused panel shows. */
  currentSpec(): vscode.Uri | undefined {
    const editor = vscode.window.activeTextEditor;
    if (editor && isSpecDocument(editor.document)) return editor.document.uri;
    return this.target()?.uri ?? vscode.window.visibleTextEditors.find((e) => isSpecDocument(e.document))?.document.uri;
  }

  infos(): PanelInfo[] {
    return [...this.panels].map((p) => p.info());
  }

  private target(): AttentionPanel | undefined {
    const panels = [...this.panels];
    return panels.find((p) => p.panel.active) ?? this.active ?? (panels.length === 1 ? panels[0] : undefined);
  }

  private setActive(panel: AttentionPanel): void {
    this.active = panel;
    void vscode.commands.executeCommand('setContext', LOCKED_CONTEXT, panel.isLocked);
  }

  private adopt(webviewPanel: vscode.WebviewPanel, uri: vscode.Uri, options: { state?: PanelState }): AttentionPanel {
    const panel = new AttentionPanel(webviewPanel, uri, { ...this.context, openNext: (next, from) => this.openNext(next, from) }, options);
    this.panels.add(panel);
    this.setActive(panel);
    webviewPanel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.setActive(panel);
    });
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      if (this.active === panel) this.active = undefined;
    });
    return panel;
  }

  /** After a reload: the webview's saved state names the document and the view to restore. */
  private async restore(webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> {
    webviewPanel.webview.options = panelOptions(this.context.extensionUri);
    const saved = isPanelState(state) ? state : undefined;
    let uri = saved ? vscode.Uri.parse(saved.documentUri) : undefined;
    if (!uri || !isSpecUri(uri)) {
      log().warn('restoring a panel without a usable saved state; showing the active spec instead');
      uri = await this.fallbackSpec();
    }
    if (!uri) {
      webviewPanel.dispose();
      return;
    }
    this.adopt(webviewPanel, uri, { state: saved && saved.documentUri === uri.toString() ? saved : undefined });
  }

  private async specToShow(arg: unknown): Promise<vscode.Uri | undefined> {
    if (arg instanceof vscode.Uri) {
      if (isSpecUri(arg)) return arg;
      void vscode.window.showWarningMessage('Attention Lens: Show Attention works on *.attn.json files.');
      return undefined;
    }
    const editor = vscode.window.activeTextEditor;
    if (editor && isSpecDocument(editor.document)) return editor.document.uri;
    const visible = vscode.window.visibleTextEditors.find((e) => isSpecDocument(e.document));
    if (visible) return visible.document.uri;
    const files = await vscode.workspace.findFiles(SPEC_GLOB, '**/node_modules/**', 200);
    if (files.length === 1) return files[0];
    if (files.length === 0) {
      void vscode.window.showInformationMessage('Attention Lens: open a *.attn.json spec to show its attention.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      files.map((f) => ({ label: vscode.workspace.asRelativePath(f), uri: f })).sort((a, b) => a.label.localeCompare(b.label)),
      { placeHolder: 'Which spec?' },
    );
    return picked?.uri;
  }

  private async fallbackSpec(): Promise<vscode.Uri | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (editor && isSpecDocument(editor.document)) return editor.document.uri;
    const visible = vscode.window.visibleTextEditors.find((e) => isSpecDocument(e.document));
    return visible?.document.uri;
  }

  dispose(): void {
    for (const p of [...this.panels]) p.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
