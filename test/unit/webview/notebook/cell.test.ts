// A notebook output drawn on jsdom (webview/notebook/cell.ts) as VS Code's notebook webview would:
// the payload's grid is painted (one thumbnail per head, reported to the host), the head view's
// hover gives the exact weight, Enter on a head opens it from the keyboard, a theme change (the
// body's class) and a new cell width (the ResizeObserver on the output) redraw it, Open in Attention
// Lens hands the payload to the host and says what came back, and every bad payload is one line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { cannotShow, renderAttentionOutput, type CellHost } from '../../../../webview/notebook/cell.js';
import { exactWeight } from '../../../../webview/views/model/head.js';
import type { AttentionPayload } from '../../../../src/core/model-attention/payload.js';
import type { RendererMessage } from '../../../../src/protocol/notebook.js';
import { randomPayload } from '../../../support/payload.js';
import { gridThumbnails } from '../../../support/grid-thumbnails.js';

const later = (ms = 150) => new Promise((r) => setTimeout(r, ms));

function page() {
  const dom = new JSDOM('<!doctype html><html><head></head><body class="vscode-light"><div id="output"></div></body></html>', { pretendToBeVisual: true });
  if (!('navigator' in globalThis)) Object.defineProperty(globalThis, 'navigator', { value: dom.window.navigator, configurable: true });
  const observed: { callback: () => void; targets: Element[] }[] = [];
  Object.defineProperty(dom.window, 'ResizeObserver', {
    configurable: true,
    value: class {
      private readonly o: { callback: () => void; targets: Element[] };
      constructor(callback: () => void) { this.o = { callback, targets: [] }; observed.push(this.o); }
      observe(el: Element) { this.o.targets.push(el); }
      disconnect() { this.o.targets = []; }
    },
  });
  const doc = dom.window.document;
  const output = doc.getElementById('output') as unknown as HTMLElement;
  const painted: Extract<RendererMessage, { type: 'painted' }>[] = [];
  const opened: AttentionPayload[] = [];
  const host: CellHost = {
    painted: (m) => painted.push(m),
    open: async (p) => { opened.push(p); return { type: 'opened', id: 1, file: 'gpt2-0123456789ab.safetensors' }; },
  };
  return { dom, doc, output, painted, opened, host, observed };
}

test('the grid is painted from the payload, one thumbnail per head, and reported', async () => {
  const p = page();
  const { payload } = randomPayload(2, 3, 6);
  const cell = renderAttentionOutput(p.output, payload, p.host);
  assert.ok(cell.app);
  await later(20);
  assert.equal(p.output.querySelectorAll('g.head-cell').length, 6);
  assert.equal(gridThumbnails(p.output).length, 6, 'each head painted as its thumbnail');
  assert.deepEqual(p.painted.map((m) => [m.view, m.items]), [['model', 6]]);
  assert.ok(p.doc.getElementById('attention-lens-notebook-style'), 'the style sheet is put in once');
  renderAttentionOutput(p.doc.body.appendChild(p.doc.createElement('div')), payload, p.host);
  assert.equal(p.doc.querySelectorAll('#attention-lens-notebook-style').length, 1);
  cell.dispose();
  assert.equal(p.output.children.length, 0, 'disposed: the output is empty again');
});

