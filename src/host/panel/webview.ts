// The vscode half of the panel's HTML: the webview's options (scripts on, resources only from
// dist/ and media/) and the URIs and CSP source that panel-html.ts builds the page from.
import * as vscode from 'vscode';
import { STYLE_SHEETS, panelHtml, type InitialPanel } from '../../pages/panel-html.js';
import { makeNonce } from '../../pages/page.js';

export function panelResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, enableFindWidget: true, localResourceRoots: panelResourceRoots(extensionUri) };
}

export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, initial: InitialPanel): string {
  const asset = (...segments: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
  return panelHtml({
    nonce: makeNonce(),
    cspSource: webview.cspSource,
    scriptUri: asset('dist', 'webview.js'),
    styleUris: STYLE_SHEETS.map((s) => asset('media', s)),
    initial,
  });
}
