// The first N ids of a long text (src/core/tokenizer/prefix-encode.ts): the same ids as tokenizing the
// whole text and keeping N, on texts drawn from a seed for GPT-2, Llama 3 and Llama 2 layouts; and only
// a prefix of a long text is ever tokenized.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import { encodePrefix } from '../../../../src/core/tokenizer/prefix-encode.js';
import type { Encoding } from '../../../../src/core/tokenizer/tokenizer.js';
import { between, seeded } from '../../../support/random.js';
import { gpt2Style, llama2Style, llama3Style } from '../../../support/tokenizer-fixtures.js';

const WORDS = ['the', ' cat', ' sat', '  ', '\n', '\n\n', ' é', '日本', ' 🙂', "'s", ' 2024', '!', '\t', '   x', ' on', ' mat.', 'at', ' '];

test('encode(text, n) gives the first n ids of encode(text), for random texts and n, in three layouts', () => {
  const tokenizers = [
    tokenizerFrom({ tokenizerJson: JSON.stringify(gpt2Style([['Ġ', 'c'], ['a', 't'], ['Ġc', 'at'], ['Ġ', 'Ġ']])) }),
    tokenizerFrom({ tokenizerJson: JSON.stringify(llama3Style([['Ġ', 's'], ['a', 't'], ['Ġs', 'at']]).json) }),
    tokenizerFrom({ tokenizerJson: JSON.stringify(llama2Style(['\u2581', 'c', 'a', 't', '\u2581c', 'at', '\u2581cat'], [['\u2581', 'c'], ['a', 't'], ['\u2581c', 'at']])) }),
  ];
  const rand = seeded(31_337);
  for (let run = 0; run < 60; run++) {
    const parts: string[] = [];
    const words = between(rand, 0, 3000);
    for (let i = 0; i < words; i++) parts.push(WORDS[between(rand, 0, WORDS.length - 1)]);
    const text = parts.join('');
    const limit = between(rand, 1, 200);
    for (const [t, tok] of tokenizers.entries()) {
      const whole = tok.encode(text);
      const first = tok.encode(text, limit);
      assert.deepEqual(first, { ids: whole.ids.slice(0, limit), pieces: whole.pieces.slice(0, limit) }, `run ${run}, layout ${t}, ${text.length} characters, ${limit} ids`);
    }
  }
});

test('the first 8 ids of an 8 MB text are found from prefixes of a few kilobytes, not the whole text', () => {
  const text = 'the cat sat on the mat. '.repeat(350_000);
  const asked: number[] = [];
  const encode = (part: string): Encoding => {
    asked.push(part.length);
    const ids = Array.from({ length: Math.ceil(part.length / 4) }, (_, i) => i);
    return { ids, pieces: ids.map(String) };
  };
  const first = encodePrefix(text, 8, encode);
  assert.deepEqual(first.ids, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.ok(Math.max(...asked) <= 4096, `prefixes of ${asked.join(', ')} characters`);
});

test('a prefix whose last ids change when the text goes on is not trusted: more text is read until two prefixes agree', () => {
  // A stand-in tokenizer whose ids change with the text's length below 8,192 characters, then settle.
  const text = 'x'.repeat(100_000);
  const encode = (part: string): Encoding => {
    const ids = Array.from({ length: part.length }, (_, i) => (part.length >= 8192 ? i : part.length));
    return { ids, pieces: ids.map(String) };
  };
  assert.deepEqual(encodePrefix(text, 4, encode).ids, [0, 1, 2, 3]);
});
