// The bounds put on the library's tokenizer (src/core/tokenizer/guard-library.ts): a Split over windows
// gives the library's own ids on a word longer than any window, and NFKC may grow a text as much as
// Unicode lets it (U+FDFA is 18 characters) without being refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom } from '../../../../../src/core/tokenizer/index.js';
import { gpt2Style, llama3Style } from '../../../../support/tokenizer-fixtures.js';

test('a Split keeps a word longer than its windows whole: "abc" × 1,400 with merges a b, ab c is 1,400 ids of "abc"', () => {
  // a b = 256, ab c = 257, <|begin_of_text|> = 259; \p{L}+ takes the 4,200 letters as one word.
  const { json, bos } = llama3Style([['a', 'b'], ['ab', 'c']]);
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  for (const repeats of [1400, 5000]) assert.deepEqual(tok.encode('abc'.repeat(repeats)).ids, [bos, ...new Array<number>(repeats).fill(257)], `${repeats} repeats`);
});

test('NFKC and NFKD may make each character 18 (U+FDFA): a text of them is normalized, not refused', () => {
  for (const type of ['NFKC', 'NFKD']) {
    const json = gpt2Style([]);
    json.normalizer = { type: 'Sequence', normalizers: [{ type }] };
    const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
    const text = '\ufdfa'.repeat(1000);
    const bytes = Buffer.byteLength(text.normalize(type as 'NFKC' | 'NFKD'));
    assert.ok(bytes > 18_000, `${bytes}`);
    assert.equal(tok.encode(text).ids.length, bytes, type);
  }
});
