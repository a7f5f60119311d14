// Each page's script-src, exactly, and 'wasm-unsafe-eval' only where its bundle compiles WebAssembly:
// the spec panel (dist/webview.js derives a long head's scores on the matrix kernel) allows it; the
// model editor and the offline model page (dist/model-webview.js, which runs no kernel) do not; the
// notebook renderer has no CSP of ours (VS Code's notebook webview sets it), so its bundle must
// compile none. A bundle that starts compiling WebAssembly fails here until its page allows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JSDOM } from 'jsdom';
import { panelHtml } from '../../../src/pages/panel-html.js';
import { modelEditorHtml } from '../../../src/pages/model-editor-html.js';
import { modelPage, modelPageTemplate, PAGE_SLOTS } from '../../../src/pages/model-page-html.js';
import { ROOT } from '../../support/paths.js';

const NONCE = '0123456789abcdef0123456789abcdef';
const SOURCE = 'https://abc.vscode-cdn.net';

/** The script-src of the page's one CSP, its sources in order. */
function scriptSrc(html: string): string[] {
  const metas = new JSDOM(html).window.document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]');
  assert.equal(metas.length, 1, 'one CSP');
  const directive = metas[0].getAttribute('content')!.split(';').map((d) => d.trim().split(/\s+/)).find(([name]) => name === 'script-src');
  assert.ok(directive, 'a script-src');
  return directive.slice(1);
}

/** Whether a built bundle compiles WebAssembly (it holds a call that does). */
function compilesWasm(bundle: string): boolean {
  const file = path.join(ROOT, 'dist', bundle);
  assert.ok(fs.existsSync(file), `${file} is built (node scripts/build.mjs)`);
  return /WebAssembly\.(Module|Instance|compile|instantiate|compileStreaming|instantiateStreaming)\b/.test(fs.readFileSync(file, 'utf8'));
}

const wasm = (allowed: boolean) => (allowed ? ["'wasm-unsafe-eval'"] : []);

test('the spec panel: the nonce and \'wasm-unsafe-eval\', since its bundle runs the matrix kernel', () => {
  const html = panelHtml({ nonce: NONCE, cspSource: SOURCE, scriptUri: `${SOURCE}/dist/webview.js`, styleUris: [], initial: { documentUri: 'file:///w/a.attn.json', fileName: 'a.attn.json', locked: false } });
  assert.equal(compilesWasm('webview.js'), true);
  assert.deepEqual(scriptSrc(html), [`'nonce-${NONCE}'`, ...wasm(compilesWasm('webview.js'))]);
});

test('the model editor: the nonce alone, since its bundle compiles no WebAssembly', () => {
  const html = modelEditorHtml({ nonce: NONCE, cspSource: SOURCE, scriptUri: `${SOURCE}/dist/model-webview.js`, styleUri: `${SOURCE}/media/model.css`, fileName: 'a.safetensors' });
  assert.equal(compilesWasm('model-webview.js'), false);
  assert.deepEqual(scriptSrc(html), [`'nonce-${NONCE}'`, ...wasm(compilesWasm('model-webview.js'))]);
});

test('the offline model page (attn render --html) and the Python package\'s page: their nonce alone', () => {
  const page = modelPage({ title: 't', script: '', css: '', data: {} });
  const nonce = new JSDOM(page).window.document.querySelector('script[nonce]')?.getAttribute('nonce');
  assert.match(nonce ?? '', /^[0-9a-f]{32}$/, 'a fresh nonce on its script');
  assert.deepEqual(scriptSrc(page), [`'nonce-${nonce}'`, ...wasm(compilesWasm('model-webview.js'))]);
  assert.deepEqual(scriptSrc(modelPageTemplate({ script: '', css: '' })), [`'nonce-${PAGE_SLOTS.nonce}'`]);
});

test('the notebook renderer compiles no WebAssembly (the notebook webview\'s CSP is not ours to set)', () => {
  assert.equal(compilesWasm('notebook-renderer.js'), false);
});
