// The tokenizer as tokenizer.json's rules make it (src/core/tokenizer/index.ts), on fixtures whose every
// expected id is worked out by hand from the merge ranks (test/support/tokenizer-fixtures.ts gives the
// byte ids): GPT-2's regex on spaces, tabs, newlines, contractions, digits and Unicode; added tokens in the
// text; merges in both formats; Llama 3's Split regex and BOS; Llama 2's "▁" and byte fallback; GPT-2's
// vocab.json + merges.txt; and no quadratic cost on a 1 MB word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom, type Tokenizer } from '../../../../src/core/tokenizer/index.js';
import { byteLevel, tinyTokenizer } from '../../../support/tiny-tokenizer.js';
import { gpt2Style, llama2Style, llama3Style } from '../../../support/tokenizer-fixtures.js';

const from = (json: unknown): Tokenizer => tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
const ids = (tok: Tokenizer, text: string) => tok.encode(text).ids;

// GPT-2 style: ĠĠ = 256 (rank 0), Ġc = 257 (rank 1), at = 258 (rank 2), Ġcat = 259 (rank 3), <|endoftext|> = 260.
const CAT: [string, string][] = [['Ġ', 'Ġ'], ['Ġ', 'c'], ['a', 't'], ['Ġc', 'at']];
const gpt2 = from(gpt2Style(CAT));

test('GPT-2\'s byte pieces have GPT-2\'s ids, and a word merges by rank: " cat" is Ġ c a t → Ġc (rank 1) → at (rank 2) → Ġcat (rank 3)', () => {
  assert.deepEqual(ids(gpt2, 'a'), [64]);
  assert.deepEqual(ids(gpt2, ' '), [220]);
  assert.deepEqual(ids(gpt2, '\n'), [198]);
  assert.deepEqual(gpt2.encode('a cat'), { ids: [64, 259], pieces: ['a', 'Ġcat'] });
  // "cat": c a t → at (rank 2); "Ġc" cannot form without the space.
  assert.deepEqual(gpt2.encode('cat'), { ids: [66, 258], pieces: ['c', 'at'] });
  assert.equal(gpt2.vocabSize, 261);
});

test('the merge ranks decide between overlapping pairs: "abc" is a bc when b c ranks first, ab c when a b does', () => {
  // b c = 256, a b = 257: b c (rank 0) wins; then a + bc has no merge.
  assert.deepEqual(ids(from(gpt2Style([['b', 'c'], ['a', 'b']])), 'abc'), [64, 256]);
  // a b = 256, b c = 257: a b (rank 0) wins.
  assert.deepEqual(ids(from(gpt2Style([['a', 'b'], ['b', 'c']])), 'abc'), [256, 66]);
});

test('merges written as "a b" strings and as ["a", "b"] pairs give the same ids', () => {
  const strings = from(gpt2Style(CAT, { mergesAsStrings: true }));
  for (const text of ['a cat', 'a   cat', 'cat  ', 'the cat sat']) assert.deepEqual(ids(strings, text), ids(gpt2, text), text);
  assert.deepEqual(ids(strings, 'a   cat'), [64, 256, 259]);
});

test('runs of spaces follow GPT-2\'s \\s+(?!\\S): "a   cat" is "a", "  ", " cat"; trailing spaces stay one run', () => {
  // "  " → Ġ Ġ → ĠĠ (rank 0) = 256; " cat" → 259.
  assert.deepEqual(gpt2.encode('a   cat'), { ids: [64, 256, 259], pieces: ['a', 'ĠĠ', 'Ġcat'] });
  // "cat  " → "cat", "  " (the run ends the text, so the lookahead holds for all of it).
  assert.deepEqual(ids(gpt2, 'cat  '), [66, 258, 256]);
  // Three spaces alone: one run "   " → Ġ Ġ Ġ → ĠĠ (leftmost first) Ġ.
  assert.deepEqual(ids(gpt2, '   '), [256, 220]);
});

