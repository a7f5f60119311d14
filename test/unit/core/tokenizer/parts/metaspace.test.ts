// The Metaspace pre-tokenizer (src/core/tokenizer/metaspace.ts): its split on the Rust library's own
// example, the prepend schemes, and in a whole file, where splitting changes which merges can apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom } from '../../../../../src/core/tokenizer/index.js';
import { metaspace } from '../../../../../src/core/tokenizer/parts/metaspace.js';
import { llama2Style } from '../../../../support/tokenizer-fixtures.js';

test('Metaspace: each "▁" starts a piece, and the prepend schemes', () => {
  const split = metaspace({ prepend_scheme: 'always', split: true });
  assert.deepEqual(split('Hey   friend!', false), ['\u2581Hey', '\u2581', '\u2581', '\u2581friend!']);
  assert.deepEqual(split('Hey friend  ', true), ['\u2581Hey', '\u2581friend', '\u2581', '\u2581']);
  assert.deepEqual(metaspace({ prepend_scheme: 'first' })('a b', false), ['a', '\u2581b']);
  assert.deepEqual(metaspace({ prepend_scheme: 'first' })('a b', true), ['\u2581a', '\u2581b']);
  assert.deepEqual(metaspace({ prepend_scheme: 'never', split: false })(' a b', true), ['\u2581a\u2581b']);
  assert.deepEqual(metaspace({ add_prefix_space: false })('a', true), ['a']);
  assert.deepEqual(metaspace({})('', true), ['\u2581']);
});

test('Metaspace in a whole file: split keeps merges from crossing "▁"; "first" puts "▁" only before the text\'s start', () => {
  const pieces = ['\u2581', 'a', 'b', 'b\u2581', '\u2581a'];
  const json = llama2Style(pieces, [['b', '\u2581'], ['\u2581', 'a']], 'metaspace');
  const pre = json.pre_tokenizer as Record<string, unknown>;
  const ids = () => tokenizerFrom({ tokenizerJson: JSON.stringify(json) }).encode('ab ab').ids;
  // <s> 1, then ▁ 259, a 260, b 261, b▁ 262, ▁a 263.
  pre.split = false;
  assert.deepEqual(ids(), [1, 263, 262, 260, 261]);
  pre.split = true;
  assert.deepEqual(ids(), [1, 263, 261, 263, 261]);
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  assert.deepEqual(tok.encode('<s>ab').ids, [1, 1, 260, 261]);
  assert.deepEqual(tok.encode('ab<s>ab').ids, [1, 263, 261, 1, 260, 261]);
});
