// Words offered in a message (src/core/json/quote.ts): the reader's "expected …" lists are made from
// the vocabulary's lists by quoteOr, so the words and the punctuation must come out as a sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quoteOr } from '../../../../src/core/json/quote.js';

test('quoteOr quotes each word and joins the last with "or"', () => {
  assert.equal(quoteOr(['wq', 'wk', 'wv']), '"wq", "wk" or "wv"');
  assert.equal(quoteOr(['none', 'causal']), '"none" or "causal"');
  assert.equal(quoteOr(['only']), '"only"');
  assert.equal(quoteOr([]), '');
  assert.equal(quoteOr(['a"b', 'x'.repeat(50)]), `"a\\"b" or "${'x'.repeat(40)}…"`, 'escaped as JSON and clipped as quote() does');
});