test('tabs and newlines: "a\\t\\tb" is a, \\t, \\t, b and "a\\n\\nb" is a, \\n, \\n, b (the last whitespace goes with nothing before a letter unless it is a space)', () => {
  assert.deepEqual(gpt2.encode('a\t\tb'), { ids: [64, 197, 197, 65], pieces: ['a', 'ĉ', 'ĉ', 'b'] });
  assert.deepEqual(gpt2.encode('a\n\nb'), { ids: [64, 198, 198, 65], pieces: ['a', 'Ċ', 'Ċ', 'b'] });
  // A newline then a space before a word: "\n", " cat".
  assert.deepEqual(ids(gpt2, 'a\n cat'), [64, 198, 259]);
});

test('contractions are GPT-2\'s lowercase list: "it\'s" splits before \'s, "IT\'S" keeps \' and S apart', () => {
  const tok = from(gpt2Style([["'", 's'], ["'", 'S']]));
  // 's = 256 is one pre-token, so its merge applies; i = 72, t = 83.
  assert.deepEqual(tok.encode("it's"), { ids: [72, 83, 256], pieces: ['i', 't', "'s"] });
  // 'S is not in GPT-2's list: "'" is punctuation and "S" a letter, two pre-tokens, so 'S (257) never forms.
  assert.deepEqual(ids(tok, "IT'S"), [40, 51, 6, 50]);
});

test('digits and punctuation: "abc 2024!" is "abc", " 2024", "!" byte by byte', () => {
  assert.deepEqual(ids(gpt2, 'abc 2024!'), [64, 65, 66, 220, 17, 15, 17, 19, 0]);
});

test('Unicode as UTF-8 bytes: an accent, a combining mark, CJK and an emoji', () => {
  // é = C3 A9 → 127, 102.
  assert.deepEqual(gpt2.encode('é'), { ids: [127, 102], pieces: ['Ã', '©'] });
  // e + U+0301 (CC 81): the mark is not a letter, so it is its own pre-token; no normalizer joins it.
  assert.deepEqual(ids(gpt2, 'e\u0301'), [68, 136, 223]);
  // 日本 = E6 97 A5, E6 9C AC.
  assert.deepEqual(ids(gpt2, '日本'), [162, 245, 98, 162, 250, 105]);
  // 🙂 = F0 9F 99 82, and a space before it.
  assert.deepEqual(ids(gpt2, ' 🙂'), [220, 172, 253, 247, 224]);
  // A merge across the emoji's bytes shows " 🙂" is one pre-token (space and symbol together).
  const emoji = from(gpt2Style([['Ġ', 'ð']]));
  assert.deepEqual(ids(emoji, ' 🙂'), [256, 253, 247, 224]);
});

test('a normalizer in the file runs first: NFC joins e + U+0301 into é, Lowercase reads "CAT" as "cat"', () => {
  const nfc = gpt2Style(CAT);
  nfc.normalizer = { type: 'NFC' };
  assert.deepEqual(ids(from(nfc), 'e\u0301'), [127, 102]);
  const lower = gpt2Style(CAT);
  lower.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'Lowercase' }] };
  assert.deepEqual(ids(from(lower), 'A CAT'), [64, 259]);
});

test('Lowercase maps each character alone, as Rust does: a final Σ is σ, in the text and in a normalized added token', () => {
  const lower = gpt2Style(CAT);
  lower.normalizer = { type: 'Lowercase' };
  (lower.added_tokens as Record<string, unknown>[]).push({ id: 300, content: 'ΟΣ', normalized: true, special: false });
  const tok = from(lower);
  // "οσ" (σ is U+03C3, bytes CF 83) is the added token, matched in the lower-cased text; "ος" would be bytes.
  assert.deepEqual(ids(tok, 'ΟΣ'), [300]);
  assert.deepEqual(ids(tok, 'xΟΣ'), [87, 300]);
  assert.deepEqual(ids(tok, 'ΑΣ'), ids(tok, 'ασ'));
  assert.notDeepEqual(ids(tok, 'ΑΣ'), ids(tok, 'ας'));
});

test('an added token in the text is split out before the model: "cat<|endoftext|> cat" is c at, 260, Ġcat', () => {
  assert.deepEqual(gpt2.encode('cat<|endoftext|> cat'), { ids: [66, 258, 260, 259], pieces: ['c', 'at', '<|endoftext|>', 'Ġcat'] });
  assert.deepEqual(ids(gpt2, '<|endoftext|><|endoftext|>'), [260, 260]);
  // A partial marker is ordinary text.
  assert.deepEqual(ids(gpt2, '<|end'), [27, 91, 68, 77, 67]);
});

