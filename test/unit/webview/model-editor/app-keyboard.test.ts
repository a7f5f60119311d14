// The model page by keyboard and at its real width: Enter on a head (grid or finder) opens it with
// the focus kept in the head view, Escape or Backspace goes back with the focus on the head it came
// from; Ctrl+2 lands where the keyboard last was in the view; the toolbar counts layers, heads and
// tokens from 1 as the views do; each warning is shown once; the view is drawn for the stage's
// width (the root's less its padding: a 630 px grid in a 606 px stage cut its last column).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { ModelApp } from '../../../../webview/model-editor/app.js';
import type { ModelWebviewMessage } from '../../../../src/protocol/model-editor.js';
import { headFloat32, scanModel } from '../../../../src/core/model-attention/scan.js';
import { memoryAttention, randomAttention } from '../../../support/model-fixture.js';

const a = memoryAttention(randomAttention(2, 3, 6), 2, 3, 6);
const scanned = scanModel(a);

function page(rootStyle = '') {
  const dom = new JSDOM(`<!doctype html><body><main id="root" style="${rootStyle}"></main><div id="tip"></div></body>`, { pretendToBeVisual: true });
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const doc = dom.window.document;
  const posted: ModelWebviewMessage[] = [];
  const root = doc.getElementById('root') as unknown as HTMLElement;
  const app = new ModelApp(root, doc.getElementById('tip') as unknown as HTMLElement, { post: (m) => posted.push(m), canSoftmax: true });
  const key = (k: string) => doc.activeElement!.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));
  /** Answers the head the app asked for last, as the host does. */
  const answerHead = () => {
    const asked = posted.filter((m) => m.type === 'head').at(-1) as { layer: number; head: number };
    app.receive({ type: 'head', layer: asked.layer, head: asked.head, weights: headFloat32(a, asked.layer, asked.head) });
  };
  return { dom, doc, root, app, posted, key, answerHead };
}

const place = (el: Element | null) => `${el?.getAttribute('class')} ${el?.getAttribute('data-layer')}:${el?.getAttribute('data-head')}`;

test('Enter on a head opens it with the focus in the head view; Escape and Backspace go back to that head in the grid', () => {
  const p = page();
  p.app.receive({ type: 'model', ...scanned });
  (p.doc.querySelector('g.head-cell[tabindex="0"]') as unknown as HTMLElement).focus();
  p.key('ArrowDown');
  p.key('ArrowRight');
  assert.equal(place(p.doc.activeElement), 'head-cell 1:1');
  p.key('Enter');
  assert.equal(p.root.dataset.view, 'head');
  assert.deepEqual(p.posted.filter((m) => m.type === 'head').at(-1), { type: 'head', layer: 1, head: 1 });
  p.answerHead();
  const focused = p.doc.activeElement!;
  assert.equal(focused.getAttribute('class'), 'cell', 'the focus is on the head\'s first cell, not the page');
  assert.equal(focused.getAttribute('data-i'), '0');
  assert.equal(focused.getAttribute('data-j'), '0');
  p.key('ArrowRight');
  assert.equal(p.doc.activeElement!.getAttribute('data-j'), '1', 'and the arrows read the head');
  p.key('Escape');
  assert.equal(p.root.dataset.view, 'model');
  assert.equal(place(p.doc.activeElement), 'head-cell 1:1', 'back on the head it came from');
  assert.equal(p.doc.activeElement!.getAttribute('tabindex'), '0');
  assert.equal(p.doc.querySelectorAll('g.head-cell[tabindex="0"]').length, 1);
  p.key('ArrowLeft');
  p.key('Enter');
  p.answerHead();
  assert.equal(p.doc.activeElement!.getAttribute('class'), 'cell');
  p.key('Backspace');
  assert.equal(p.root.dataset.view, 'model');
  assert.equal(place(p.doc.activeElement), 'head-cell 1:0');
  p.app.dispose();
  p.dom.window.close();
});

