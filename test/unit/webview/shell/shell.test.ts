// The shell base on its own, as a notebook renderer would use it: two surfaces in one document, each
// in its own container (not the body), each with a transport handed to it (no acquireVsCodeApi).
// Each hears its own messages; a theme switch redraws both; a resize redraws the one whose container
// changed; Escape hides the tooltip; a disposed shell hears nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { Shell } from '../../../../webview/shell/shell.js';
import type { Transport } from '../../../../webview/shell/transport.js';

const later = () => new Promise((r) => setTimeout(r, 150));

/** A transport whose messages the test delivers, as a notebook renderer's context would. */
function memoryTransport() {
  const posted: unknown[] = [];
  let receiver: ((m: unknown) => void) | undefined;
  const transport: Transport<unknown> = {
    post: (m) => posted.push(m),
    listen(receive) { receiver = receive; return () => { receiver = undefined; }; },
  };
  return { transport, posted, deliver: (m: unknown) => receiver?.(m) };
}

function surface(doc: Document, id: string) {
  const root = doc.getElementById(id)!;
  const view = root.querySelector<HTMLElement>('.view')!;
  const tip = root.querySelector<HTMLElement>('.tip')!;
  const redraws: number[] = [];
  const heard: unknown[] = [];
  const shell = new Shell({ root, tooltip: tip, view, redraw: () => redraws.push(shell.width(100, 640)), focusOnArrival: false });
  const channel = memoryTransport();
  shell.start(channel.transport, (m) => heard.push(m));
  const setWidth = (w: number) => Object.defineProperty(view, 'clientWidth', { value: w, configurable: true });
  return { root, view, tip, shell, redraws, heard, setWidth, ...channel };
}

function notebook() {
  const dom = new JSDOM(`<!doctype html><html><body class="vscode-light">
    <section id="a"><div class="view"></div><div class="tip"></div></section>
    <section id="b"><div class="view"></div><div class="tip"></div></section></body></html>`, { pretendToBeVisual: true });
  const doc = dom.window.document;
  return { dom, doc, a: surface(doc, 'a'), b: surface(doc, 'b') };
}

test('two shells in one document each hear their own transport', () => {
  const { dom, a, b } = notebook();
  a.deliver({ type: 'render', n: 1 });
  b.deliver({ type: 'render', n: 2 });
  assert.deepEqual(a.heard, [{ type: 'render', n: 1 }]);
  assert.deepEqual(b.heard, [{ type: 'render', n: 2 }]);
  a.shell.dispose();
  a.deliver({ type: 'render', n: 3 });
  assert.equal(a.heard.length, 1, 'a disposed shell hears nothing more');
  b.shell.dispose();
  dom.window.close();
});

test('a theme switch redraws every shell once, in the new theme; a resize only the one whose view changed width', async () => {
  const { dom, doc, a, b } = notebook();
  assert.equal(a.shell.theme().kind, 'light');
  // VS Code changes the class and the colour variables: a burst of two changes.
  doc.body.className = 'vscode-dark';
  doc.documentElement.setAttribute('style', '--vscode-editor-background: #101010');
  await later();
  assert.equal(a.redraws.length, 1, 'one redraw for a burst of changes');
  assert.equal(b.redraws.length, 1);
  assert.equal(a.shell.theme().kind, 'dark');
  assert.equal(a.shell.theme().bg, '#101010');
  a.setWidth(500);
  dom.window.dispatchEvent(new dom.window.Event('resize'));
  await later();
  assert.deepEqual(a.redraws, [640, 500], 'drawn at 640 where nothing was laid out, then at its new width');
  assert.equal(b.redraws.length, 1, 'the other container kept its width');
  a.shell.dispose();
  doc.body.className = 'vscode-light';
  await later();
  assert.equal(a.redraws.length, 2, 'disposed: no more redraws');
  assert.equal(b.redraws.length, 2);
  b.shell.dispose();
  dom.window.close();
});

test('width: at least the minimum, the view\'s width when laid out, remembered for the resize check', async () => {
  const { dom, a, b } = notebook();
  assert.equal(a.shell.width(100, 640), 640);
  a.setWidth(60);
  assert.equal(a.shell.width(100, 640), 100);
  a.setWidth(62);
  dom.window.dispatchEvent(new dom.window.Event('resize'));
  await later();
  assert.equal(a.redraws.length, 0, '2 px from the width drawn at');
  a.shell.dispose();
  b.shell.dispose();
  dom.window.close();
});

test('the shell\'s tooltip lives in its own element; Escape hides it', () => {
  const { dom, doc, a, b } = notebook();
  a.shell.tooltip.show(['layer 0 head 1'], { x: 10, y: 10 });
  assert.equal(a.tip.hidden, false);
  assert.equal(a.tip.textContent, 'layer 0 head 1');
  assert.equal(b.tip.textContent, '', 'the other surface\'s tooltip is untouched');
  doc.body.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  assert.equal(a.tip.hidden, true);
  a.shell.dispose();
  b.shell.dispose();
  dom.window.close();
});

test('a view drawn after a theme change or a resize was heard owes it no redraw (drew() cancels the one scheduled)', async () => {
  const { dom, doc, a, b } = notebook();
  doc.body.className = 'vscode-dark';
  await new Promise((r) => setTimeout(r, 0)); // the change heard: a redraw scheduled for each
  // Surface a drew its view now (in the new theme); b did not.
  a.shell.drew();
  await later();
  assert.equal(a.redraws.length, 0, 'drawn already in the theme of now');
  assert.equal(b.redraws.length, 1, 'the other shell redraws as before');
  // A change after the drawing is heard again.
  doc.body.className = 'vscode-light';
  await later();
  assert.equal(a.redraws.length, 1);
  a.shell.dispose();
  b.shell.dispose();
  dom.window.close();
});
