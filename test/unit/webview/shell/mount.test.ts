// The entry points' mount points: the page's own element when it has one, else a new one, first or
// last in the body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { mountPoint } from '../../../../webview/shell/mount.js';

test('mountPoint finds the page\'s element, or makes one where it is asked for', () => {
  const dom = new JSDOM('<!doctype html><body><p id="x">there</p><span></span></body>');
  const doc = dom.window.document;
  assert.equal(mountPoint(doc, 'x', 'main', 'first'), doc.getElementById('x'));
  const root = mountPoint(doc, 'attention-root', 'main', 'first');
  assert.equal(root.localName, 'main');
  assert.equal(doc.body.firstElementChild, root);
  const tip = mountPoint(doc, 'attention-tooltip', 'div', 'last');
  assert.equal(doc.body.lastElementChild, tip);
  assert.equal(tip.id, 'attention-tooltip');
  dom.window.close();
});
