// The tip registry (webview/kit/tips.ts): each tip added gets the next index, which an element
// carries as data-tip; get() finds the tip of an element by that attribute, and nothing for an
// element without one, with a non-number, or with an index never given; lines given as a function are
// written once, when first asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { TipTable } from '../../../../webview/kit/tips.js';

const doc = new JSDOM('<!doctype html><body></body>').window.document;
const el = (tip?: string) => {
  const e = doc.createElement('div');
  if (tip !== undefined) e.setAttribute('data-tip', tip);
  return e;
};

test('tips are numbered 0, 1, 2 … in the order they are added, and found by data-tip', () => {
  const tips = new TipTable();
  const a = { lines: ['y_0 = 1·4 + 3·2 + 0·0 = 10'] };
  const b = { lines: ['second'] };
  assert.equal(tips.add(a), 0);
  assert.equal(tips.add(b), 1);
  assert.equal(tips.get(el('0')), a);
  assert.equal(tips.get(el('1')), b);
});

test('an element with no data-tip, a non-number, a fraction, or an index never given has no tip', () => {
  const tips = new TipTable();
  tips.add({ lines: ['only'] });
  assert.equal(tips.get(el('2')), undefined);
  assert.equal(tips.get(el('-1')), undefined);
  assert.equal(tips.get(el('0.5')), undefined);
  assert.equal(tips.get(el('abc')), undefined);
  // Found wanting: with no data-tip (or an empty one) Number(null) and Number('') are 0, so an
  // element without a tip showed tip 0's text.
  assert.equal(tips.get(el()), undefined);
  assert.equal(tips.get(el('')), undefined);
  assert.equal(tips.get(el(' ')), undefined);
});

test('lines given as a function are written on the first get only, and the same tip is found after', () => {
  const tips = new TipTable();
  let written = 0;
  const reveal = { kind: 'token' as const, input: 0, token: 2 };
  const i = tips.add({ lines: () => { written++; return [`y_0 = ${written}`]; }, reveal });
  assert.equal(written, 0, 'nothing written before a hover');
  const first = tips.get(el(String(i)));
  assert.deepEqual(first?.lines, ['y_0 = 1']);
  assert.deepEqual(first?.reveal, reveal);
  assert.equal(tips.get(el(String(i))), first, 'kept, not written again');
  assert.equal(written, 1);
});
