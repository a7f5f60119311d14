// The read-only custom editor for model attention files (*.safetensors, *.npy, *.npz; "Open With…
// Attention Lens", or the explorer's command), as VS Code's custom documents: one ModelDocument per
// file (document.ts: its reader worker and its scans, shared), and every editor of the file a view of
// it (webview.ts, view.ts), so two editor groups on one file, or the editor and a spec that references
// the file, read it once. This file is the glue to VS Code: registering, the documents' lifetimes, the
// spec's tensor and tokens for a file it references, and the test seam's report of every editor.
// The same on the desktop and the web: how files are read is the ModelFiles it is given (model-files.ts).
import type { OpenOptions } from '../../core/files/open.js';
import * as vscode from 'vscode';
import { ModelDocument } from './document.js';
import type { ModelEditorInfo } from './info.js';
import type { ModelView } from './view.js';
import { showModelView } from './webview.js';
import { modelTarget } from './command-target.js';
import { log } from '../log.js';
import { columnBeside } from '../editor-groups.js';
import type { ModelViewName } from '../../core/vocabulary.js';
import type { ModelFiles } from './model-files.js';

export const MODEL_VIEW_TYPE = 'attentionLens.model';

/** The document VS Code holds while any editor of the file is open. */
interface ModelFile extends vscode.CustomDocument {
  readonly model: ModelDocument;
}

export class ModelEditorProvider implements vscode.CustomReadonlyEditorProvider<ModelFile> {
  private readonly views = new Set<ModelView>();
  /** The open documents by their file's URI (a spec's reference reaches one already open). */
  private readonly documents = new Map<string, ModelDocument>();
  /** The tensor and tokens a spec named for a file it references, by the file's URI (Show Attention on such a spec). */
  private readonly references = new Map<string, OpenOptions>();

  /** `files`: how the files are read (the desktop's worker threads on disk, or the web's workspace.fs). */
  constructor(private readonly extensionUri: vscode.Uri, private readonly files: ModelFiles) {}

  static register(context: vscode.ExtensionContext, files: ModelFiles): ModelEditorProvider {
    const provider = new ModelEditorProvider(context.extensionUri, files);
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(MODEL_VIEW_TYPE, provider, { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true }),
      vscode.commands.registerCommand('attentionLens.openModel', (uri?: unknown) => {
        const isUri = (x: unknown): x is vscode.Uri => x instanceof vscode.Uri;
        const tab = vscode.window.tabGroups?.activeTabGroup?.activeTab?.input;
        const target = modelTarget(uri, isUri, tab, vscode.window.activeTextEditor?.document.uri);
        if (target) return vscode.commands.executeCommand('vscode.openWith', target, MODEL_VIEW_TYPE);
        return vscode.window.showInformationMessage('Attention Lens: open or choose a .safetensors, .npy or .npz file in the explorer.');
      }),
    );
    return provider;
  }

  /**
   * Opens the model editor on a file a spec references, with the spec's tensor and tokens (an open
   * document takes them too), beside the active editor; `show.focus`: focused and pinned (Show Attention
   * on such a spec, which opens no panel), else without taking the focus.
   */
  openReference(file: vscode.Uri, open: OpenOptions, show: { focus: boolean; beside?: vscode.Uri } = { focus: false }): Thenable<unknown> {
    this.references.set(file.toString(), open);
    this.documents.get(file.toString())?.reopen(open);
    return vscode.commands.executeCommand('vscode.openWith', file, MODEL_VIEW_TYPE,
      { viewColumn: columnBeside({ document: show.beside }), preserveFocus: !show.focus, preview: false });
  }

  infos(): ModelEditorInfo[] { return [...this.views].map((v) => v.info()); }

  /** Shows a view (of a head) in the editors open on `uri` (tests and benches drive the editor with it). */
  show(uri: string, view: ModelViewName, layer: number, head: number): void {
    for (const v of this.views) if (v.document.uri === uri) v.show(view, layer, head);
  }

  openCustomDocument(uri: vscode.Uri): ModelFile {
    const key = uri.toString();
    const where = this.files.pathOf(uri);
    const helperCount = this.files.helperCount;
    const model = new ModelDocument({
      uri: key, path: 'path' in where ? where.path : key, open: this.references.get(key),
      ...('refused' in where ? { refused: where.refused } : {}),
      newReader: () => this.files.newReader(),
      ...(helperCount ? { helperCount: (shape) => helperCount(shape) } : {}),
      log: log(),
    });
    this.documents.set(key, model);
    return {
      uri, model,
      dispose: () => {
        model.dispose();
        if (this.documents.get(key) === model) this.documents.delete(key);
      },
    };
  }

  resolveCustomEditor(document: ModelFile, panel: vscode.WebviewPanel): void {
    const view = showModelView(panel, document.uri, document.model, this.extensionUri, (closed) => this.views.delete(closed));
    this.views.add(view);
  }
}
