// The model editor's HTML, from plain inputs (no vscode, unit-tested): the same strict CSP as the
// spec panel (default-src 'none', scripts only by nonce, no inline styles), the model webview bundle,
// its style sheet, and the root it draws into. Everything else arrives by postMessage.
import { checkNonce, escapeHtml, pageHead, webviewCsp } from './page.js';

export interface ModelEditorHtmlInputs {
  nonce: string;
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  fileName: string;
}

/** The spec panel's CSP without WebAssembly (the model page runs no kernel): scripts by nonce only. */
export function modelEditorCsp(nonce: string, cspSource: string): string {
  return webviewCsp(nonce, cspSource, false);
}

export function modelEditorHtml(inputs: ModelEditorHtmlInputs): string {
  checkNonce(inputs.nonce, 'modelEditorHtml');
  const csp = modelEditorCsp(inputs.nonce, inputs.cspSource);
  return `<!DOCTYPE html>
<html lang="en">
${pageHead(csp, inputs.fileName, `<link rel="stylesheet" href="${escapeHtml(inputs.styleUri)}">`)}
<body>
  <main id="model-root" data-state="loading"><p class="model-loading">Reading ${escapeHtml(inputs.fileName)}…</p></main>
  <div id="attention-tooltip" role="tooltip" hidden></div>
  <script nonce="${inputs.nonce}" src="${escapeHtml(inputs.scriptUri)}"></script>
</body>
</html>`;
}
