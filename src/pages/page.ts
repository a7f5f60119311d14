// What every page of ours is made of, whoever serves it (the spec panel's webview, the model
// editor's, the offline page of attn render --html): a random nonce for its one script, text escaped
// for HTML, the webviews' strict Content-Security-Policy, and the <head> they all start with. The
// pages themselves are panel-html.ts, model-editor-html.ts and model-page-html.ts.
/** 32 hex digits from 16 random bytes: always [0-9a-f], so always a valid nonce. */
export function makeNonce(): string {
  // Web Crypto: the same on Node 20, in a browser and in VS Code's web worker extension host.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Throws unless `nonce` is at least 16 letters and digits (what makeNonce makes): it is written into the page unescaped. */
export function checkNonce(nonce: string, page: string): void {
  if (!/^[A-Za-z0-9]{16,}$/.test(nonce)) throw new Error(`${page}: the nonce must be at least 16 letters and digits`);
}

/** Escapes text for a double-quoted HTML attribute or element content. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A webview's Content-Security-Policy: nothing by default, scripts only with the nonce, styles, images
 * and fonts only from the extension (`cspSource`), images from data: URLs too. `wasm`: let our own
 * script compile WebAssembly ('wasm-unsafe-eval', which allows no JavaScript eval).
 */
export function webviewCsp(nonce: string, cspSource: string, wasm: boolean): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${wasm ? " 'wasm-unsafe-eval'" : ''}`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/**
 * The <head> every page of ours starts with: UTF-8, the CSP, a viewport, then `extra` (stylesheets),
 * then the title. Shared by the panel, the model editor and the offline page of attn render --html.
 */
export function pageHead(csp: string, title: string, extra: string): string {
  return `<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${extra}
  <title>Attention: ${escapeHtml(title)}</title>
</head>`;
}
