// Hostile WordPiece and Unigram files, drawn from a seeded generator: every key the models read is
// given wrong types, empty pieces, non-finite scores (1e999 parses as Infinity), ids out of range,
// huge caps and long pieces (an Infinity here is written null by JSON.stringify; 1e999 in a file's text is
// tested on its own below). Each file is either refused in one line that names the file and the key,
// or built and then bounded: a long hostile text gives ids or such a line, within seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom, TokenizerError } from '../../../../src/core/tokenizer/index.js';
import { between, seeded } from '../../../support/random.js';

type Json = Record<string, unknown>;

const wordPiece = (): Json => ({
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: { type: 'BertProcessing', cls: ['[CLS]', 1], sep: ['[SEP]', 2] },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: { '[UNK]': 0, '[CLS]': 1, '[SEP]': 2, a: 3, '##a': 4, b: 5, '##b': 6 } },
});
const unigram = (): Json => ({
  pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
  post_processor: { type: 'TemplateProcessing', single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }], special_tokens: { '</s>': { id: '</s>', ids: [1], tokens: ['</s>'] } } },
  decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
  model: { type: 'Unigram', unk_id: 0, byte_fallback: false, vocab: [['<unk>', 0], ['</s>', 0], ['\u2581', -2], ['a', -3], ['b', -3], ['\u2581a', -2.5]] },
});

const BAD_VALUES: unknown[] = [null, -1, 0, 1.5, 1e9, Infinity, -Infinity, '7', 'NaN', [], {}, true, 'x'.repeat(2000)];

/** One hostile change to a file, by seed: [what it changes, the change]. */
function mutation(rand: () => number): [string, (json: Json) => void] {
  const bad = () => BAD_VALUES[between(rand, 0, BAD_VALUES.length - 1)];
  const model = (json: Json) => json.model as Json;
  const options: [string, (json: Json) => void][] = [
    ['max_input_chars_per_word', (j) => { model(j).max_input_chars_per_word = bad(); }],
    ['unk_token', (j) => { model(j).unk_token = bad(); }],
    ['continuing_subword_prefix', (j) => { model(j).continuing_subword_prefix = bad(); }],
    ['an empty piece', (j) => { const v = model(j).vocab; if (Array.isArray(v)) v.push(['', -1]); else (v as Json)[''] = 9; }],
    ['a piece\'s id or score', (j) => { const v = model(j).vocab; if (Array.isArray(v)) v[between(rand, 0, v.length - 1)] = [String(v.length), bad()]; else (v as Json).zz = bad(); }],
    ['an entry\'s shape', (j) => { const v = model(j).vocab; if (Array.isArray(v)) v.push(bad()); else model(j).vocab = bad(); }],
    ['unk_id', (j) => { model(j).unk_id = bad(); }],
    ['byte_fallback', (j) => { model(j).byte_fallback = bad(); }],
    ['a long nested piece', (j) => { const v = model(j).vocab; for (let n = 1; n <= 1000; n += between(rand, 1, 3)) { if (Array.isArray(v)) v.push(['a'.repeat(n + 1), -n]); else (v as Json)[`##${'a'.repeat(n)}`] = 10 + n; } }],
    ['the post-processor\'s ids', (j) => { const p = j.post_processor as Json; if (p.type === 'BertProcessing') p.cls = ['[CLS]', bad()]; else ((p.special_tokens as Json)['</s>'] as Json).ids = [bad()]; }],
  ];
  return options[between(rand, 0, options.length - 1)];
}

const ONE_LINE = /^tokenizer\.json: [^\n]+$/;

test('hostile WordPiece and Unigram files are refused in one line naming the key, or run within bounds', () => {
  const hostileText = `${'a'.repeat(60_000)} ${'ab'.repeat(20_000)}`;
  for (let seed = 1; seed <= 120; seed++) {
    const rand = seeded(seed);
    const json = seed % 2 ? wordPiece() : unigram();
    const [what, change] = mutation(rand);
    change(json);
    const label = `seed ${seed} (${(json.model as Json).type}, ${what})`;
    let tok;
    try {
      tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
    } catch (err) {
      assert.ok(err instanceof TokenizerError, `${label}: ${String(err)}`);
      assert.match(err.message, ONE_LINE, label);
      assert.match(err.message, /model\.|vocabulary|post_processor|post-processor|unk/, label);
      continue;
    }
    const t0 = performance.now();
    try {
      const { ids } = tok.encode(hostileText);
      assert.ok(ids.every((id) => Number.isInteger(id) && id >= 0), label);
    } catch (err) {
      assert.ok(err instanceof TokenizerError, `${label}: ${String(err)}`);
      assert.match(err.message, ONE_LINE, label);
    }
    assert.ok(performance.now() - t0 < 5000, `${label}: ${Math.round(performance.now() - t0)} ms`);
  }
});

test('the refusals name the key: examples of each', () => {
  const refused = (json: Json, message: RegExp) => assert.throws(() => tokenizerFrom({ tokenizerJson: JSON.stringify(json) }), (err: unknown) => err instanceof TokenizerError && message.test(err.message));
  const w = wordPiece();
  (w.model as Json).max_input_chars_per_word = 0;
  refused(w, /^tokenizer\.json: "model\.max_input_chars_per_word" is 0, not a whole number ≥ 1$/);
  const u = unigram();
  ((u.model as Json).vocab as unknown[][])[3][1] = 'NaN';
  refused(u, /^tokenizer\.json: "model\.vocab\[3\]\[1\]" \(the score of "a"\) is "NaN", not a finite number$/);
  const inf = JSON.stringify(unigram()).replace('["a",-3]', '["a",-1e999]');
  assert.throws(() => tokenizerFrom({ tokenizerJson: inf }), /"model\.vocab\[3\]\[1\]" \(the score of "a"\) is -Infinity, not a finite number/);
  const e = unigram();
  ((e.model as Json).vocab as unknown[][]).push(['', 0]);
  refused(e, /^tokenizer\.json: "model\.vocab\[6\]\[0\]" is an empty piece/);
  const big = unigram();
  (big.model as Json).vocab = Array.from({ length: (1 << 19) + 1 }, (_, i) => [`p${i}`, -1]);
  refused(big, /^tokenizer\.json: the vocabulary \(model\.vocab\) holds 524,289 pieces, over the 524,288 supported/);
  const b = wordPiece();
  (b.post_processor as Json).sep = ['[SEP]', 5];
  refused(b, /^tokenizer\.json: "post_processor\.sep" gives "\[SEP\]" the id 5, where the vocabulary gives it 2$/);
  const t = unigram();
  (((t.post_processor as Json).special_tokens as Json)['</s>'] as Json).ids = [1, 1];
  refused(t, /^tokenizer\.json: "post_processor\.special_tokens" gives "<\/s>" the ids \[1,1\], where the vocabulary gives it \[1\]/);
});

test('a good BERT-style and T5-style file: [CLS] a ##a [SEP], and ▁a a </s>', () => {
  const bert = tokenizerFrom({ tokenizerJson: JSON.stringify(wordPiece()) });
  assert.deepEqual(bert.encode('AA b').pieces, ['[CLS]', 'a', '##a', 'b', '[SEP]']);
  const t5 = tokenizerFrom({ tokenizerJson: JSON.stringify(unigram()) });
  assert.deepEqual(t5.encode('aa  b').pieces, ['\u2581a', 'a', '\u2581', '\u2581', 'b', '</s>']);
  assert.deepEqual(t5.encode('aa').ids, [5, 3, 1]);
});
