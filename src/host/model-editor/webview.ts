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
import { ModelView, type ModelViewHooks } from './view.js';

/**
 * A shown webview that has said nothing this long after its page was set gets the page again, at
 * most SILENT_RELOADS times. In code-server, the first of two editors of one file, opened in two
 * groups at once, has been seen to stay visible and silent for good (not one message in 20 s, in
 * CI and here in 2 runs of 3): its page never ran. Setting the page again loads it anew.
 */
export const SILENT_RELOAD_MS = 4_000;
export const SILENT_RELOADS = 3;

/**
 * Makes `panel` an editor of `document` (`uri`: the file, or the model spec whose run it shows);
 * `closed` hears when the panel is gone; `more`: a model run's own hooks (its news, the lens).
 */
export function showModelView(panel: vscode.WebviewPanel, uri: vscode.Uri, document: ModelDocument, extensionUri: vscode.Uri, closed: (view: ModelView) => void,
  more: Pick<ModelViewHooks, 'preamble' | 'lens' | 'analysis' | 'describe' | 'ablate'> = {}): ModelView {
  const roots = [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
  panel.webview.options = { enableScripts: true, localResourceRoots: roots };
  const asset = (...p: string[]) => panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  const page = () => modelEditorHtml({
    nonce: makeNonce(), cspSource: panel.webview.cspSource,
    scriptUri: asset('dist', 'model-webview.js'), styleUri: asset('media', 'model.css'),
    fileName: uri.path.split('/').pop() ?? 'attention',
  });
  panel.webview.html = page();
  let disposed = false, heard = 0, reloads = 0, checks = 0;
  const timer = setInterval(() => {
    // Ten checks at most: a webview hidden all that time is left to say 'ready' when shown.
    if (disposed || heard > 0 || reloads >= SILENT_RELOADS || ++checks > 10) { clearInterval(timer); return; }
    // A hidden webview runs nothing: only a shown one's silence means its page did not run.
    if (!panel.visible) return;
    reloads++;
    log().warn(`model editor: the webview of ${uri.path.split('/').pop()} said nothing in ${SILENT_RELOAD_MS} ms; loading its page again (${reloads} of ${SILENT_RELOADS})`);
    panel.webview.html = page();
  }, SILENT_RELOAD_MS);
  timer.unref?.();
  const view = new ModelView(document, {
    post: (m) => { if (!disposed) void panel.webview.postMessage(m); },
    exportView: (m) => { void writeExport(uri, m.view, m.format, m.data); },
    describe: () => ({ ...more.describe?.(), visible: panel.visible, heard }),
    ...(more.preamble ? { preamble: more.preamble } : {}),
    ...(more.lens ? { lens: more.lens } : {}),
    ...(more.analysis ? { analysis: more.analysis } : {}),
    ...(more.ablate ? { ablate: more.ablate } : {}),
    log: log(),
  });
  panel.webview.onDidReceiveMessage((m: unknown) => { heard++; void receive(view, m); });
  panel.onDidDispose(() => { disposed = true; clearInterval(timer); view.dispose(); closed(view); });
  return view;
}
