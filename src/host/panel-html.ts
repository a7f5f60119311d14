// The panel's HTML: a strict CSP (scripts only by nonce), the webview bundle and the styles from
// media/, the root element the webview draws into, and the initial state in escaped data-* attributes.
// Everything after this is data sent with postMessage; the HTML is never rebuilt to show a result.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PanelState } from '../protocol.js';

export const STYLE_SHEETS = ['attention.css'];

export function panelResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, enableFindWidget: true, localResourceRoots: panelResourceRoots(extensionUri) };
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64').replace(/[+/=]/g, '');
}

/** Escapes text for a double-quoted HTML attribute or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface InitialPanel {
  documentUri: string;
  fileName: string;
  locked: boolean;
  state?: PanelState;
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, initial: InitialPanel): string {
  const nonce = makeNonce();
  const asset = (...segments: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  const styles = STYLE_SHEETS.map((s) => `<link rel="stylesheet" href="${escapeHtml(asset('media', s))}">`).join('\n  ');
  const attr = (name: string, value: string) => ` ${name}="${escapeHtml(value)}"`;
  const rootAttributes = attr('data-state', 'loading')
    + attr('data-document-uri', initial.documentUri)
    + attr('data-file-name', initial.fileName)
    + attr('data-locked', String(initial.locked))
    + (initial.state ? attr('data-panel-state', JSON.stringify(initial.state)) : '');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${styles}
  <title>Attention: ${escapeHtml(initial.fileName)}</title>
</head>
<body>
  <main id="attention-root"${rootAttributes}></main>
  <div id="attention-tooltip" role="tooltip"></div>
  <script nonce="${nonce}" src="${escapeHtml(asset('dist', 'webview.js'))}"></script>
</body>
</html>`;
}
