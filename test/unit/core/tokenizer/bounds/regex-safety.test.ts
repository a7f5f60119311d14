// The cost test of a tokenizer's regular expressions (src/core/tokenizer/regex-safety.ts): exponential
// and polynomial shapes are refused, `?` counting as a repeat inside a repeated group; real tokenizers'
// patterns pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_STEPS, MIN_WINDOW, regexCost, regexRefusal } from '../../../../../src/core/tokenizer/bounds/regex-safety.js';

test('a repeated group whose body can match in more than one way is refused, with its text', () => {
  for (const [p, group] of [['(a+)+$', '(a+)+'], ['x(?:a|aa)*y', '(?:a|aa)*'], ['((\\s*\\S){2,})', '(\\s*\\S){2,}'], ['(?:(a)+b)+', '(?:(a)+b)+'], ['([ab]+c){1,9}', '([ab]+c){1,9}'], ['(a?a)+b', '(a?a)+'], ['(a{1,2})*c', '(a{1,2})*']]) {
    assert.match(regexRefusal(p) ?? '', new RegExp(`^repeats the group ${group.replace(/[()[\]{}*+?|\\$^.]/g, '\\$&')}, `), p);
  }
});

test('unbounded repeats that give back to one another are refused by their number: a*a*b, a*a*a*b, {0,1000} counting as *', () => {
  assert.match(regexRefusal('a*a*b') ?? '', /^has 2 unbounded repeats in a row/);
  assert.match(regexRefusal('a*a*a*b') ?? '', /^has 3 unbounded repeats in a row/);
  assert.match(regexRefusal('x\\s*\\s*y') ?? '', /^has 2 unbounded repeats/);
  assert.match(regexRefusal('a{0,1000}a{0,1000}b') ?? '', /^has 2 unbounded repeats/);
  assert.match(regexRefusal('(?:a*b)c*d') ?? '', /^has 2 unbounded repeats/);
});

test('back-references, far-looking lookarounds and runs of optional parts are refused', () => {
  assert.match(regexRefusal('(a)\\1') ?? '', /back-reference/);
  assert.match(regexRefusal('(?<x>a)\\k<x>') ?? '', /back-reference/);
  assert.match(regexRefusal('a(?=b*c)') ?? '', /lookaround that can look further/);
  assert.match(regexRefusal(`${'a?'.repeat(15)}${'a'.repeat(15)}`) ?? '', /^tries 32768 ways at each place .*over the 16,384 allowed$/);
  assert.match(regexRefusal('(unclosed') ?? '', /^cannot be read/);
});

test('optional parts before a repeat that gives back are refused by the shape\'s steps, not by how long a text takes', () => {
  // a?×k a*b tries 2^k ways, each running a* to the window's end and back: 2^k × w steps per place.
  for (let k = 0; k <= 14; k++) {
    const p = `${'a?'.repeat(k)}a*b`;
    const steps = 2 ** k * MIN_WINDOW;
    if (steps > MAX_STEPS) assert.match(regexRefusal(p) ?? '', new RegExp(`^tries ${2 ** k} ways at each place .*each giving back along a repeat: ${steps.toLocaleString('en-US')} steps per place`), p);
    else assert.deepEqual(regexCost(p), [0, 2 ** k], p);
  }
  // Bounded repeats in a row multiply their ways; a repeat of a fixed body (nested bounds) does not vary.
  assert.match(regexRefusal('a{0,16}b{0,16}c{0,16}[abc]*d') ?? '', /^tries 4913 ways/);
  assert.deepEqual(regexCost('(?:(?:ab){2}c){3}x+y'), [0, 1]);
  assert.match(regexRefusal('(?:a?b?c?d?){1,4}e') ?? '', /^repeats the group/);
  // Alternatives add their steps: each is tried at a place in turn.
  assert.deepEqual(regexCost('a+b|c?d|e'), [3, 1]);
});

test('real tokenizers\' patterns and harmless shapes pass', () => {
  const gpt2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
  const llama3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const o200k = "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const qwen2 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  // DeepSeek-V3's last Split: its "\s+$" gives back (the end can fail), one repeat like the others.
  const deepseek = "[\\r\\n]|\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓ]+|\\s?[!-/:-~！-／：-～‘-‟　-。]+|\\s+$|[一-龥ࠀ-一가-퟿]+|\\p{N}+";
  for (const p of [gpt2, llama3, o200k, qwen2, deepseek, ' ', '\u2581', '(a+)?', '(ab)+', '[(a+)]+', '\\(a+\\)+', '(a){1}', '(a|b){0,1}', '[a-z&&[^b]]+c', '(?i)abc+', 'a+b']) assert.equal(regexRefusal(p), undefined, p);
});