test('the empty text has no ids (GPT-2 adds nothing around a text)', () => {
  assert.deepEqual(gpt2.encode(''), { ids: [], pieces: [] });
});

test('Llama 3 style: the file\'s Split regex, not GPT-2\'s, cuts the text, and the post-processor puts <|begin_of_text|> first', () => {
  // Merges: 'S = 256, 3 4 = 257, Ċ Ċ = 258, Ġ c = 259; <|endoftext|> = 260, <|begin_of_text|> = 261.
  const { json, bos } = llama3Style([["'", 'S'], ['3', '4'], ['Ċ', 'Ċ'], ['Ġ', 'c']]);
  const tok = from(json);
  assert.equal(bos, 261);
  assert.equal(tok.vocabSize, 262);
  assert.deepEqual(tok.encode('a'), { ids: [bos, 64], pieces: ['<|begin_of_text|>', 'a'] });
  assert.deepEqual(ids(tok, ''), [bos]);
  // (?i:'s…): "'S" is one pre-token, so 'S merges (GPT-2's regex keeps them apart).
  assert.deepEqual(ids(tok, "IT'S"), [bos, 40, 51, 256]);
  // \p{N}{1,3}: "12345" is "123", "45", so 3 4 never meet (with GPT-2's regex they would).
  assert.deepEqual(ids(tok, '12345'), [bos, 16, 17, 18, 19, 20]);
  assert.deepEqual(ids(from(gpt2Style([["'", 'S'], ['3', '4']])), '12345'), [16, 17, 257, 20]);
  // \s*[\r\n]+: "\n\n" is one pre-token, so Ċ Ċ merges.
  assert.deepEqual(ids(tok, 'a\n\nb'), [bos, 64, 258, 65]);
  // [^\r\n\p{L}\p{N}]?\p{L}+: " cat" keeps its space, as in GPT-2.
  assert.deepEqual(ids(tok, 'a cat'), [bos, 64, 259, 64, 83]);
  // The BOS written in the text is the added token as well.
  assert.deepEqual(ids(tok, '<|begin_of_text|>a'), [bos, bos, 64]);
});

// Llama 2 style: ▁ = 259, c = 260, a = 261, t = 262, ▁c = 263, at = 264, ▁cat = 265, ▁▁ = 266.
const LLAMA2_PIECES = ['▁', 'c', 'a', 't', '▁c', 'at', '▁cat', '▁▁'];
const LLAMA2_MERGES: [string, string][] = [['▁', 'c'], ['a', 't'], ['▁c', 'at'], ['▁', '▁']];

for (const layout of ['normalizer', 'metaspace'] as const) {
  test(`Llama 2 style (${layout}): "▁" stands for spaces, one is put first, bytes outside the vocabulary fall back to <0xNN>, <s> starts the text`, () => {
    const tok = from(llama2Style(LLAMA2_PIECES, LLAMA2_MERGES, layout));
    // "cat" → "▁cat" → ▁c (rank 0) → at (rank 1) → ▁cat (rank 2).
    assert.deepEqual(tok.encode('cat'), { ids: [1, 265], pieces: ['<s>', '▁cat'] });
    // "a  cat" → "▁a▁▁cat": ▁c (rank 0) takes the second ▁ before ▁▁ (rank 3) could, then at, then ▁cat.
    assert.deepEqual(tok.encode('a  cat'), { ids: [1, 259, 261, 259, 265], pieces: ['<s>', '▁', 'a', '▁', '▁cat'] });
    // "\n" and "é" are not pieces: their bytes are (0x0A → 13; C3 A9 → 198, 172).
    assert.deepEqual(tok.encode('\n'), { ids: [1, 259, 13], pieces: ['<s>', '▁', '<0x0A>'] });
    assert.deepEqual(ids(tok, 'é'), [1, 259, 198, 172]);
    assert.equal(tok.vocabSize, 267);
  });
}

