// A BERT folder with vocab.txt and no tokenizer.json (src/core/tokenizer/bert-files.ts): the tokenizer
// built from it is the one Hugging Face's converter writes, so bert-base-uncased's vocab.txt gives the
// same ids as its tokenizer.json on every kind of text; tokenizer_config.json's switches are read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom, TokenizerError } from '../../../../src/core/tokenizer/index.js';
import { bertUncasedJson, REAL_TEXTS } from '../../../support/real-tokenizers.js';

const json = bertUncasedJson();
const vocab = (JSON.parse(json) as { model: { vocab: Record<string, number> } }).model.vocab;
const vocabTxt = `${Object.entries(vocab).sort((a, b) => a[1] - b[1]).map(([piece]) => piece).join('\n')}\n`;

test('bert-base-uncased\'s vocab.txt tokenizes as its tokenizer.json does', () => {
  const fromJson = tokenizerFrom({ tokenizerJson: json });
  const fromTxt = tokenizerFrom({ vocabTxt, tokenizerConfigJson: '{"do_lower_case": true}' });
  for (const text of REAL_TEXTS) assert.deepEqual(fromTxt.encode(text).ids, fromJson.encode(text).ids, JSON.stringify(text));
  assert.equal(fromTxt.vocabSize, 30522);
  assert.equal(fromTxt.decodeOne(vocab['##ing']), 'ing');
});

test('do_lower_case false keeps case and accents; a vocab.txt without [CLS] is refused by name', () => {
  const cased = tokenizerFrom({ vocabTxt: '[PAD]\n[UNK]\n[CLS]\n[SEP]\nHello\nhello\n##é\nH\n##ello\n', tokenizerConfigJson: '{"do_lower_case": false}' });
  assert.deepEqual(cased.encode('Hello Helloé').pieces, ['[CLS]', 'Hello', 'Hello', '##é', '[SEP]']);
  const lower = tokenizerFrom({ vocabTxt: '[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n##e\n' });
  assert.deepEqual(lower.encode('HELLOÉ').pieces, ['[CLS]', 'hello', '##e', '[SEP]']);
  assert.throws(() => tokenizerFrom({ vocabTxt: '[UNK]\n[SEP]\na\n' }), (err: unknown) => err instanceof TokenizerError && /^vocab\.txt: has no line "\[CLS\]" \(the cls token\)$/.test(err.message));
  assert.throws(() => tokenizerFrom({ vocabTxt: 'a\n', tokenizerConfigJson: '[' }), /^TokenizerError: tokenizer_config\.json: is not JSON/);
});
