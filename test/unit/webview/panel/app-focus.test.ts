// Where the keyboard lands, from a newcomer's keyboard-only run: Ctrl+2 (VS Code's "focus the
// second editor group", where the panel sits beside the spec) focused the webview's page, not the
// view's first control, so Tab had to walk the whole toolbar first; and the focus on an arcs token
// was a faint change of the word's colour. Drawn on jsdom with the panel's own stylesheet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import { App, type VsCodeApi } from '../../../../webview/panel/app.js';
import { analyze } from '../../../../src/core/index.js';
import { encodeAttention } from '../../../../src/core/result/wire.js';
import { exampleText } from '../../../support/specs.js';
import { ROOT } from '../../../support/paths.js';

const URI = 'file:///w/apple-watch-lens.attn.json';
const CSS = readFileSync(join(ROOT, 'media', 'attention.css'), 'utf8');
const wire = encodeAttention(analyze(exampleText('apple-watch-lens.attn.json')).data!);
const render = { type: 'render', documentUri: URI, fileName: 'apple-watch-lens.attn.json', version: 1, result: wire.header, buffer: wire.buffer, warnings: [] };

function panel(view: string, bodyClass = 'vscode-light') {
  const dom = new JSDOM(`<!doctype html><html><head><style>${CSS}</style></head><body class="${bodyClass}">
    <main id="attention-root" data-state="loading" data-document-uri="${URI}" data-file-name="apple-watch-lens.attn.json"></main>
    <div id="attention-tooltip" role="tooltip"></div></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  let state: unknown = { view, head: 'all', input: 0, token: 0, documentUri: URI };
  const api: VsCodeApi = { postMessage: () => {}, getState: () => state, setState: (s) => { state = s; } };
  const app = new App(doc.getElementById('attention-root')!, doc.getElementById('attention-tooltip')!, api);
  app.start();
  app.receive(render);
  return { dom, doc, app };
}

test('Ctrl+2 (the webview\'s window gets the focus with nothing focused in it) lands on the view\'s first control, in every view that has one', () => {
  for (const view of ['arcs', 'matrix', 'steps', 'geometry', 'projection']) {
    const { dom, doc, app } = panel(view);
    assert.equal(doc.activeElement, doc.body, `${view}: nothing focused yet`);
    dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
    const stop = doc.querySelector('#attention-view [tabindex="0"]');
    assert.ok(stop, `${view} has a tab stop`);
    assert.equal(doc.activeElement, stop, `${view}: focus on ${doc.activeElement?.tagName}.${doc.activeElement?.getAttribute('class')}`);
    app.dispose();
    dom.window.close();
  }
});

test('a click into the panel is left alone (the pointer chose where to go), and a place already focused is kept', () => {
  const { dom, doc, app } = panel('arcs');
  doc.body.dispatchEvent(new dom.window.PointerEvent('pointerdown', { bubbles: true }));
  dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
  assert.equal(doc.activeElement, doc.body, 'a click on the page does not move the focus');
  const tab = doc.querySelector<HTMLElement>('.al-tab[aria-selected="true"]')!;
  tab.focus();
  dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
  assert.equal(doc.activeElement, tab, 'coming back, the user is where they were');
  app.dispose();
  dom.window.close();
});

test('a focused arcs token (and head toggle) gets a 2 px ring in VS Code\'s focus colour, in light, dark and high-contrast themes', () => {
  for (const theme of ['vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light']) {
    const { dom, doc, app } = panel('arcs', theme);
    for (const sel of ['g.token', 'g.head-toggle']) {
      const g = doc.querySelector<SVGGElement>(`#attention-view ${sel}[tabindex="0"]`)!;
      (g as unknown as HTMLElement).focus();
      assert.equal(doc.activeElement, g);
      const ring = g.querySelector(':scope > rect')!;
      const cs = dom.window.getComputedStyle(ring);
      assert.match(cs.getPropertyValue('stroke'), /var\(--al-focus\)|var\(--vscode-contrastActiveBorder/, `${theme} ${sel}: stroke ${cs.getPropertyValue('stroke')}`);
      assert.ok(Number.parseFloat(cs.getPropertyValue('stroke-width')) >= 2, `${theme} ${sel}: width ${cs.getPropertyValue('stroke-width')}`);
    }
    // --al-focus is VS Code's own focus colour.
    assert.match(CSS, /--al-focus:\s*var\(--vscode-focusBorder/);
    app.dispose();
    dom.window.close();
  }
});
