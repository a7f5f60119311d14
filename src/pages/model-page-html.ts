// The offline --html page: one file with the model webview's bundle inlined, its style sheet, and
// the data as JSON in a <script type="application/json">. Nothing is fetched (CSP: default-src
// 'none'; the script and style only by nonce; images only from data: URLs). Every "<" in the data
// is written as \u003c, and "</script" and "<!--" in the bundle are broken up, so no token or file
// name can close the script element or open markup. The Python package's page (modelPageTemplate) is
// the same page with slots its package fills, the attention inline as the notebook payload.
import { makeNonce, pageHead } from './page.js';

export interface ModelPageInputs {
  title: string;
  /** The bundled dist/model-webview.js. */
  script: string;
  css: string;
  /** The ModelPageData object (webview/views/model/page-data.ts) less `late`: what the first paint needs. */
  data: unknown;
  /**
   * The page's large part (its heads' weights, pictures and rollout: ModelPageLate objects, one a head),
   * written after the script, so that the script runs and paints the grid before the parser has read
   * them (a 12 × 12 × 128 page is 16 MB, nearly all of it heads: parsing them first held the first paint
   * for 0.6 s), each in its own element, so that the parser can stop between two for the screen.
   */
  late?: readonly unknown[];
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
  return page(makeNonce(), inputs.title, inputs.css, 'model-data', scriptJson(inputs.data), inputs.script, (inputs.late ?? []).map(scriptJson));
}

/**
 * The slots of the Python package's page (python/attention_lens/page.py fills them in one pass): a
 * fresh nonce for each page, the title (HTML-escaped) and the payload's JSON (every "<" escaped).
 */
export const PAGE_SLOTS = { nonce: '@@ATTENTION_LENS_NONCE@@', title: '@@ATTENTION_LENS_TITLE@@', payload: '@@ATTENTION_LENS_PAYLOAD@@' } as const;

/**
 * The Python package's page: this page with slots for the nonce, the title and the inline attention
 * payload (src/core/model-attention/payload.ts, in <script id="attention-payload">), which the page decodes
 * itself. Throws when the script or style sheet holds a slot's text (a fill would then write into them).
 */
export function modelPageTemplate(inputs: Pick<ModelPageInputs, 'script' | 'css'>): string {
  for (const slot of Object.values(PAGE_SLOTS)) {
    if (inputs.script.includes(slot) || inputs.css.includes(slot)) throw new Error(`the model page's script or style sheet holds ${slot}`);
  }
  return page(PAGE_SLOTS.nonce, PAGE_SLOTS.title, inputs.css, 'attention-payload', PAGE_SLOTS.payload, inputs.script);
}

/**
 * The page around a nonce, its title, its style sheet, the data's JSON (already safe in a script) in
 * element `dataId`, the bundle, and after it the large part's JSONs (already safe), each in a `model-late` element.
 */
function page(nonce: string, title: string, css: string, dataId: string, dataJson: string, script: string, lateJson: readonly string[] = []): string {
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:`;
  return `<!DOCTYPE html>
<html lang="en">
${pageHead(csp, title, `<style nonce="${nonce}">${css.replace(/<\//g, '<\\/')}</style>`)}
<body>
<main id="model-root"></main>
<div id="attention-tooltip" role="tooltip" hidden></div>
<script type="application/json" id="${dataId}">${dataJson}</script>
<script nonce="${nonce}">${scriptSource(script)}</script>
${lateJson.map((json) => `<script type="application/json" class="model-late">${json}</script>\n`).join('')}</body>
</html>
`;
}
