// Where the keyboard is: Ctrl+2 (the window focused, nothing in the root focused) places the focus,
// a click or a focus already inside is left alone; a redraw focuses the counterpart of the focused
// control or view element again, a roving grid's item becoming its tab stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { focusFirstControl, focusFirstStop, focusOnArrival, rememberFocus } from '../../../../webview/shell/focus.js';

function page(inner: string) {
  const dom = new JSDOM(`<!doctype html><body><main id="root"><select data-control="head"><option>0</option></select><div id="view">${inner}</div></main></body>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  return { dom, doc, root: doc.getElementById('root')!, view: doc.getElementById('view')! };
}

test('focusFirstStop focuses the view\'s tab stop, and says when there is none', () => {
  const { doc, view } = page('<span tabindex="-1">a</span><button tabindex="0" id="b">b</button>');
  assert.equal(focusFirstStop(view), true);
  assert.equal(doc.activeElement?.id, 'b');
  const empty = page('<span>nothing</span>');
  assert.equal(focusFirstStop(empty.view), false);
});

test('focusFirstStop lands on the picture\'s first control, not on a cut note above it; a view with only cut notes focuses the first', () => {
  const { doc, view } = page('<span class="al-cut note" tabindex="0" id="note">a no…</span><button tabindex="0" id="b">b</button>');
  assert.equal(focusFirstStop(view), true);
  assert.equal(doc.activeElement?.id, 'b');
  const only = page('<span class="al-cut note" tabindex="0" id="note">a no…</span>');
  assert.equal(focusFirstStop(only.view), true);
  assert.equal(only.doc.activeElement?.id, 'note');
});

test('focusFirstControl: a view with no tab stop (Spectrum) leaves the keyboard on the page\'s first control, never on its body', () => {
  const empty = page('<span>nothing</span>');
  assert.equal(focusFirstStop(empty.view), false);
  assert.equal(focusFirstControl(empty.root), true);
  assert.equal(empty.doc.activeElement?.getAttribute('data-control'), 'head');
  const bare = new JSDOM('<!doctype html><body><main id="root"><p>text only</p><button disabled>off</button></main></body>').window.document;
  assert.equal(focusFirstControl(bare.getElementById('root')!), false, 'none: says so');
});

test('focusOnArrival: the window\'s focus with nothing focused places it; after a click, or with a place inside, it does not', () => {
  const { dom, doc, root } = page('');
  let placed = 0;
  const stop = focusOnArrival(root, () => { placed += 1; });
  dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
  assert.equal(placed, 1);
  doc.body.dispatchEvent(new dom.window.PointerEvent('pointerdown', { bubbles: true }));
  dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
  assert.equal(placed, 1, 'the click chose the place');
  (root.querySelector('select') as HTMLElement).focus();
  stop();
  dom.window.dispatchEvent(new dom.window.FocusEvent('focus'));
  assert.equal(placed, 1, 'stopped');
});

test('rememberFocus: a control is found again by its data-control, a cell by its class and place', () => {
  const { doc, root, view } = page('<svg><rect class="cell hot" data-query="1" data-key="2" tabindex="0"></rect></svg>');
  root.querySelector('select')!.focus();
  const again = rememberFocus(root, view)!;
  // The redraw: a new toolbar control of the same name.
  const redrawn = doc.createElement('select');
  redrawn.setAttribute('data-control', 'head');
  root.querySelector('select')!.replaceWith(redrawn);
  again();
  assert.equal(doc.activeElement, redrawn);
  (view.querySelector('rect') as unknown as HTMLElement).focus();
  const cell = rememberFocus(root, view)!;
  // The redraw: a new grid whose first cell is the tab stop.
  const svg = doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
  view.replaceChildren(svg);
  for (const [q, k] of [[0, 0], [1, 2]]) {
    const r = doc.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.setAttribute('class', 'cell'); r.setAttribute('data-query', String(q)); r.setAttribute('data-key', String(k));
    if (q === 0) r.setAttribute('tabindex', '0');
    svg.append(r);
  }
  cell();
  const now = doc.activeElement!;
  assert.equal(now.getAttribute('data-query'), '1');
  assert.equal(now.getAttribute('tabindex'), '0', 'the refocused cell is the grid\'s tab stop');
  assert.equal(svg.querySelectorAll('[tabindex="0"]').length, 1, 'and the only one');
});

test('rememberFocus keeps nothing for the page, for elements inside `skip`, or for view elements without a place', () => {
  const { doc, root, view } = page('<div class="tabs"><button class="tab" data-view="x" tabindex="0">x</button></div><p class="plain" tabindex="0">p</p>');
  assert.equal(rememberFocus(root, view), undefined, 'nothing focused');
  (view.querySelector('.tab') as HTMLElement).focus();
  assert.equal(rememberFocus(root, view, '.tabs'), undefined);
  (view.querySelector('.plain') as HTMLElement).focus();
  assert.equal(doc.activeElement?.className, 'plain');
  assert.equal(rememberFocus(root, view), undefined);
});
