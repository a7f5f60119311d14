// A tokenizer.json regex over windows (src/core/tokenizer/bounded-regex.ts, bounded-stages.ts): on
// texts drawn from a seed whose matches are shorter than half a window, the same matches as a whole-text
// scan, the same Replace as replaceAll and the same Split as String.split; and the work of a pattern
// made to rescan the text is refused by its key instead of growing as the text's length squared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachMatch, WINDOW } from '../../../../src/core/tokenizer/bounded-regex.js';
import { boundedReplace, boundedSplit } from '../../../../src/core/tokenizer/bounded-stages.js';
import { regexRefusal } from '../../../../src/core/tokenizer/regex-safety.js';
import { between, seeded } from '../../../support/random.js';
import { hostileRegex } from '../../../support/hostile-tokenizers.js';

const REAL = [
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
  "(?:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  ' ', '\u2581', '(?<=a)b|x?', 'a*', '(b)|(c)',
];
const PIECES = ['a', 'b', ' ', '\n', 'x', '😀', 'é', '.', "'s", '12', 'c'];

/** A text of runs, some long: a pattern whose whole-text matches reach half a window is skipped (they may be cut, by design). */
function text(rand: () => number): string {
  const parts: string[] = [];
  const n = between(rand, 0, 120);
  for (let i = 0; i < n; i++) parts.push(PIECES[between(rand, 0, PIECES.length - 1)].repeat(between(rand, 1, rand() < 0.05 ? 1500 : 6)));
  return parts.join('');
}

test('matches, Replace and Split over windows agree with a whole-text scan, for real and drawn patterns', () => {
  const rand = seeded(9_001);
  const patterns = [...REAL];
  while (patterns.length < 24) {
    const p = hostileRegex(rand);
    if (regexRefusal(p) === undefined) patterns.push(p);
  }
  for (let run = 0; run < 12; run++) {
    const s = text(rand) + text(rand);
    for (const source of patterns) {
      const re = new RegExp(source, 'gu');
      if ([...s.matchAll(re)].some((m) => m[0].length >= WINDOW / 2 - 64)) continue;
      const got: [number, string][] = [];
      eachMatch(s, re, 'k', (m, i) => got.push([i, m[0]]));
      assert.deepEqual(got, [...s.matchAll(re)].map((m) => [m.index, m[0]]), `${source} on ${s.length} characters`);
      assert.equal(boundedReplace(s, re, '<>', Infinity, 'k'), s.replaceAll(re, '<>'), source);
      assert.deepEqual(boundedSplit(s, re, true, 'k'), s.split(re).filter((x) => x), source);
    }
  }
});

test('a pattern that rescans the text from every place ("a+b" on a\'s) stays within windows: done or refused by its key, never length² work', () => {
  // Whole-text scanning would take 200,000² / 2 steps (minutes); windows take 200,000 × 4,096 at most.
  const s = 'a'.repeat(200_000);
  const t0 = performance.now();
  let verdict = 'done';
  try {
    eachMatch(s, /a+b/gu, 'pre_tokenizer.pattern.Regex', () => undefined);
  } catch (err) {
    verdict = (err as Error).message;
  }
  assert.ok(verdict === 'done' || /^tokenizer\.json: the pattern at "pre_tokenizer\.pattern\.Regex" took over 5 s/.test(verdict), verdict);
  assert.ok(performance.now() - t0 < 15_000, `${Math.round(performance.now() - t0)} ms`);
});

test('a Replace that would grow the text past its budget stops there, naming its key', () => {
  assert.throws(() => boundedReplace('abc'.repeat(1000), /(?:)/gu, 'x'.repeat(50), 10_000, 'normalizer.normalizers[2]'), /^TokenizerError: tokenizer\.json: the Replace at "normalizer\.normalizers\[2\]" makes a text of 3000 characters longer than 10000/);
  assert.equal(boundedReplace('a b', / /gu, '\u2581', 3, 'k'), 'a\u2581b');
});

test('Split\'s merged behaviours as Hugging Face documents them on "the-final--countdown"', () => {
  const dash = /-/gu;
  assert.deepEqual(boundedSplit('the-final--countdown', dash, 'Isolated', 'k'), ['the', '-', 'final', '-', '-', 'countdown']);
  assert.deepEqual(boundedSplit('the-final--countdown', dash, 'Removed', 'k'), ['the', 'final', 'countdown']);
  assert.deepEqual(boundedSplit('the-final--countdown', dash, 'MergedWithPrevious', 'k'), ['the-', 'final-', '-', 'countdown']);
  assert.deepEqual(boundedSplit('the-final--countdown', dash, 'MergedWithNext', 'k'), ['the', '-final', '-', '-countdown']);
  assert.deepEqual(boundedSplit('-a-', dash, 'MergedWithPrevious', 'k'), ['-', 'a-']);
  assert.deepEqual(boundedSplit('-a-', dash, 'MergedWithNext', 'k'), ['-a', '-']);
});
