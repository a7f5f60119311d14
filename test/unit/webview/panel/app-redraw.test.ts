// The panel on its shell base: a theme switch redraws the view (and the summary) in the new theme's
// colours, a new width of the view redraws it at that width, each once after a burst, without a new
// 'painted' (the host's picture did not change), and a 'loading' panel is left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { App, type VsCodeApi } from '../../../../webview/panel/app.js';
import { analyze } from '../../../../src/core/index.js';
import { encodeAttention } from '../../../../src/core/result/wire.js';
import type { WebviewMessage } from '../../../../src/protocol/panel.js';
import { exampleText } from '../../../support/specs.js';

const URI = 'file:///w/apple-watch-lens.attn.json';
const wire = encodeAttention(analyze(exampleText('apple-watch-lens.attn.json')).data!);
const render = { type: 'render', documentUri: URI, fileName: 'apple-watch-lens.attn.json', version: 1, result: wire.header, buffer: wire.buffer, warnings: [] };
const later = () => new Promise((r) => setTimeout(r, 150));

function panel(bodyClass = 'vscode-light', width?: number) {
  const dom = new JSDOM(`<!doctype html><html><body class="${bodyClass}">
    <main id="attention-root" data-document-uri="${URI}" data-file-name="apple-watch-lens.attn.json"></main>
    <div id="attention-tooltip"></div></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  const posted: WebviewMessage[] = [];
  let state: unknown = { view: 'matrix', head: 1, input: 0, token: 0, documentUri: URI };
  const api: VsCodeApi = { postMessage: (m) => posted.push(m), getState: () => state, setState: (s) => { state = s; } };
  const app = new App(doc.getElementById('attention-root')!, doc.getElementById('attention-tooltip')!, api);
  const view = () => doc.getElementById('attention-view')!;
  const setWidth = (w: number) => Object.defineProperty(view(), 'clientWidth', { value: w, configurable: true });
  if (width !== undefined) setWidth(width);
  app.start();
  const svg = () => doc.querySelector('#attention-view svg')!;
  // Ids inside an SVG (a hatch pattern) are numbered across the document: the same picture up to them.
  const xml = () => new dom.window.XMLSerializer().serializeToString(svg()).replace(/\bal-([a-z]+)-\d+/g, 'al-$1-#');
  const close = () => { app.dispose(); dom.window.close(); };
  return { dom, doc, app, posted, svg, xml, setWidth, close };
}

const background = (svg: Element) => svg.querySelector('rect.bg')!.getAttribute('fill');

test('a theme switch redraws the panel\'s view and summary in the new theme, as a panel opened in it draws, without a new "rendered"', async () => {
  const p = panel('vscode-light');
  p.app.receive(render);
  assert.equal(background(p.svg()), '#ffffff');
  const rendered = p.posted.filter((m) => m.type === 'painted').length;
  p.doc.body.className = 'vscode-dark';
  await later();
  assert.equal(background(p.svg()), '#1e1e1e');
  assert.equal(background(p.doc.querySelector('#attention-summary svg')!), '#1e1e1e');
  assert.equal(p.posted.filter((m) => m.type === 'painted').length, rendered);
  const dark = panel('vscode-dark');
  dark.app.receive(render);
  assert.equal(p.xml(), dark.xml());
  p.close();
  dark.close();
});

test('a new width of the view (the window\'s resize, where there is no ResizeObserver) redraws the panel at it', async () => {
  const p = panel('vscode-light', 1200);
  p.app.receive(render);
  const wide = Number(p.svg().getAttribute('width'));
  p.setWidth(400);
  p.dom.window.dispatchEvent(new p.dom.window.Event('resize'));
  await later();
  assert.ok(Number(p.svg().getAttribute('width')) < wide);
  const narrow = panel('vscode-light', 400);
  narrow.app.receive(render);
  assert.equal(p.xml(), narrow.xml());
  p.close();
  narrow.close();
});

test('before any spec, a theme switch draws nothing: the panel still waits', async () => {
  const p = panel();
  p.doc.body.className = 'vscode-dark';
  await later();
  assert.equal(p.doc.querySelector('#attention-view svg'), null);
  assert.match(p.doc.getElementById('attention-status')!.textContent!, /waiting for a spec/i);
  p.close();
});
