// Words a tokenizer spelled out letter by letter (src/core/tokenizer/split-words.ts), on the tokens of
// real tokenizer files: the hand-built GPT-2 of the induction example (byte-level, "Ġ" pieces) and a
// Llama-2-style SentencePiece file ("▁" pieces, byte fallback), then on seeded families of texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { splitWords, splitWordsNote } from '../../../../src/core/tokenizer/split-words.js';
import { gpt2Style, llama2Style } from '../../../support/tokenizer-fixtures.js';
import { between, seeded } from '../../../support/random.js';
import { ROOT } from '../../../support/paths.js';

const gpt2 = tokenizerFrom({ tokenizerJson: readFileSync(join(ROOT, 'examples', 'models', 'induction-gpt2', 'tokenizer.json'), 'utf8') });
const GPT2_PIECES = Object.keys((JSON.parse(readFileSync(join(ROOT, 'examples', 'models', 'induction-gpt2', 'tokenizer.json'), 'utf8')) as { model: { vocab: object } }).model.vocab);
const METASPACE_PIECES = ['▁', 'c', 'a', 't', 's', '▁c', 'at', '▁cat', '▁s', '▁sat'];
const metaspace = tokenizerFrom({ tokenizerJson: JSON.stringify(llama2Style(
  METASPACE_PIECES, [['▁', 'c'], ['a', 't'], ['▁c', 'at'], ['▁', 's'], ['▁s', 'at']], 'metaspace')) });

const tokensOf = (tok: Tokenizer, text: string) => tok.encode(text).ids.map((id) => tok.decodeOne(id));
const found = (tok: Tokenizer, text: string) => splitWords(tokensOf(tok, text), text).map((w) => ({ word: w.word, count: w.count, at: w.at }));

test('GPT-2 pieces: "zebra" outside a 46-word vocabulary is found, with its place in the text; the example text has none', () => {
  const text = 'The cat sat on the zebra. The cat';
  assert.deepEqual(tokensOf(gpt2, text).slice(5, 11), [' ', 'z', 'e', 'b', 'r', 'a'], 'the space and five letters, as the model sees them');
  assert.deepEqual(found(gpt2, text), [{ word: 'zebra', count: 5, at: { offset: 19, length: 5 } }]);
  assert.deepEqual(found(gpt2, 'The cat sat on the mat. The cat'), []);
});

test('Metaspace pieces: a word written with "▁" and byte fallback is found; the vocabulary\'s words are not', () => {
  const text = 'cat sat dog cat';
  const tokens = tokensOf(metaspace, text);
  assert.ok(tokens.includes(' ') && tokens.includes('d') && tokens.includes('g'), JSON.stringify(tokens));
  assert.deepEqual(found(metaspace, text), [{ word: 'dog', count: 3, at: { offset: 8, length: 3 } }]);
});

test('a character split into bytes counts as spelled out, and is placed over the whole character', () => {
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(gpt2Style([['Ġ', 'c']])) });
  const text = 'a café';
  const words = splitWords(tokensOf(tok, text), text);
  assert.equal(words.length, 1);
  assert.equal(words[0].word, 'caf\uFFFD\uFFFD');
  assert.deepEqual(words[0].at, { offset: 2, length: 4 });
  assert.equal(text.slice(2, 6), 'café');
});

test('what is not a missing word: two letters, digits, ideographs, punctuation and special tokens between letters, whole pieces', () => {
  assert.deepEqual(splitWords([' a', 'b']), [], 'two letters');
  assert.deepEqual(splitWords([' ', '2', '0', '2', '6']), [], 'a number digit by digit');
  assert.deepEqual(splitWords(['猫', 'が', '座', 'っ']), [], 'ideographs and kana, one per token');
  assert.deepEqual(splitWords(['a', '.', 'b', '<s>', 'c', '-', 'd']), [], 'each letter alone between non-letters');
  assert.deepEqual(splitWords([' ze', 'b', 'r', 'a']), [], 'a piece of two letters: the vocabulary knew part of it');
  assert.deepEqual(splitWords([' q', ' u', ' x']), [], 'three one-letter words');
  assert.deepEqual(splitWords(['<s>', '▁', 'q', 'u', 'x']).map((w) => [w.word, w.first, w.count]), [['qux', 2, 3]]);
});

