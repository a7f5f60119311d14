// The shell's Escape: it hides the tooltip and leaves the focus where it is, until stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { escapeHidesTooltip } from '../../../../webview/shell/keyboard.js';

test('Escape hides the tooltip, other keys do not, and nothing after stop', () => {
  const dom = new JSDOM('<!doctype html><body><button id="b">b</button></body>');
  const doc = dom.window.document;
  let hidden = 0;
  const stop = escapeHidesTooltip(doc, { show: () => {}, hide: () => { hidden += 1; } });
  const b = doc.getElementById('b')!;
  b.focus();
  const key = (k: string) => b.dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true }));
  key('Enter');
  assert.equal(hidden, 0);
  key('Escape');
  assert.equal(hidden, 1);
  assert.equal(doc.activeElement, b, 'the focus stays');
  stop();
  key('Escape');
  assert.equal(hidden, 1);
  dom.window.close();
});
