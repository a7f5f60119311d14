// The cost test of a tokenizer's regular expressions (src/core/tokenizer/regex-safety.ts): exponential
// and polynomial shapes are refused, `?` counting as a repeat inside a repeated group; real tokenizers'
// patterns pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regexRefusal } from '../../../../src/core/tokenizer/regex-safety.js';

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
  assert.match(regexRefusal(`${'a?'.repeat(13)}${'a'.repeat(13)}`) ?? '', /more than 4096 ways/);
  assert.match(regexRefusal('(unclosed') ?? '', /^cannot be read/);
});

test('real tokenizers\' patterns and harmless shapes pass', () => {
  const gpt2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
  const llama3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const o200k = "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  for (const p of [gpt2, llama3, o200k, ' ', '\u2581', '(a+)?', '(ab)+', '[(a+)]+', '\\(a+\\)+', '(a){1}', '(a|b){0,1}', '[a-z&&[^b]]+c', '(?i)abc+', 'a+b']) assert.equal(regexRefusal(p), undefined, p);
});