test('Llama 2 style: after an added token, the normalizer layout prepends "▁" to the next section, the Metaspace "first" layout does not', () => {
  const normalizer = from(llama2Style(LLAMA2_PIECES, LLAMA2_MERGES, 'normalizer'));
  const metaspace = from(llama2Style(LLAMA2_PIECES, LLAMA2_MERGES, 'metaspace'));
  // Normalizer layout: sections "</s>" and "cat"; Prepend runs on "cat" → "▁cat" = 265.
  assert.deepEqual(ids(normalizer, '</s>cat'), [1, 2, 265]);
  // Metaspace "first": "cat" is not at the start of the text → c at.
  assert.deepEqual(ids(metaspace, '</s>cat'), [1, 2, 260, 264]);
});

test('a BPE without byte fallback gives its unk_token for a character outside the vocabulary, fused when fuse_unk', () => {
  const json = llama2Style(LLAMA2_PIECES, LLAMA2_MERGES);
  (json.model as Record<string, unknown>).byte_fallback = false;
  // "éé" → "▁éé": ▁ then two unknown characters fused into one <unk>.
  assert.deepEqual(ids(from(json), 'éé'), [1, 259, 0]);
});

test('GPT-2\'s vocab.json + merges.txt (no tokenizer.json) tokenize as the same tokenizer.json does, "#version" line skipped', () => {
  const { vocab, merges } = tinyTokenizer({ vocabSize: 261, merges: CAT });
  const vocabJson = JSON.stringify(Object.fromEntries(vocab));
  const mergesTxt = ['#version: 0.2', ...merges.map(([a, b]) => `${a} ${b}`), ''].join('\n');
  const pair = tokenizerFrom({ vocabJson, mergesTxt });
  for (const text of ['a   cat', 'cat<|endoftext|> cat', 'é 日本 🙂\n\tx', "it's 2024"]) assert.deepEqual(pair.encode(text), gpt2.encode(text), text);
  assert.deepEqual(ids(pair, 'cat<|endoftext|>'), [66, 258, 260]);
  assert.equal(pair.vocabSize, 261);
  // Windows line ends read the same.
  assert.deepEqual(ids(tokenizerFrom({ vocabJson, mergesTxt: mergesTxt.replace(/\n/g, '\r\n') }), 'a cat'), [64, 259]);
  // tokenizer.json wins when both are given.
  assert.deepEqual(ids(tokenizerFrom({ tokenizerJson: JSON.stringify(llama3Style(CAT).json), vocabJson, mergesTxt }), 'a'), [261, 64]);
});

test('a GPT-2-sized fixture (50,257 ids, <|endoftext|> = 50,256) builds, and its generated merges join byte pieces into words', () => {
  const started = performance.now();
  const tok = from(tinyTokenizer({ vocabSize: 50257 }).json);
  assert.equal(tok.vocabSize, 50257);
  assert.deepEqual(ids(tok, '<|endoftext|>'), [50256]);
  const { pieces } = tok.encode('the cat sat on the mat');
  assert.equal(pieces.join(''), byteLevel('the cat sat on the mat'));
  assert.ok(pieces.length < 'the cat sat on the mat'.length, `merges applied: ${pieces.join(' ')}`);
  assert.ok(performance.now() - started < 10_000);
});

test('a 1 MB word without spaces and a 200 KB run of spaces tokenize without quadratic cost', () => {
  const started = performance.now();
  // "at" × 500,000: one pre-token of 1,000,000 letters; every a t pair merges (rank 2) → 500,000 × 258.
  const word = ids(gpt2, 'at'.repeat(500_000));
  assert.equal(word.length, 500_000);
  assert.ok(word.every((id) => id === 258));
  // 200,000 spaces then "x": 199,999 spaces (ĠĠ × 99,999 + Ġ) then " x" (Ġ x, no merge).
  const spaces = ids(gpt2, ' '.repeat(200_000) + 'x');
  assert.equal(spaces.length, 99_999 + 1 + 2);
  assert.deepEqual(spaces.slice(-4), [256, 220, 220, 87]);
  const seconds = (performance.now() - started) / 1000;
  assert.ok(seconds < 30, `took ${seconds.toFixed(1)} s`);
});
