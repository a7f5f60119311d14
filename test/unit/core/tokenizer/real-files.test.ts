// Real tokenizer.json files (test/support/real-tokenizers.ts) against kitoken, a tokenizer that shares no
// code with ours or @huggingface/tokenizers: bert-base-uncased (WordPiece, BERT's normalizer and
// pre-tokenizer), Llama 2 (SentencePiece-style BPE), Llama 3 and 3.1, Qwen3 (byte-level BPE), over 26
// texts of every kind. The post-processor's additions ([CLS] … [SEP], <s>) are ours to check, kitoken
// leaves them out. Gemma 3 (a 33 MB file) is read once, against @lenml/tokenizers: kitoken does not split
// out Gemma's non-special added tokens ("\t\t", "\n\n\n"), which the Rust library does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import { ROOT } from '../../../support/paths.js';
import { bertUncasedJson, kitokenFrom, lenmlTokenizerJson, REAL_TEXTS } from '../../../support/real-tokenizers.js';

const require = createRequire(path.join(ROOT, 'package.json'));

/** Our ids with the post-processor's first and last additions cut off, as `added` (the ids of "") lists them. */
function modelIds(ids: number[], added: number[]): number[] {
  let from = 0, to = ids.length;
  if (added.length > 0 && ids[0] === added[0]) from = 1;
  if (added.length > 1 && ids[to - 1] === added[added.length - 1]) to -= 1;
  return ids.slice(from, to);
}

function sameAsKitoken(name: string, json: string): void {
  const ours = tokenizerFrom({ tokenizerJson: json });
  const theirs = kitokenFrom(json);
  const added = ours.encode('').ids;
  for (const text of REAL_TEXTS) assert.deepEqual(modelIds(ours.encode(text).ids, added), theirs(text), `${name}: ${JSON.stringify(text)}`);
}

test('bert-base-uncased: ids as kitoken gives them, with [CLS] and [SEP] around, and pieces as BERT writes them', () => {
  const json = bertUncasedJson();
  sameAsKitoken('bert', json);
  const bert = tokenizerFrom({ tokenizerJson: json });
  const e = bert.encode('Hello, unaffable Café! 日本');
  assert.deepEqual(e.pieces, ['[CLS]', 'hello', ',', 'una', '##ffa', '##ble', 'cafe', '!', '日', '本', '[SEP]']);
  assert.deepEqual(e.ids.slice(0, 2), [101, 7592]);
  assert.equal(e.ids[e.ids.length - 1], 102);
  // Each piece labelled as it reads after another: "##ffa" continues the word, "hello" starts one.
  assert.deepEqual(e.ids.map((id) => bert.decodeOne(id)), ['[CLS]', ' hello', ',', ' una', 'ffa', 'ble', ' cafe', '!', ' 日', ' 本', '[SEP]']);
  assert.equal(bert.vocabSize, 30522);
});

test('BERT\'s rules where the library differs: a final Σ is σ, Chinese characters past U+FFFF are split, 101 characters make [UNK]', () => {
  const bert = tokenizerFrom({ tokenizerJson: bertUncasedJson() });
  const pieces = (text: string) => bert.encode(text).pieces.slice(1, -1);
  assert.deepEqual(pieces('ΟΔΟΣ'), ['ο', '##δ', '##ο', '##σ']);
  assert.deepEqual(pieces('𠀀𠀁'), ['[UNK]', '[UNK]']);
  assert.deepEqual(pieces(`${'a'.repeat(101)} b`), ['[UNK]', 'b']);
  assert.deepEqual(pieces('a\u0000b\u200bc\ufeffd\u00a0e'), ['abc', '##d', 'e']);
});

for (const name of ['llama2', 'llama3', 'llama3_1', 'qwen3'] as const) {
  test(`${name}: ids as kitoken gives them on every kind of text`, () => sameAsKitoken(name, lenmlTokenizerJson(name)));
}

test('a BOS added by the post-processor: Llama 2 starts with <s> (1), Llama 3.1 with <|begin_of_text|> (128000)', () => {
  assert.deepEqual(tokenizerFrom({ tokenizerJson: lenmlTokenizerJson('llama2') }).encode('Hi').ids[0], 1);
  assert.deepEqual(tokenizerFrom({ tokenizerJson: lenmlTokenizerJson('llama3_1') }).encode('Hi').ids[0], 128000);
});

test('gemma3 (33 MB, read once): ids as @lenml/tokenizers gives them, <bos> first', () => {
  const json = lenmlTokenizerJson('gemma3');
  const ours = tokenizerFrom({ tokenizerJson: json });
  const { TokenizerLoader } = require('@lenml/tokenizers') as { TokenizerLoader: { fromPreTrained(o: object): { encode(t: string): number[] } } };
  const theirs = TokenizerLoader.fromPreTrained({ tokenizerJSON: JSON.parse(json), tokenizerConfig: { clean_up_tokenization_spaces: false } });
  for (const text of REAL_TEXTS) assert.deepEqual(ours.encode(text).ids, Array.from(theirs.encode(text)), `gemma3: ${JSON.stringify(text)}`);
  assert.deepEqual(ours.encode('x\t\ty').pieces, ['<bos>', 'x', '\t\t', 'y']);
});
