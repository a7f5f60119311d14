// The model editor's HTML, from plain inputs (no vscode, unit-tested): the same strict CSP as the
// spec panel (default-src 'none', scripts only by nonce, no inline styles), the model webview bundle,
// its style sheet, and the root it draws into. Everything else arrives by postMessage. A first inline
// script says 'ready' before the bundle loads and keeps what arrives meanwhile (EARLY_BOOT_SCRIPT).
import { EARLY_BOOT } from '../protocol/model-editor.js';
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

/**
 * The page's first script (inline, by the same nonce, ahead of the stylesheet, which would hold it
 * back): it takes VS Code's API, keeps every message that arrives, and says 'ready'. The host's first
 * message (the header and the thumbnails) then travels while the bundle loads, instead of after it:
 * in code-server, 'ready' to the snapshot's arrival took 110 to 360 ms, and the bundle's load as long.
 * The bundle (webview/model-editor/main.ts) takes the API and the messages kept from window[EARLY_BOOT].
 */
export const EARLY_BOOT_SCRIPT = `(function () {
  var api = acquireVsCodeApi(), messages = [];
  function keep(e) { messages.push(e.data); }
  window.addEventListener('message', keep);
  window.${EARLY_BOOT} = { api: api, messages: messages, stop: function () { window.removeEventListener('message', keep); } };
  api.postMessage({ type: 'ready' });
})();`;

export function modelEditorHtml(inputs: ModelEditorHtmlInputs): string {
  checkNonce(inputs.nonce, 'modelEditorHtml');
  const csp = modelEditorCsp(inputs.nonce, inputs.cspSource);
  return `<!DOCTYPE html>
<html lang="en">
${pageHead(csp, inputs.fileName, `<script nonce="${inputs.nonce}">${EARLY_BOOT_SCRIPT}</script>
  <link rel="stylesheet" href="${escapeHtml(inputs.styleUri)}">`)}
<body>
  <main id="model-root" data-state="loading"><p class="model-loading">Reading ${escapeHtml(inputs.fileName)}…</p></main>
  <div id="attention-tooltip" role="tooltip" hidden></div>
  <script nonce="${inputs.nonce}" src="${escapeHtml(inputs.scriptUri)}"></script>
</body>
</html>`;
}
