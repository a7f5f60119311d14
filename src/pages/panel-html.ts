// The panel's HTML, from plain inputs (no vscode, unit-tested): a strict CSP (default-src 'none',
// scripts only by nonce), the webview bundle and the styles, the root element the webview draws
// into, and the initial state in escaped data-* attributes. Everything after this is data sent
// with postMessage; the HTML is never rebuilt to show a result. src/host/panel/webview.ts supplies
// the webview's URIs and CSP source.
import type { PanelState } from '../protocol/panel.js';
import { checkNonce, escapeHtml, pageHead, webviewCsp } from './page.js';

export const STYLE_SHEETS = ['attention.css'];

export interface InitialPanel {
  documentUri: string;
  fileName: string;
  locked: boolean;
  state?: PanelState;
}

export interface PanelHtmlInputs {
  /** The script nonce: [A-Za-z0-9] only (makeNonce). */
  nonce: string;
  /** The webview's CSP source (webview.cspSource). */
  cspSource: string;
  /** The webview bundle's URI, as the webview loads it. */
  scriptUri: string;
  /** The style sheets' URIs, as the webview loads them. */
  styleUris: readonly string[];
  initial: InitialPanel;
}

/**
 * The panel's Content-Security-Policy (page.ts): 'wasm-unsafe-eval' lets the bundled matrix kernel
 * (bytes inside our own nonce'd script) compile as WebAssembly, so the webview derives a 1,024-token
 * head's scores from Q and K in milliseconds; it allows no JavaScript eval. Without it the plain
 * loops give the same bits, slower.
 */
export function panelCsp(nonce: string, cspSource: string): string {
  return webviewCsp(nonce, cspSource, true);
}

export function panelHtml(inputs: PanelHtmlInputs): string {
  const { nonce, cspSource, initial } = inputs;
  checkNonce(nonce, 'panelHtml');
  const csp = panelCsp(nonce, cspSource);
  const styles = inputs.styleUris.map((s) => `<link rel="stylesheet" href="${escapeHtml(s)}">`).join('\n  ');
  const attr = (name: string, value: string) => ` ${name}="${escapeHtml(value)}"`;
  const rootAttributes = attr('data-state', 'loading')
    + attr('data-document-uri', initial.documentUri)
    + attr('data-file-name', initial.fileName)
    + attr('data-locked', String(initial.locked))
    + (initial.state ? attr('data-panel-state', JSON.stringify(initial.state)) : '');
  return `<!DOCTYPE html>
<html lang="en">
${pageHead(csp, initial.fileName, styles)}
<body>
  <main id="attention-root"${rootAttributes}></main>
  <div id="attention-tooltip" role="tooltip"></div>
  <script nonce="${nonce}" src="${escapeHtml(inputs.scriptUri)}"></script>
</body>
</html>`;
}
