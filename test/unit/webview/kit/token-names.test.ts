// A repeated word ("the cat saw the dog"), from a newcomer's run: the matrix's labels showed "the"
// twice with nothing to tell them apart, and the arcs' sentence "attends most to "the"" did not
// say which one. Both now name the position, as the token menu and the step-by-step table do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderSvg } from '../../../../src/cli/render/spec-views.js';
import { analyzeOk } from '../../../support/specs.js';
import { repeatedWords, quotedToken, numberedLabel } from '../../../../webview/kit/token-names.js';

const spec = {
  features: ['is_article', 'is_animal', 'is_verb'],
  embeddings: { the: [2, 0, 0], cat: [0, 2, 0.5], saw: [0, 0.5, 2], dog: [0, 2, 0.2] },
  inputs: [{ name: 'sentence', tokens: ['the', 'cat', 'saw', 'the', 'dog'] }],
  heads: [{ name: 'h', wq: 'identity', wk: 'identity', wv: 'identity' }],
};
const data = analyzeOk(spec).data;
const shown = (el: Element) => Array.from(el.childNodes).filter((c) => c.nodeName !== 'title').map((c) => c.textContent).join('');

test('the matrix labels a repeated word by its position: "1. the" and "4. the", rows and columns', () => {
  const doc = new JSDOM(renderSvg(data, 'matrix', { head: 0, width: 676 }), { contentType: 'image/svg+xml' }).window.document;
  for (const cls of ['row-label', 'col-label']) {
    const labels = Array.from(doc.querySelectorAll(`text.${cls}`), shown);
    assert.deepEqual(labels, ['1. the', '2. cat', '3. saw', '4. the', '5. dog'], cls);
  }
});

test('without a repeated word the matrix keeps the plain words (the seed\'s pictures are unchanged)', () => {
  const plain = analyzeOk({ ...spec, inputs: [{ name: 's', tokens: ['the', 'cat', 'saw'] }] }).data;
  const doc = new JSDOM(renderSvg(plain, 'matrix', { head: 0, width: 676 }), { contentType: 'image/svg+xml' }).window.document;
  assert.deepEqual(Array.from(doc.querySelectorAll('text.row-label'), shown), ['the', 'cat', 'saw']);
});

test('the arcs say which "the" a token attends to most, and an arc names both ends by position', () => {
  const doc = new JSDOM(renderSvg(data, 'arcs', { head: 0, width: 676 }), { contentType: 'image/svg+xml' }).window.document;
  const tip = (sel: string) => doc.querySelector(`${sel} > title`)?.textContent ?? '';
  // "the" (token 4) attends to both "the"s alike (identity head): the first of the two is named, with its position.
  assert.match(tip('g.token[data-token="3"]'), /attends most to "the" \(token 1\)/);
  assert.match(tip('g.token[data-token="1"]'), /attends most to "cat" \(/, 'a word that occurs once keeps its plain name');
  assert.doesNotMatch(tip('g.token[data-token="1"]'), /"cat" \(token/);
  const arc = doc.querySelector('path.arc[data-query="3"][data-key="0"] > title')?.textContent ?? '';
  assert.match(arc, /^the \(token 4\) → the \(token 1\): weight/);
});

test('the names: one pass finds the repeats; labels and sentences follow the token menu\'s numbering', () => {
  const tokens = ['the', 'cat', 'saw', 'the', 'dog'];
  const r = repeatedWords(tokens);
  assert.deepEqual([...r], ['the']);
  assert.equal(numberedLabel(tokens, 3), '4. the');
  assert.equal(quotedToken(tokens, 3, r), '"the" (token 4)');
  assert.equal(quotedToken(tokens, 1, r), '"cat"');
});
