// Tokens and their messages: bounded in size, linear in the number of words, and precise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { Vocabulary } from '../../../../../src/core/spec/read/inputs.js';
import { QUOTE_CHARS } from '../../../../../src/core/json/quote.js';

test('unknown tokens: the known words are listed once, clipped, not in every problem', () => {
  // 20 known words of 10,000 characters and 2,000 unknown tokens once made a message of gigabytes.
  const embeddings = Object.fromEntries(Array.from({ length: 20 }, (_, i) => ['w'.repeat(10_000) + i, [1]]));
  const text = JSON.stringify({ embeddings, inputs: [{ tokens: Array.from({ length: 2000 }, () => 'z'.repeat(2_000)) }] });
  const { problems } = readSpec(text);
  const total = problems.reduce((s, p) => s + p.message.length + p.path.length, 0);
  assert.ok(total < 400_000, `messages hold ${total} characters`);
  assert.match(problems[0].message, /\(known: w{40}…, w{40}…/);
  assert.match(problems[0].message, / and 8 more\)/);
  assert.doesNotMatch(problems[1].message, /known:/);
  assert.match(problems[1].message, new RegExp(`unknown token "z{${QUOTE_CHARS}}…"`));
});

test('a token that matches several words by case alone says so, and names them', () => {
  const text = JSON.stringify({ embeddings: { apple: [1], APPLE: [2] }, inputs: [{ tokens: ['Apple'] }] });
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1);
  assert.match(problems[0].message, /token "Apple" matches "apple", "APPLE" in "embeddings" when case is ignored/);
  assert.doesNotMatch(problems[0].message, /no entry/);
});

test('60,000 case variants of one word are indexed in linear time (the list is not copied per word)', () => {
  const vocabulary = new Vocabulary();
  const words = Array.from({ length: 60_000 }, (_, i) => Array.from('abcdefghijklmnop', (c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join(''));
  for (const w of words) vocabulary.add(w, new Float64Array([1]));
  assert.equal(vocabulary.ambiguous('ABCDEFGHIJKLMNOP')?.length, 60_000);
  assert.equal(vocabulary.lookUp(words[123]), vocabulary.table.get(words[123]));
});

test('65,536 case variants met by 131,072 tokens: each message lists four, made once (listing them per token took minutes)', () => {
  const base = 'abcdefghijklmnop';
  const embeddings = Object.fromEntries(Array.from({ length: 1 << 16 }, (_, m) => [Array.from(base, (c, k) => ((m >> k) & 1 ? c.toUpperCase() : c)).join('') + 'q', [1]]));
  const inputs = Array.from({ length: 64 }, (_, i) => ({ name: `i${i}`, tokens: new Array(2048).fill(`${base}Q`) }));
  const started = Date.now();
  const { problems } = readSpec(JSON.stringify({ embeddings, inputs }));
  const took = Date.now() - started;
  assert.match(problems[0].message, /^token "abcdefghijklmnopQ" matches "abcdefghijklmnopq", "Abcdefghijklmnopq", "aBcdefghijklmnopq", "ABcdefghijklmnopq" and 65532 more in "embeddings"/);
  assert.ok(took < 15_000, `${took} ms`);
});

test('an input mask that is not a list talks about masks, not "identity"', () => {
  const text = JSON.stringify({ embeddings: { a: [1] }, inputs: [{ tokens: ['a'], mask: 'causal' }] });
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].path, 'inputs[0].mask');
  assert.doesNotMatch(problems[0].message, /identity/);
  assert.match(problems[0].message, /expected a mask: a list of rows of 1 \(may attend\) and 0 \(hidden\)/);
});

test('a 100,000-character key is quoted clipped in paths and messages', () => {
  const key = 'k'.repeat(100_000);
  const text = JSON.stringify({ embeddings: { a: [1] }, inputs: [{ tokens: ['a'] }], [key]: 1 });
  const { problems } = readSpec(text);
  assert.equal(problems.length, 1);
  assert.ok(problems[0].message.length < 300 && problems[0].path.length < 60, problems[0].message.length + ' ' + problems[0].path);
});