test('the note names each word once, at most five, and says what it means', () => {
  assert.equal(splitWordsNote([]), undefined);
  const one = splitWordsNote(splitWords([' ', 'z', 'e', 'b', 'r', 'a', ' ', 'z', 'e', 'b', 'r', 'a']))!;
  assert.match(one, /^"zebra" is not in the model's vocabulary: the tokenizer spelled it out letter by letter/);
  const many = splitWordsNote(['abc', 'bcd', 'cde', 'def', 'efg', 'fgh', 'ghi'].map((word, i) => ({ word, first: i, count: 3 })))!;
  assert.match(many, /^"abc", "bcd", "cde", "def", "efg" and 2 more are not in the model's vocabulary/);
});

/** Letters that no piece of two or more letters holds (its "Ġ" or "▁" aside): a word of them is always spelled out. */
function lonelyLetters(pieces: string[]): string[] {
  const cores = pieces.map((p) => p.replace(/^[Ġ▁]/u, '')).filter((c) => c.length >= 2);
  return [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => !cores.some((core) => core.includes(c)));
}

test('seeded texts of known and unknown words: every unknown word of 3+ letters is found at its place, no known word is', () => {
  // Each text begins with a word the vocabulary has at the start of a text (GPT-2's has "The", not "the").
  const families: [string, Tokenizer, string[], string, string[]][] = [
    ['GPT-2', gpt2, GPT2_PIECES, 'The', ['cat', 'sat', 'on', 'the', 'mat', 'dog', 'ran', 'bird', 'fox', 'ate', 'hat', 'and']],
    ['Metaspace', metaspace, METASPACE_PIECES, 'cat', ['cat', 'sat']],
  ];
  for (const [name, tok, pieces, start, known] of families) {
    const letters = lonelyLetters(pieces);
    assert.ok(letters.length >= 5, `${name}: letters outside every piece: ${letters.join('')}`);
    const rand = seeded(name.length * 7919);
    for (let c = 0; c < 200; c++) {
      const unknown: { word: string; offset: number }[] = [];
      let text = start;
      for (let w = between(rand, 1, 12); w > 0; w--) {
        const word = rand() < 0.3
          ? Array.from({ length: between(rand, 3, 9) }, () => letters[between(rand, 0, letters.length - 1)]).join('')
          : known[between(rand, 0, known.length - 1)];
        text += rand() < 0.2 ? '. ' : ' ';
        if (!known.includes(word)) unknown.push({ word, offset: text.length });
        text += word;
      }
      const got = found(tok, text);
      assert.deepEqual(got.map((g) => ({ word: g.word, offset: g.at?.offset })), unknown, `${name} case ${c}: ${JSON.stringify(text)}`);
    }
  }
});

test('seeded hostile tokens (any characters, bytes, whitespace, marks) never throw, and every place found is in the text', () => {
  const alphabet = ['a', 'Z', 'é', 'e\u0301', '\uFFFD', ' ', '\n', '.', '7', '猫', '▁', '<s>', '𝒜', '\u200d', ''];
  const rand = seeded(4242);
  for (let c = 0; c < 500; c++) {
    const tokens = Array.from({ length: between(rand, 0, 30) }, () =>
      Array.from({ length: between(rand, 0, 3) }, () => alphabet[between(rand, 0, alphabet.length - 1)]).join(''));
    const text = tokens.join('');
    for (const w of splitWords(tokens, text)) {
      assert.ok(w.count >= 3 && w.first + w.count <= tokens.length, `case ${c}`);
      if (w.at) assert.ok(w.at.offset >= 0 && w.at.offset + w.at.length <= text.length, `case ${c}: ${JSON.stringify(tokens)}`);
    }
  }
});