test('Enter on a finder row opens the head; Escape goes back to the finder, on that row', () => {
  const p = page();
  p.app.receive({ type: 'model', ...scanned });
  const view = p.doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!;
  view.value = 'finder';
  view.dispatchEvent(new p.dom.window.Event('change'));
  (p.doc.querySelector('g.head-row[tabindex="0"]') as unknown as HTMLElement).focus();
  p.key('ArrowDown');
  const row = place(p.doc.activeElement);
  p.key('Enter');
  assert.equal(p.root.dataset.view, 'head');
  p.answerHead();
  assert.equal(p.doc.activeElement!.getAttribute('class'), 'cell');
  p.key('Escape');
  assert.equal(p.root.dataset.view, 'finder');
  assert.equal(place(p.doc.activeElement), row);
  p.app.dispose();
  p.dom.window.close();
});

test('Ctrl+2 (the window focused, the page\'s body focused) lands on the head the keyboard was last on', () => {
  const p = page();
  p.app.start();
  p.app.receive({ type: 'model', ...scanned });
  (p.doc.querySelector('g.head-cell[tabindex="0"]') as unknown as HTMLElement).focus();
  p.key('ArrowRight');
  p.key('ArrowRight');
  (p.doc.activeElement as HTMLElement).blur();
  assert.equal(p.doc.activeElement, p.doc.body);
  p.dom.window.dispatchEvent(new p.dom.window.FocusEvent('focus'));
  assert.equal(place(p.doc.activeElement), 'head-cell 0:2');
  p.app.dispose();
  p.dom.window.close();
});

test('the toolbar counts from 1 as the views do; each warning is shown once; the view takes the stage\'s width', () => {
  const p = page('padding: 8px 12px 16px');
  Object.defineProperty(p.root, 'clientWidth', { configurable: true, get: () => 630 });
  const wide = scanModel(memoryAttention(randomAttention(1, 12, 4), 1, 12, 4));
  p.app.receive({ type: 'model', ...wide, header: { ...wide.header, warnings: ['1 row(s) do not sum to 1 (first: layer 0 head 0 query 5 sums to -6.02)'] } });
  assert.ok(Number(p.doc.querySelector('svg')!.getAttribute('width')) <= 606, `grid ${p.doc.querySelector('svg')!.getAttribute('width')} px in a 606 px stage`);
  assert.equal(p.root.textContent!.split('do not sum to 1').length - 1, 1, 'the warning line says it, the grid does not repeat it');
  const layer = p.doc.querySelector<HTMLInputElement>('input[data-control="head"]')!;
  assert.equal(layer.value, '1');
  assert.equal(layer.min, '1');
  assert.equal(layer.max, '12');
  layer.value = '12';
  layer.dispatchEvent(new p.dom.window.Event('change'));
  const view = p.doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!;
  view.value = 'head';
  view.dispatchEvent(new p.dom.window.Event('change'));
  assert.deepEqual(p.posted.filter((m) => m.type === 'head').at(-1), { type: 'head', layer: 0, head: 11 });
  assert.match(p.doc.querySelector('svg')!.textContent!, /layer 1 head 12: loading/);
  p.app.dispose();
  p.dom.window.close();
});

test('the head-tokens view asks for its head and draws it', () => {
  const p = page();
  p.app.receive({ type: 'model', ...scanned });
  const view = p.doc.querySelector<HTMLSelectElement>('select[data-control="view"]')!;
  assert.ok([...view.options].some((o) => o.value === 'head-tokens'));
  view.value = 'head-tokens';
  view.dispatchEvent(new p.dom.window.Event('change'));
  assert.deepEqual(p.posted.filter((m) => m.type === 'head').at(-1), { type: 'head', layer: 0, head: 0 });
  p.answerHead();
  assert.equal(p.doc.querySelectorAll('g.token').length, 12);
  p.app.dispose();
  p.dom.window.close();
});
