// The offline --html page: one file with the model webview's bundle inlined, its style sheet, and
// the data as JSON in a <script type="application/json">. Nothing is fetched (CSP: default-src
// 'none'; the script and style only by nonce; images only from data: URLs). Every "<" in the data
// is written as \u003c, and "</script" and "<!--" in the bundle are broken up, so no token or file
// name can close the script element or open markup.
import { makeNonce, pageHead } from './page.js';

export interface ModelPageInputs {
  title: string;
  /** The bundled dist/model-webview.js. */
  script: string;
  css: string;
  /** The ModelPageData object (webview/views/model/page-data.ts). */
  data: unknown;
}

/** JSON safe inside a <script> element: no "<" at all (so no "</script>" and no "<!--"). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** JavaScript source safe inside a <script> element: "</script" and "<!--" never appear as such. */
export function scriptSource(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export function modelPage(inputs: ModelPageInputs): string {
  const nonce = makeNonce();
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:`;
  return `<!DOCTYPE html>
<html lang="en">
${pageHead(csp, inputs.title, `<style nonce="${nonce}">${inputs.css.replace(/<\//g, '<\\/')}</style>`)}
<body>
<main id="model-root"></main>
<div id="attention-tooltip" role="tooltip" hidden></div>
<script type="application/json" id="model-data">${scriptJson(inputs.data)}</script>
<script nonce="${nonce}">${scriptSource(inputs.script)}</script>
</body>
</html>
`;
}
