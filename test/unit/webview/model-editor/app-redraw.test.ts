// The model page follows VS Code as the panel does (through the shell base): a theme switch (the
// body's class) redraws the shown view in the new theme's colours, a new width of its container
// redraws it at that width (by a ResizeObserver, or the window's resize where there is none), both
// a moment after the burst and without a 'painted' report, never over an error panel; Ctrl+2 lands
// on the view's first control and a redraw keeps the focused head.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { scanModel } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';

const scanned = scanModel(memoryAttention(randomAttention(2, 3, 6), 2, 3, 6));
const later = () => new Promise((r) => setTimeout(r, 150));

/** Callbacks of the ResizeObservers a page made, to play a browser's resize on jsdom (which has none). */
type Observed = { callback: () => void; targets: Element[] };

function page(options: { bodyClass?: string; width?: number; resizeObserver?: boolean } = {}) {
  const dom = new JSDOM(`<!doctype html><html><body class="${options.bodyClass ?? 'vscode-light'}"><main id="root"></main><div id="tip"></div></body></html>`);
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const observers: Observed[] = [];
  if (options.resizeObserver) {
    Object.defineProperty(dom.window, 'ResizeObserver', {
      configurable: true,
      value: class {
        private readonly o: Observed;
        constructor(callback: () => void) { this.o = { callback, targets: [] }; observers.push(this.o); }
        observe(el: Element) { this.o.targets.push(el); }
        disconnect() { this.o.targets = []; }
      },
    });
  }
  const doc = dom.window.document;
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const setWidth = (w: number) => Object.defineProperty(root, 'clientWidth', { value: w, configurable: true });
  if (options.width !== undefined) setWidth(options.width);
  const posted: ModelWebviewMessage[] = [];
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, { post: (m) => posted.push(m), canSoftmax: true });
  app.start();
  app.receive({ type: 'model', ...scanned });
  const svg = () => doc.querySelector('main svg')!;
  const xml = () => new dom.window.XMLSerializer().serializeToString(svg());
  return { dom, doc, root, app, posted, svg, xml, setWidth, observers };
}

const background = (svg: Element) => svg.querySelector('rect.bg')!.getAttribute('fill');
const thumbnails = (svg: Element) => Array.from(svg.querySelectorAll('image'), (i) => i.getAttribute('href')).join();

test('a theme switch (the body\'s class) redraws the model view in the new theme\'s colours, as a page opened in it draws', async () => {
  const p = page({ bodyClass: 'vscode-light' });
  assert.equal(background(p.svg()), '#ffffff');
  const lightThumbnails = thumbnails(p.svg());
  const painted = p.posted.filter((m) => m.type === 'painted').length;
  p.doc.body.className = 'vscode-dark';
  assert.equal(background(p.svg()), '#ffffff', 'a burst of changes is drawn once, a moment later');
  await later();
  assert.equal(background(p.svg()), '#1e1e1e');
  assert.notEqual(thumbnails(p.svg()), lightThumbnails, 'the heatmaps take the dark palette');
  const dark = page({ bodyClass: 'vscode-dark' });
  assert.equal(p.xml(), dark.xml(), 'the very picture of a page opened in the dark theme');
  assert.equal(p.posted.filter((m) => m.type === 'painted').length, painted, 'a redraw for the theme is not reported as a new painting');
  // High contrast, through the class VS Code gives it.
  p.doc.body.className = 'vscode-high-contrast';
  await later();
  assert.equal(background(p.svg()), '#000000');
  for (const x of [p, dark]) { x.app.dispose(); x.dom.window.close(); }
});

test('VS Code\'s theme colours (CSS variables on the root element) are followed too', async () => {
  const p = page();
  // VS Code writes its colours as CSS variables in the style of <html>; nothing else changes.
  p.doc.documentElement.setAttribute('style', '--vscode-editor-background: #102030');
  await later();
  assert.equal(background(p.svg()), '#102030');
  p.app.dispose();
  p.dom.window.close();
});

