// The panel's HTML (src/pages/panel-html.ts): a strict CSP, the script only by nonce, and hostile
// file names and states kept inside their data-* attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { panelCsp, panelHtml, type InitialPanel } from '../../../src/pages/panel-html.js';
import { makeNonce } from '../../../src/pages/page.js';
import type { PanelState } from '../../../src/protocol/panel.js';

const CSP_SOURCE = 'https://abc.vscode-cdn.net';
const SCRIPT = 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js';
const STYLE = 'https://file+.vscode-resource.vscode-cdn.net/ext/media/attention.css';

function page(initial: InitialPanel, nonce = makeNonce()) {
  const html = panelHtml({ nonce, cspSource: CSP_SOURCE, scriptUri: SCRIPT, styleUris: [STYLE], initial });
  const doc = new JSDOM(html).window.document;
  return { html, doc, nonce };
}

/** The directives of the page's CSP, by name. */
function csp(doc: Document): Map<string, string[]> {
  const metas = doc.querySelectorAll('meta[http-equiv="Content-Security-Policy"]');
  assert.equal(metas.length, 1, 'one CSP');
  const content = metas[0].getAttribute('content')!;
  return new Map(content.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
}

const plain: InitialPanel = { documentUri: 'file:///w/apple-watch-lens.attn.json', fileName: 'apple-watch-lens.attn.json', locked: false };

test('the CSP: default-src \'none\', scripts only by the nonce, nothing inline', () => {
  const { doc, nonce } = page(plain);
  const directives = csp(doc);
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  // The nonce, and WebAssembly compilation for the matrix kernel (no JavaScript eval).
  assert.deepEqual(directives.get('script-src'), [`'nonce-${nonce}'`, "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives.get('style-src'), [CSP_SOURCE], 'no unsafe-inline styles');
  for (const values of directives.values()) {
    assert.ok(!values.some((v) => /^'unsafe-(inline|eval)'$|^\*$|^https?:$/.test(v)), values.join(' '));
  }
  assert.equal(panelCsp(nonce, CSP_SOURCE), doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content'));
});

test('the one script carries the CSP\'s nonce and a src; no inline script or handler', () => {
  const { doc, nonce, html } = page(plain);
  const scripts = Array.from(doc.querySelectorAll('script'));
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0].getAttribute('nonce'), nonce);
  assert.equal(scripts[0].getAttribute('src'), SCRIPT);
  assert.equal(scripts[0].textContent, '', 'not inline');
  for (const e of Array.from(doc.querySelectorAll('*'))) {
    for (const a of Array.from(e.attributes)) assert.ok(!/^on/i.test(a.name), `${e.tagName} ${a.name}`);
  }
  assert.ok(!/javascript:/i.test(html));
  const links = Array.from(doc.querySelectorAll('link[rel="stylesheet"]'), (l) => l.getAttribute('href'));
  assert.deepEqual(links, [STYLE]);
  // A fresh nonce for every page.
  assert.notEqual(page(plain).nonce, nonce);
  assert.match(makeNonce(), /^[0-9a-f]{32}$/);
});

test('a bad nonce is refused rather than written into the page', () => {
  for (const nonce of ['', 'short', `abcdefghijklmnop"><script>alert(1)</script>`, "abcdefghijklmnop' 'unsafe-inline"]) {
    assert.throws(() => page(plain, nonce), /nonce/);
  }
});

test('a hostile file name and state stay text inside their data-* attributes', () => {
  const evil = `"><script>alert(1)</script><img src=x onerror=alert(2)>'&amp;`;
  const state: PanelState = { documentUri: `file:///w/${evil}.attn.json`, view: 'matrix', head: 1, input: 0, token: 2, locked: true };
  const initial: InitialPanel = { documentUri: `file:///w/${evil}.attn.json`, fileName: `${evil}.attn.json`, locked: true, state };
  const { doc, html } = page(initial);
  assert.equal(doc.querySelectorAll('script').length, 1, 'no script injected');
  assert.equal(doc.querySelectorAll('img').length, 0, 'no element injected');
  assert.ok(!html.includes('<script>alert'), 'not in the markup at all');
  const root = doc.getElementById('attention-root')!;
  assert.equal(root.dataset.state, 'loading');
  assert.equal(root.dataset.fileName, `${evil}.attn.json`);
  assert.equal(root.dataset.documentUri, `file:///w/${evil}.attn.json`);
  assert.equal(root.dataset.locked, 'true');
  assert.deepEqual(JSON.parse(root.dataset.panelState!), state);
  assert.deepEqual(Object.keys(root.dataset).sort(), ['documentUri', 'fileName', 'locked', 'panelState', 'state']);
  assert.equal(doc.title, `Attention: ${evil}.attn.json`);
  assert.equal(root.children.length, 0, 'the root is empty until the webview draws');
});
