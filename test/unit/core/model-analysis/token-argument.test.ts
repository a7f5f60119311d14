import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenArgument } from '../../../../src/core/model-analysis/token-argument.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';

/** Words are tokens ("a" = 1, "b" = 2, …) after a BOS (id 0) on every text, as Llama's tokenizer adds one. */
const withBos: Tokenizer = {
  vocabSize: 30,
  encode: (text) => {
    const ids = [0, ...text.split(' ').filter(Boolean).map((w) => w.charCodeAt(0) - 96)];
    return { ids, pieces: ids.map(String) };
  },
  decodeOne: (id) => (id === 0 ? '<s>' : String.fromCharCode(96 + id)),
};

test('digits are an id; a text is the one token it encodes to, the tokenizer\'s BOS set aside', () => {
  assert.equal(tokenArgument('7', withBos, 30, 'the target token'), 7);
  assert.equal(tokenArgument('c', withBos, 30, 'the target token'), 3);
});

test('an id past the vocabulary, a text of two tokens and an empty one are refused by name', () => {
  assert.throws(() => tokenArgument('30', withBos, 30, 'the target token'), /the target token 30 is not a token id of this model \(its vocabulary has 30 ids, 0 to 29\)/);
  assert.throws(() => tokenArgument('a b', withBos, 30, 'the contrast token'), /the contrast token "a b" is 2 tokens \("a" "b"\), not one/);
  assert.throws(() => tokenArgument('', withBos, 30, 'the target token'), /is empty/);
});

/** Llama's or BERT's: every text between the tokenizer's [CLS] (0) and [SEP] (29), encoded no further than `limit` ids. */
const withClsSep: Tokenizer = {
  vocabSize: 30,
  encode: (text, limit) => {
    const ids = [0, ...text.split(' ').filter(Boolean).map((w) => w.charCodeAt(0) - 96), 29].slice(0, limit);
    return { ids, pieces: ids.map(String) };
  },
  decodeOne: (id) => (id === 0 ? '[CLS]' : id === 29 ? '[SEP]' : String.fromCharCode(96 + id)),
};

test('the added [CLS] … [SEP] are set aside; a text past what is encoded is "N or more" tokens, its own first ones shown', () => {
  assert.equal(tokenArgument('c', withClsSep, 30, 'the target token'), 3);
  assert.throws(() => tokenArgument('a b', withClsSep, 30, 'the target token'), /"a b" is 2 tokens \("a" "b"\), not one/);
  const long = Array(5000).fill('b').join(' ');
  assert.throws(() => tokenArgument(long, withClsSep, 30, 'the target token'), (e: Error) => {
    assert.match(e.message, /^the target token "b b b[ b]*"… is 64 or more tokens \("b" "b" "b" "b" "b" "b" "b" "b" …\), not one: give one token, or its id$/);
    assert.ok(!e.message.includes('[CLS]') && !e.message.includes('5000'));
    return true;
  });
});
