// The VS Code side of one model editor: the webview panel VS Code gives for a document gets the
// model page (its HTML, scripts and styles from dist/ and media/ only), and a ModelView that posts to
// it; what the webview says goes to answer.ts, an export to a save dialog, and the panel's closing
// ends the view (not the document: VS Code disposes that when its last editor closes).
import * as vscode from 'vscode';
import { makeNonce } from '../../pages/page.js';
import { modelEditorHtml } from '../../pages/model-editor-html.js';
import { log } from '../log.js';
import { writeExport } from '../panel/export.js';
import { receive } from './answer.js';
import type { ModelDocument } from './document.js';
import { ModelView } from './view.js';

/** Makes `panel` an editor of `document` (`uri`: the file); `closed` hears when the panel is gone. */
export function showModelView(panel: vscode.WebviewPanel, uri: vscode.Uri, document: ModelDocument, extensionUri: vscode.Uri, closed: (view: ModelView) => void): ModelView {
  const roots = [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
  panel.webview.options = { enableScripts: true, localResourceRoots: roots };
  const asset = (...p: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  panel.webview.html = modelEditorHtml({
    nonce: makeNonce(), cspSource: panel.webview.cspSource,
    scriptUri: asset('dist', 'model-webview.js'), styleUri: asset('media', 'model.css'),
    fileName: uri.path.split('/').pop() ?? 'attention',
  });
  let disposed = false;
  const view = new ModelView(document, {
    post: (m) => { if (!disposed) void panel.webview.postMessage(m); },
    exportView: (m) => { void writeExport(uri, m.view, m.format, m.data); },
    log: log(),
  });
  panel.webview.onDidReceiveMessage((m: unknown) => { void receive(view, m); });
  panel.onDidDispose(() => { disposed = true; view.dispose(); closed(view); });
  return view;
}
