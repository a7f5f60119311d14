// BERT's normalizer and pre-tokenizer, and lower-casing (src/core/tokenizer/bert-text.ts), against a
// reference written here character by character from the Rust library's definition, over random texts
// of letters, accents, CJK inside and beyond U+FFFF, controls and whitespace of every kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bertNormalize, bertPreTokenize, lowercaseByChar, whitespaceSplit } from '../../../../../src/core/tokenizer/parts/bert-text.js';
import { between, seeded } from '../../../../support/random.js';

const CJK_RANGES: [number, number][] = [[0x4e00, 0x9fff], [0x3400, 0x4dbf], [0x20000, 0x2a6df], [0x2a700, 0x2b73f], [0x2b740, 0x2b81f], [0x2b920, 0x2ceaf], [0xf900, 0xfaff], [0x2f800, 0x2fa1f]];
const isChinese = (cp: number) => CJK_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
const isControl = (c: string) => !'\t\n\r'.includes(c) && /^[\p{Cc}\p{Cf}\p{Co}]$/u.test(c);
const isWhitespace = (c: string) => '\t\n\r'.includes(c) || /^\p{White_Space}$/u.test(c);

/** The definition, one character at a time. */
function reference(text: string, clean: boolean, chinese: boolean, strip: boolean, lower: boolean): string {
  let out = '';
  for (const c of text) {
    if (clean && (c === '\0' || c === '\uFFFD' || isControl(c))) continue;
    const d = clean && isWhitespace(c) ? ' ' : c;
    out += chinese && isChinese(d.codePointAt(0) as number) ? ` ${d} ` : d;
  }
  if (strip) out = [...out.normalize('NFD')].filter((c) => !/^\p{Mn}$/u.test(c)).join('');
  if (lower) out = [...out].map((c) => (c === 'Σ' ? 'σ' : c.toLowerCase())).join('');
  return out;
}

const PIECES = ['a', 'Z', 'É', 'e\u0301', 'Σ', 'ΟΣ', 'İ', 'ß', 'ǅ', '日', '𠀀', '\u{2B820}', '\u{2B920}', '\u{30000}', '한', 'カ', '\0', '\uFFFD', '\u200b', '\ufeff', '\u0007', '\u0085',
  '\ue000', ' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u3000', '\u000b', '.', ',', '!', '¿', '«', '—', '$', '+', '9', '🙂', '👨‍👩‍👧'];

test('the BertNormalizer is its definition on random texts, under every switch', () => {
  for (let seed = 1; seed <= 400; seed++) {
    const rand = seeded(seed);
    const text = Array.from({ length: between(rand, 0, 16) }, () => PIECES[between(rand, 0, PIECES.length - 1)]).join('');
    const [clean, chinese, lower] = [rand() < 0.7, rand() < 0.7, rand() < 0.7];
    const strip = rand() < 0.3 ? null : rand() < 0.5;
    const got = bertNormalize({ clean_text: clean, handle_chinese_chars: chinese, strip_accents: strip, lowercase: lower }, text);
    assert.equal(got, reference(text, clean, chinese, strip ?? lower, lower), `seed ${seed}: ${JSON.stringify(text)}`);
  }
});

test('where the library goes wrong: a final Σ, ideographs beyond U+FFFF, and U+2B820…U+2B91F', () => {
  const bert = (t: string) => bertNormalize({}, t);
  assert.equal(bert('ΟΔΟΣ'), 'οδοσ');
  assert.equal(lowercaseByChar('ΟΔΟΣ ΣΑ'), 'οδοσ σα');
  assert.equal(bert('a𠀀b'), 'a 𠀀 b');
  assert.equal(bert('\u{2B820}'), '\u{2B820}');
  assert.equal(bert('\u{2B920}'), ' \u{2B920} ');
  assert.equal(bert('İstanbul Café'), 'istanbul cafe');
  assert.equal(bertNormalize({ lowercase: true, strip_accents: false }, 'İ'), 'i\u0307');
});

test('the BertPreTokenizer splits at whitespace and isolates each punctuation character', () => {
  assert.deepEqual(bertPreTokenize("  Hello, world!! it's 3.14 «q» ¿x?\u3000y"), ['Hello', ',', 'world', '!', '!', 'it', "'", 's', '3', '.', '14', '«', 'q', '»', '¿', 'x', '?', 'y']);
  assert.deepEqual(bertPreTokenize('a$b+c'), ['a', '$', 'b', '+', 'c']);
  assert.deepEqual(bertPreTokenize(' \t\n '), []);
  // U+FEFF is no whitespace for Rust (JavaScript's \s says it is).
  assert.deepEqual(bertPreTokenize('a\ufeffb'), ['a\ufeffb']);
});

test('WhitespaceSplit drops runs of Unicode whitespace, and only those', () => {
  assert.deepEqual(whitespaceSplit(' a\t\tb\u3000c\u00a0d\ufeffe \n'), ['a', 'b', 'c', 'd\ufeffe']);
  assert.deepEqual(whitespaceSplit('   '), []);
});
