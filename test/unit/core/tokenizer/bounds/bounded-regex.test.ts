// A tokenizer.json regex over windows (src/core/tokenizer/bounded-regex.ts, bounded-stages.ts): on
// texts drawn from a seed, with matches longer than any window and anchors and lookaheads at windows'
// ends, the same matches as a whole-text scan, the same Replace as replaceAll and the same Split as
// String.split; windows sized from the pattern's shape; and the work of a pattern made to rescan the
// text stays within windows, or is refused by its key by the shape's count of steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachMatch, MAX_WINDOW, windowFor } from '../../../../../src/core/tokenizer/bounds/bounded-regex.js';
import { boundedReplace, boundedSplit } from '../../../../../src/core/tokenizer/bounds/bounded-stages.js';
import { MAX_STEPS, regexCost, regexRefusal, stepsAt } from '../../../../../src/core/tokenizer/bounds/regex-safety.js';
import { between, seeded } from '../../../../support/random.js';
import { hostileRegex } from '../../../../support/hostile-tokenizers.js';

const REAL = [
  "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
  "(?:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  // DeepSeek-V3's style: "\\s+$" holds at a window's end as at the text's.
  '[\\r\\n]|\\s?\\p{L}+|\\s?[!-/:-~]+|\\s+$|\\p{N}+',
  ' ', '\u2581', '(?<=a)b|x?', 'a*', '(b)|(c)', '[ab]+$|a', '\\S+(?!\\S)|x', 'a+(?=b)|\\s+(?! )|.',
];
const DEEPSEEK = REAL[2];
const PIECES = ['a', 'b', ' ', '\n', 'x', '😀', 'é', '.', "'s", '12', 'c'];

/** A text of runs, some longer than a window, so that matches and anchors meet windows' ends. */
function text(rand: () => number): string {
  const parts: string[] = [];
  const n = between(rand, 0, 120);
  for (let i = 0; i < n; i++) parts.push(PIECES[between(rand, 0, PIECES.length - 1)].repeat(between(rand, 1, rand() < 0.05 ? 5000 : 6)));
  return parts.join('');
}

test('matches, Replace and Split over windows agree with a whole-text scan, for real and drawn patterns', () => {
  const rand = seeded(9_001);
  const patterns = [...REAL];
  while (patterns.length < 24) {
    const p = hostileRegex(rand);
    if (regexRefusal(p) === undefined) patterns.push(p);
  }
  let refused = 0;
  for (let run = 0; run < 4; run++) {
    const s = text(rand) + text(rand);
    for (const source of patterns) {
      const re = new RegExp(source, 'gu');
      const got: [number, string][] = [];
      try {
        eachMatch(s, re, 'k', (m, i) => got.push([i, m[0]]));
      } catch (err) {
        // Exact or refused: a drawn pattern whose whole-text scan is quadratic on this text is refused
        // by the shape's count of steps, never a real tokenizer's.
        assert.ok(!REAL.includes(source), `${source}: ${(err as Error).message}`);
        assert.match((err as Error).message, /^tokenizer\.json: the pattern at "k" keeps matching past its windows on this text of [\d,]+ characters, .* steps by its shape/);
        refused++;
        continue;
      }
      assert.deepEqual(got, [...s.matchAll(re)].map((m) => [m.index, m[0]]), `${source} on ${s.length} characters`);
      assert.equal(boundedReplace(s, re, '<>', Infinity, 'k'), s.replaceAll(re, '<>'), source);
      assert.deepEqual(boundedSplit(s, re, true, 'k'), s.split(re).filter((x) => x), source);
    }
  }
  assert.ok(refused < patterns.length, `${refused} of ${patterns.length * 4} refused: under a quarter`);
});

test('a pattern that rescans the text from every place ("a+b" on a\'s) is refused by its key by the shape\'s steps, never length² work', () => {
  // Whole-text scanning would take 200,000² / 2 steps (minutes); each window reads to its end, so no
  // window can decide, and following the text whole is counted from the shape.
  assert.throws(() => eachMatch('a'.repeat(200_000), /a+b/gu, 'pre_tokenizer.pattern.Regex', () => undefined), /^TokenizerError: tokenizer\.json: the pattern at "pre_tokenizer\.pattern\.Regex" keeps matching past its windows on this text of 200,000 characters/);
  // A text where "a+b" ends does not read past its windows: matches as the whole text has them.
  const s = 'aab '.repeat(50_000);
  let found = 0;
  eachMatch(s, /a+b/gu, 'k', () => { found++; });
  assert.equal(found, 50_000);
});

test('windows are sized from the shape: an attempt on one costs at most MAX_STEPS, so no window runs for seconds', () => {
  assert.equal(windowFor(REAL[0]), MAX_WINDOW);
  assert.equal(windowFor('a+b'), MAX_WINDOW);
  assert.equal(windowFor(`${'a?'.repeat(5)}a*b`), 512);
  const rand = seeded(4_711);
  for (let i = 0; i < 300; i++) {
    const p = hostileRegex(rand);
    const cost = regexCost(p);
    if (cost === undefined) continue;
    assert.ok(stepsAt(cost, windowFor(p)) <= MAX_STEPS, p);
  }
});

test('"\\s+$" in DeepSeek-V3\'s style does not match at a window\'s end: spaces before a word are left as the whole text leaves them', () => {
  const s = `hello${' '.repeat(5000)}world`;
  const got: string[] = [];
  eachMatch(s, new RegExp(DEEPSEEK, 'gu'), 'k', (m, i) => got.push(`${i}:${m[0].length}`));
  assert.deepEqual(got, ['0:5', '5004:6']);
  assert.deepEqual(got, [...s.matchAll(new RegExp(DEEPSEEK, 'gu'))].map((m) => `${m.index}:${m[0].length}`));
});

test('a match longer than every window is whole, as in the whole text', () => {
  for (const n of [4097, 10_000, 70_000]) {
    const got: [number, number][] = [];
    eachMatch(`${'abc'.repeat(n)} x`, /\p{L}+| x/gu, 'k', (m, i) => got.push([i, m[0].length]));
    assert.deepEqual(got, [[0, 3 * n], [3 * n, 2]], `${n}`);
  }
});

test('retrying matches that reach past their windows is refused by its key once the shape\'s steps run out, the same on every machine', () => {
  // "\s+$" runs to every window's end from each space, and fails on the whole text: n² / 2 steps.
  const s = `hello${' '.repeat(200_000)}world`;
  assert.throws(() => eachMatch(s, new RegExp(DEEPSEEK, 'gu'), 'pre_tokenizer.pretokenizers[2].pattern.Regex', () => undefined), /^TokenizerError: tokenizer\.json: the pattern at "pre_tokenizer\.pretokenizers\[2\]\.pattern\.Regex" keeps matching past its windows on this text of 200,010 characters, .* steps by its shape/);
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