test('the head view: hovering a cell gives its exact weight; Enter on a head opens it from the keyboard', async () => {
  const p = page();
  const { values, payload } = randomPayload(2, 2, 5, 7);
  renderAttentionOutput(p.output, payload, p.host);
  await later(20);
  // The keyboard: the grid's tab stop, then Enter, opens that head with the focus in it.
  const first = p.output.querySelector<SVGGElement>('g.head-cell[tabindex="0"]')!;
  first.focus();
  first.dispatchEvent(new p.dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  await later(20);
  const root = p.output.querySelector<HTMLElement>('.al-notebook-root')!;
  assert.equal(root.dataset.view, 'head');
  // Layer 2 head 2 (counted from 1 on screen) through the toolbar, as a mouse user does.
  const set = (control: string, value: string) => {
    const el = p.output.querySelector<HTMLInputElement>(`[data-control="${control}"]`)!;
    el.value = value;
    el.dispatchEvent(new p.dom.window.Event('change', { bubbles: true }));
  };
  set('layer', '2');
  await later(20);
  set('head', '2');
  await later(20);
  const cell = p.output.querySelector('rect.cell[data-i="1"][data-j="3"]')!;
  assert.ok(cell, 'the head is drawn cell by cell');
  cell.dispatchEvent(new p.dom.window.MouseEvent('pointerover', { bubbles: true, clientX: 10, clientY: 10 }));
  const tip = p.output.querySelector<HTMLElement>('.al-notebook-tip')!;
  const weight = values[(1 * 2 + 1) * 25 + 1 * 5 + 3];
  assert.equal(tip.hidden, false);
  assert.match(tip.textContent ?? '', new RegExp(`weight ${exactWeight(weight).replace('.', '\\.')}`));
});

test('a theme change and a new cell width redraw the view', async () => {
  const p = page();
  const { payload } = randomPayload(1, 4, 6);
  renderAttentionOutput(p.output, payload, p.host);
  await later(20);
  const background = () => p.output.querySelector('svg rect.bg')!.getAttribute('fill');
  const width = () => p.output.querySelector('.model-stage svg')!.getAttribute('width');
  assert.equal(background(), '#ffffff');
  p.doc.body.className = 'vscode-dark';
  await later();
  assert.equal(background(), '#1e1e1e', 'the dark theme\'s background');
  const before = width();
  const root = p.output.querySelector<HTMLElement>('.al-notebook-root')!;
  Object.defineProperty(root, 'clientWidth', { value: 400, configurable: true });
  const observer = p.observed.find((o) => o.targets.includes(root));
  assert.ok(observer, 'the cell\'s width is watched');
  observer.callback();
  await later();
  assert.equal(before, '760');
  assert.equal(width(), '400', 'drawn again at the cell\'s new width');
  assert.equal(p.painted.length, 1, 'redraws for the theme and the width are not new paintings');
});

test('Open in Attention Lens hands the cell\'s payload to the host and says what came back', async () => {
  const p = page();
  const { payload } = randomPayload(1, 1, 3, 2, { title: 'gpt2' });
  renderAttentionOutput(p.output, payload, p.host);
  const button = p.output.querySelector<HTMLButtonElement>('button.al-notebook-open')!;
  assert.equal(button.textContent, 'Open in Attention Lens');
  button.click();
  await later(10);
  assert.deepEqual(p.opened, [payload]);
  assert.equal(p.output.querySelector('.al-notebook-status')!.textContent, 'Opened in Attention Lens, beside the notebook');
  const refusing: CellHost = { open: async () => ({ type: 'refused', id: 1, message: 'no room' }) };
  const other = p.doc.body.appendChild(p.doc.createElement('div'));
  renderAttentionOutput(other, payload, refusing);
  other.querySelector<HTMLButtonElement>('button.al-notebook-open')!.click();
  await later(10);
  assert.equal(other.querySelector('.al-notebook-status')!.textContent, 'Not opened: no room');
  const alone = p.doc.body.appendChild(p.doc.createElement('div'));
  renderAttentionOutput(alone, payload, {});
  assert.equal(alone.querySelector('button.al-notebook-open'), null, 'no button where the host cannot be asked');
});

test('a bad payload is one line in the cell, never a blank or a throw', () => {
  const p = page();
  const { payload } = randomPayload(1, 2, 3);
  const cases: [unknown, string][] = [
    [{ ...payload, dtype: 'float64' }, 'its "dtype" is "float64", not "float32" or "float16"'],
    [{ ...payload, tokens: ['a'] }, '1 token(s) for 3 × 3 attention'],
    [{ ...payload, data: payload.data.slice(4) }, 'its data holds 69 bytes, but [1, 2, 3, 3] of float32 needs 72'],
    ['text', 'the output is not an Attention Lens payload (a JSON object)'],
  ];
  for (const [bad, why] of cases) {
    const cell = renderAttentionOutput(p.output, bad, p.host);
    assert.equal(cell.problem, why);
    const line = p.output.querySelector('p.al-notebook-error')!;
    assert.equal(line.textContent, cannotShow(why));
    assert.equal(line.getAttribute('role'), 'alert');
    assert.equal(p.output.querySelectorAll('svg').length, 0);
  }
  renderAttentionOutput(p.output, undefined, p.host, 'Unexpected token } in JSON');
  assert.equal(p.output.textContent, 'Attention Lens cannot show this output: its JSON cannot be read (Unexpected token } in JSON)');
  assert.equal(p.painted.filter((m) => m.view === 'error').length, 5);
});
