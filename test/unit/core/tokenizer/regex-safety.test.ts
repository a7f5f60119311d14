// The shape test of a tokenizer's regular expressions (src/core/tokenizer/regex-safety.ts): the
// exponential shapes are found, real tokenizers' patterns pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exponentialGroup } from '../../../../src/core/tokenizer/regex-safety.js';

test('a repeated group whose body repeats or alternates is found, with its text', () => {
  assert.equal(exponentialGroup('(a+)+$'), '(a+)+');
  assert.equal(exponentialGroup('x(?:a|aa)*y'), '(?:a|aa)*');
  assert.equal(exponentialGroup('((\\s*\\S){2,})'), '(\\s*\\S){2,}');
  assert.equal(exponentialGroup('(?:(a)+b)+'), '(?:(a)+b)+');
  assert.equal(exponentialGroup('([ab]+c){1,9}'), '([ab]+c){1,9}');
});

test('real tokenizers\' patterns and harmless groups pass', () => {
  const gpt2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
  const llama3 = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
  const o200k = "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}";
  for (const p of [gpt2, llama3, o200k, '(a+)?', '(ab)+', '[(a+)]+', '\\(a+\\)+', '(a){1}', '(a|b){0,1}']) assert.equal(exponentialGroup(p), undefined, p);
});
