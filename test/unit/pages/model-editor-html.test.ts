// The model editor's page says 'ready' from its early inline script, before its stylesheet and its
// bundle, and keeps what the host posts meanwhile: the bundle (dist/model-webview.js, built by
// scripts/build.mjs) takes VS Code's API and those messages from it, draws them, says no second
// 'ready', and hears what comes after as before. Run here in jsdom with a stand-in acquireVsCodeApi.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { EARLY_BOOT_SCRIPT, modelEditorHtml } from '../../../src/pages/model-editor-html.js';
import { thumbnailIndices } from '../../../src/core/model/data.js';
import { scanModel } from '../../../src/core/model/scan.js';
import { memoryAttention, randomAttention } from '../../support/model-fixture.js';
import { ROOT } from '../../support/paths.js';

const NONCE = 'abcdef0123456789abcdef0123456789';
const SCRIPT = 'vscode-webview://x/dist/model-webview.js';

function html(): string {
  return modelEditorHtml({ nonce: NONCE, cspSource: 'vscode-webview://x', scriptUri: SCRIPT, styleUri: 'vscode-webview://x/media/model.css', fileName: 'm.safetensors' });
}

test('the early script comes first, by the nonce, ahead of the stylesheet (which would hold it back) and the bundle', () => {
  const page = html();
  const early = page.indexOf(`<script nonce="${NONCE}">${EARLY_BOOT_SCRIPT}</script>`);
  assert.ok(early > 0, 'the early script, inline with the nonce');
  assert.ok(early < page.indexOf('<link rel="stylesheet"'), 'before the stylesheet');
  assert.ok(early < page.indexOf(`src="${SCRIPT}"`), 'before the bundle');
  assert.equal(page.match(/<script/g)!.length, 2, 'the early script and the bundle, nothing else');
  assert.ok(!page.includes('unsafe'), 'no unsafe-inline: the early script runs by the nonce');
});

test('the host\'s messages that come before the bundle runs are kept and drawn by it; one \'ready\', and later messages heard', () => {
  const posted: { type: string; items?: number; view?: string; layer?: number; head?: number }[] = [];
  let acquired = 0;
  // The page without its bundle's tag: the bundle runs below, after a message has come.
  const dom = new JSDOM(html().replace(`<script nonce="${NONCE}" src="${SCRIPT}"></script>`, ''), {
    runScripts: 'dangerously', pretendToBeVisual: true,
    beforeParse(window) {
      Object.assign(window, {
        acquireVsCodeApi: () => {
          if (++acquired > 1) throw new Error('An instance of the VS Code API has already been acquired');
          return { postMessage: (m: { type: string }) => posted.push(m), getState: () => undefined, setState: () => {} };
        },
      });
    },
  });
  const win = dom.window;
  // (JSON: the messages are objects of the page's realm.)
  assert.equal(JSON.stringify(posted), '[{"type":"ready"}]', 'the early script said \'ready\' before the bundle loaded');
  const a = memoryAttention(randomAttention(2, 3, 5), 2, 3, 5);
  const { header, thumbnails } = scanModel(a);
  // Made in the page's realm, as a structured clone arrives (the checks ask instanceof Uint8Array).
  const indices = new win.Uint8Array(thumbnailIndices(thumbnails, header.thumb));
  win.dispatchEvent(new win.MessageEvent('message', { data: { type: 'model', header, thumbnails: indices } }));
  assert.equal(win.document.querySelectorAll('g.head-cell').length, 0, 'nothing draws before the bundle');
  win.eval(readFileSync(join(ROOT, 'dist', 'model-webview.js'), 'utf8'));
  assert.equal(acquired, 1, 'the bundle took the early script\'s API');
  assert.equal(win.document.querySelectorAll('g.head-cell').length, 6, 'the kept header and thumbnails are drawn');
  assert.deepEqual(posted.map((m) => m.type), ['ready', 'painted'], 'no second \'ready\'');
  assert.equal(posted[1].items, 6);
  // The app listens now; the early script no longer keeps anything.
  win.dispatchEvent(new win.MessageEvent('message', { data: { type: 'show', view: 'head', layer: 1, head: 2 } }));
  assert.equal(JSON.stringify(posted.find((m) => m.type === 'head')), '{"type":"head","layer":1,"head":2}');
  assert.equal((win as unknown as { attentionLensEarly: { messages: unknown[] } }).attentionLensEarly.messages.length, 0);
  win.close();
});