test('a new width of the page (the window\'s resize, where there is no ResizeObserver) redraws the model view at it', async () => {
  const p = page({ width: 1200 });
  const wide = Number(p.svg().getAttribute('width'));
  p.setWidth(500);
  p.dom.window.dispatchEvent(new p.dom.window.Event('resize'));
  await later();
  const narrow = Number(p.svg().getAttribute('width'));
  assert.ok(narrow < wide, `${narrow} < ${wide}`);
  assert.equal(p.xml(), page({ width: 500 }).xml(), 'the very picture of a page opened at that width');
  // A few pixels (a scroll bar coming and going) are not worth a new picture.
  const before = p.svg();
  p.setWidth(503);
  p.dom.window.dispatchEvent(new p.dom.window.Event('resize'));
  await later();
  assert.equal(p.svg(), before, 'not redrawn for 3 px');
  p.app.dispose();
  p.dom.window.close();
});

test('with a ResizeObserver, the model page watches its root and redraws when it changes width', async () => {
  const p = page({ width: 1200, resizeObserver: true });
  const watched = p.observers.flatMap((o) => o.targets);
  assert.deepEqual(watched, [p.root], 'the root, whose width the views take');
  const wide = Number(p.svg().getAttribute('width'));
  p.setWidth(400);
  p.observers.forEach((o) => o.callback());
  await later();
  assert.ok(Number(p.svg().getAttribute('width')) < wide);
  assert.equal(p.xml(), page({ width: 400 }).xml());
  p.app.dispose();
  assert.deepEqual(p.observers.flatMap((o) => o.targets), [], 'disposed: nothing watched');
  p.dom.window.close();
});

test('an error panel stays up through a theme switch: nothing is drawn over it', async () => {
  const p = page();
  p.app.receive({ type: 'error', message: 'x.npy: truncated' });
  p.doc.body.className = 'vscode-dark';
  await later();
  assert.equal(p.root.dataset.state, 'error');
  assert.ok(p.doc.querySelector('[role=alert]'));
  assert.equal(p.doc.querySelector('main svg'), null);
  p.app.dispose();
  p.dom.window.close();
});

test('Ctrl+2 (the window focused, nothing in it) lands on the model view\'s first head; a redraw keeps the focused head', async () => {
  const p = page();
  assert.equal(p.doc.activeElement, p.doc.body);
  p.dom.window.dispatchEvent(new p.dom.window.FocusEvent('focus'));
  const first = p.doc.querySelector('g.head-cell[tabindex="0"]');
  assert.ok(first, 'the grid has a tab stop');
  assert.equal(p.doc.activeElement, first);
  // The arrows move to another head (the grid is one tab stop); a theme switch redraws; the same head has the focus after it.
  const moved = p.doc.querySelector<HTMLElement>('g.head-cell[data-layer="1"][data-head="1"]')!;
  for (const key of ['ArrowDown', 'ArrowRight']) p.doc.activeElement!.dispatchEvent(new p.dom.window.KeyboardEvent('keydown', { key, bubbles: true }));
  assert.equal(p.doc.activeElement, moved);
  p.doc.body.className = 'vscode-dark';
  await later();
  const now = p.doc.activeElement!;
  assert.notEqual(now, moved, 'a new picture');
  assert.equal(now.getAttribute('class'), 'head-cell');
  assert.equal(now.getAttribute('data-layer'), '1');
  assert.equal(now.getAttribute('data-head'), '1');
  p.app.dispose();
  p.dom.window.close();
});

test('a toolbar control keeps the focus when its change redraws the page', () => {
  const p = page();
  const stat = p.doc.querySelector<HTMLSelectElement>('select[data-control="statistic"]')!;
  stat.focus();
  stat.value = 'sink';
  stat.dispatchEvent(new p.dom.window.Event('change'));
  const now = p.doc.activeElement as HTMLSelectElement;
  assert.notEqual(now, stat, 'the toolbar was drawn again');
  assert.equal(now.dataset.control, 'statistic');
  assert.equal(now.value, 'sink');
  p.app.dispose();
  p.dom.window.close();
});
