// The WordPiece model (src/core/tokenizer/wordpiece.ts) against a reference written here from its
// definition (the Rust library's: from each start, try every end from the word's last character back,
// the prefix before any piece but the first; no piece at some start makes the whole word the unk token;
// more than max_input_chars_per_word characters too), over random vocabularies and words, and its work
// bounded where the reference's is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wordPieceModel } from '../../../../../src/core/tokenizer/parts/wordpiece.js';
import { TokenizerError } from '../../../../../src/core/tokenizer/tokenizer.js';
import { between, seeded } from '../../../../support/random.js';

function reference(vocab: Record<string, number>, word: string, prefix: string, unk: string, most: number): string[] {
  const chars = [...word];
  if (chars.length > most) return [unk];
  const out: string[] = [];
  for (let start = 0; start < chars.length;) {
    let end = chars.length;
    let found: string | undefined;
    for (; end > start; end--) {
      const piece = (start > 0 ? prefix : '') + chars.slice(start, end).join('');
      if (Object.hasOwn(vocab, piece)) { found = piece; break; }
    }
    if (found === undefined) return [unk];
    out.push(found);
    start = end;
  }
  return out;
}

const LETTERS = ['a', 'b', 'c', 'é', '日', '🙂', '#'];

test('random words over random vocabularies split as the definition says', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rand = seeded(seed);
    const word = () => Array.from({ length: between(rand, 1, 5) }, () => LETTERS[between(rand, 0, LETTERS.length - 1)]).join('');
    const prefix = ['##', '', '@@'][seed % 3];
    const vocab: Record<string, number> = { '[UNK]': 0 };
    for (let i = 0; i < between(rand, 1, 30); i++) vocab[(rand() < 0.5 ? prefix : '') + word()] = i + 1;
    const most = between(rand, 3, 12);
    const model = wordPieceModel({ vocab, continuing_subword_prefix: prefix, max_input_chars_per_word: most });
    const words = Array.from({ length: 20 }, () => Array.from({ length: between(rand, 1, 4) }, word).join(''));
    assert.deepEqual(model(words), words.flatMap((w) => reference(vocab, w, prefix, '[UNK]', most)), `seed ${seed}`);
  }
});

test('a known split, the unk token for a word with no split, and the word cap in characters, not UTF-16 units', () => {
  const vocab = { '[UNK]': 0, un: 1, '##aff': 2, '##able': 3, una: 4, '##ffa': 5, '##ble': 6, '🙂': 7 };
  const model = wordPieceModel({ vocab, max_input_chars_per_word: 3 });
  assert.deepEqual(wordPieceModel({ vocab })(['unaffable', 'unx', '🙂']), ['una', '##ffa', '##ble', '[UNK]', '🙂']);
  assert.deepEqual(model(['unaffable', '🙂🙂🙂']), ['[UNK]', '[UNK]']);
  assert.deepEqual(wordPieceModel({ vocab, max_input_chars_per_word: 1 })(['🙂']), ['🙂']);
});

test('a cap of 1e9 and a vocabulary of long pieces keep a long word\'s work bounded, or refuse it by its key', () => {
  // Pieces of every length up to 1,000 that never match: the definition would try each on each start.
  const vocab: Record<string, number> = { '[UNK]': 0, a: 1, '##a': 2 };
  for (let n = 2; n <= 1000; n++) vocab[`##${'b'.repeat(n)}`] = n + 1;
  const model = wordPieceModel({ vocab, max_input_chars_per_word: 1e9 });
  const t0 = performance.now();
  // With pieces of real lengths (up to 20) the same cap splits a 100,000-character word.
  const real: Record<string, number> = { '[UNK]': 0, a: 1, '##a': 2 };
  for (let n = 2; n <= 20; n++) real[`##${'b'.repeat(n)}`] = n + 1;
  assert.equal(wordPieceModel({ vocab: real, max_input_chars_per_word: 1e9 })(['a'.repeat(100_000)]).length, 100_000);
  for (const length of [20_000, 2_000_000]) {
    assert.throws(() => model(['a'.repeat(length)]), (err: unknown) => err instanceof TokenizerError && new RegExp(`^tokenizer\\.json: the WordPiece model \\(at "model\\.vocab"\\) took over 1024 steps a character on words of ${length.toLocaleString('en-US')} characters: such a vocabulary is not supported$`).test(err.message));
  }
  assert.ok(performance.now() - t0 < 5_000, `${Math.round(performance.now() - t0)} ms`);
  // A real-sized cap on the same word: the unk token at once.
  assert.deepEqual(wordPieceModel({ vocab })(['a'.repeat(2_000_000)]), ['[UNK]']);
});
