// The theme from VS Code's body classes and CSS variables, and the watch on its changes: the body's
// or the root element's class or style, heard until stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { themeFromDocument, watchTheme } from '../../../../webview/shell/theme.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

test('each of VS Code\'s body classes gives its kind of theme; no class (the --html page) is light', () => {
  for (const [cls, kind, bg] of [
    ['vscode-light', 'light', '#ffffff'], ['vscode-dark', 'dark', '#1e1e1e'],
    ['vscode-high-contrast', 'hc-dark', '#000000'], ['vscode-high-contrast vscode-high-contrast-light', 'hc-light', '#ffffff'], ['', 'light', '#ffffff'],
  ] as const) {
    const dom = new JSDOM(`<!doctype html><body class="${cls}"></body>`);
    const theme = themeFromDocument(dom.window.document);
    assert.equal(theme.kind, kind, cls);
    assert.equal(theme.bg, bg, cls);
    dom.window.close();
  }
});

test('VS Code\'s CSS variables become concrete colours and a bounded font size', () => {
  const dom = new JSDOM('<!doctype html><html style="--vscode-editor-background: rgb(16, 32, 48); --vscode-editor-foreground: #abc; --vscode-font-size: 40px"><body class="vscode-dark"></body></html>');
  const theme = themeFromDocument(dom.window.document);
  assert.equal(theme.bg, '#102030');
  assert.equal(theme.fg, '#aabbcc');
  assert.equal(theme.fontSize, 16, 'at most 16 px');
  dom.window.close();
});

test('watchTheme hears a class or style change of the body or the root element, and nothing after it stops', async () => {
  const dom = new JSDOM('<!doctype html><body class="vscode-light"><div id="x"></div></body>');
  const doc = dom.window.document;
  let heard = 0;
  const stop = watchTheme(doc, () => { heard += 1; });
  doc.body.className = 'vscode-dark';
  await tick();
  assert.equal(heard, 1);
  doc.documentElement.setAttribute('style', '--vscode-editor-background: #000');
  await tick();
  assert.equal(heard, 2);
  doc.getElementById('x')!.className = 'busy';
  doc.body.setAttribute('data-other', '1');
  await tick();
  assert.equal(heard, 2, 'other elements and attributes are not the theme');
  stop();
  doc.body.className = 'vscode-light';
  await tick();
  assert.equal(heard, 2);
  dom.window.close();
});
