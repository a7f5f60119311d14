// What a tokenizer file must be (src/core/tokenizer/check-json.ts, reached through tokenizerFrom): each
// bad file gives a TokenizerError whose message names the file and says what is wrong, and a variant the
// library would tokenize differently from Hugging Face's Rust tokenizer is refused rather than run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom, TokenizerError, type TokenizerFiles } from '../../../../src/core/tokenizer/index.js';
import { tinyTokenizer } from '../../../support/tiny-tokenizer.js';
import { gpt2Style, llama2Style, llama3Style } from '../../../support/tokenizer-fixtures.js';

type Json = Record<string, unknown>;

function refused(files: TokenizerFiles, message: RegExp): void {
  assert.throws(() => tokenizerFrom(files), (err: unknown) => {
    assert.ok(err instanceof TokenizerError, `a TokenizerError, not ${String(err)}`);
    assert.match(err.message, message);
    return true;
  });
}
const refusedJson = (json: unknown, message: RegExp) => refused({ tokenizerJson: JSON.stringify(json) }, message);
const edited = (edit: (json: Json, model: Json) => void): Json => {
  const json = gpt2Style([['a', 't']]);
  edit(json, json.model as Json);
  return json;
};

test('no tokenizer at all, or half of GPT-2\'s pair, names the missing file', () => {
  refused({}, /^tokenizer\.json: is missing/);
  refused({ vocabJson: '{}' }, /^merges\.txt: is missing/);
  refused({ mergesTxt: '' }, /^vocab\.json: is missing/);
  refused({ tokenizerConfigJson: '{}' }, /^tokenizer\.json: is missing/);
});

test('a file that is not JSON, or not an object, says so', () => {
  refused({ tokenizerJson: '{"model": ' }, /^tokenizer\.json: is not JSON \(/);
  refused({ tokenizerJson: '' }, /^tokenizer\.json: is not JSON/);
  refused({ tokenizerJson: '[1, 2]' }, /^tokenizer\.json: is not a JSON object/);
  refused({ tokenizerJson: '{}' }, /^tokenizer\.json: has no "model" object/);
  refused({ vocabJson: 'nope', mergesTxt: '' }, /^vocab\.json: is not JSON/);
  refused({ vocabJson: '[]', mergesTxt: '' }, /^vocab\.json: is not a JSON object/);
  // A nesting deep enough to trouble a recursive parser is still a sentence, not a crash.
  assert.throws(() => tokenizerFrom({ tokenizerJson: '['.repeat(200_000) + ']'.repeat(200_000) }), TokenizerError);
});

test('a model other than BPE, WordPiece and Unigram is unsupported, by name', () => {
  for (const type of ['WordLevel', 'Magic']) {
    refusedJson(edited((_, model) => { model.type = type; }), new RegExp(`^tokenizer\\.json: the model type "${type}" is not supported \\(only BPE, WordPiece and Unigram\\)`));
  }
});

test('the vocabulary must map pieces to whole numbers ≥ 0', () => {
  refusedJson(edited((_, model) => { model.vocab = [1, 2]; }), /^tokenizer\.json: has no vocabulary object/);
  refusedJson(edited((_, model) => { (model.vocab as Json).x = -1; }), /^tokenizer\.json: the vocabulary gives "x" the id -1/);
  refusedJson(edited((_, model) => { (model.vocab as Json).x = '7'; }), /the vocabulary gives "x" the id "7", not a whole number/);
  refused({ vocabJson: '{"a": 1.5}', mergesTxt: '' }, /^vocab\.json: the vocabulary gives "a" the id 1\.5/);
});

test('a merge must be two pieces of the vocabulary whose join is one too, in either format', () => {
  refusedJson(edited((_, model) => { model.merges = ['a zz']; }), /^tokenizer\.json: model\.merges\[0\] \("a zz"\) names "zz", which is not in the vocabulary/);
  refusedJson(edited((_, model) => { model.merges = [['a', 't'], ['t', 'a']]; }), /^tokenizer\.json: model\.merges\[1\] \(\["t","a"\]\) names "ta", which is not in the vocabulary/);
  refusedJson(edited((_, model) => { model.merges = ['a t x']; }), /model\.merges\[0\] \("a t x"\) is not two pieces/);
  refusedJson(edited((_, model) => { model.merges = [['a']]; }), /model\.merges\[0\] \(\["a"\]\) is not two pieces/);
  refusedJson(edited((_, model) => { model.merges = [7]; }), /model\.merges\[0\] is neither "a b" nor \["a", "b"\]/);
  refusedJson(edited((_, model) => { model.merges = 'a t'; }), /^tokenizer\.json: the merges are not a list/);
  // merges.txt names the line (the #version line is line 1).
  const vocabJson = JSON.stringify(Object.fromEntries(tinyTokenizer({ vocabSize: 258, merges: [['a', 't']] }).vocab));
  refused({ vocabJson, mergesTxt: '#version: 0.2\na t\nq zz\n' }, /^merges\.txt: line 3 \("q zz"\) names "zz", which is not in the vocabulary/);
  refused({ vocabJson, mergesTxt: '#version: 0.2\nat\n' }, /^merges\.txt: line 2 \("at"\) is not two pieces/);
});

test('BPE options the library would not honour are refused: a subword prefix, an end-of-word suffix, dropout, an unk_token outside the vocabulary', () => {
  refusedJson(edited((_, model) => { model.continuing_subword_prefix = '##'; }), /continuing_subword_prefix is not supported/);
  refusedJson(edited((_, model) => { model.end_of_word_suffix = '</w>'; }), /end_of_word_suffix is not supported/);
  refusedJson(edited((_, model) => { model.dropout = 0.1; }), /dropout \(random merges\) is not supported/);
  refusedJson(edited((_, model) => { model.unk_token = '<unk>'; }), /the unk_token "<unk>" is not in the vocabulary/);
});

test('component types outside the supported set are refused, at their place in the file', () => {
  refusedJson(edited((json) => { json.pre_tokenizer = { type: 'Whitespace' }; }), /^tokenizer\.json: the pre-tokenizer type "Whitespace" \(at "pre_tokenizer"\) is not supported/);
  refusedJson(edited((json) => { json.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'NFKD2' }] }; }), /the normalizer type "NFKD2" \(at "normalizer\.normalizers\[1\]"\) is not supported/);
  refusedJson(edited((json) => { json.decoder = { type: 'Sequence', decoders: [{ type: 'WordPiece' }] }; }), /a WordPiece decoder inside a Sequence \(at "decoder\.decoders\[0\]"\) is not supported/);
  refusedJson(edited((json) => { json.post_processor = { type: 'Sequence' }; }), /the Sequence at "post_processor" has no "processors" list/);
  refusedJson(edited((json) => { json.decoder = 'ByteLevel'; }), /"decoder" is not an object/);
});

test('a Split that is not reproduced is refused: Contiguous, an inverted split, a pattern of neither kind', () => {
  const withSplit = (split: Json) => {
    const { json } = llama3Style([]);
    ((json.pre_tokenizer as Json).pretokenizers as Json[])[0] = { type: 'Split', pattern: { Regex: '\\s+' }, behavior: 'Isolated', invert: false, ...split };
    return json;
  };
  refusedJson(withSplit({ behavior: 'Contiguous' }), /the Split behavior "Contiguous" \(at "pre_tokenizer\.pretokenizers\[0\]"\) is not supported/);
  refusedJson(withSplit({ invert: true }), /an inverted Split .* is not supported/);
  refusedJson(withSplit({ pattern: { Glob: '*' } }), /the pattern at "pre_tokenizer\.pretokenizers\[0\]" is neither/);
  // A regex that cannot be read is a sentence too, naming its key.
  refusedJson(withSplit({ pattern: { Regex: '(unclosed' } }), /^tokenizer\.json: the pattern at "pre_tokenizer\.pretokenizers\[0\]\.pattern\.Regex" cannot be read \(a group is not closed\)/);
  refusedJson(withSplit({ pattern: { Regex: 'a{2,1}' } }), /^tokenizer\.json: cannot be read as a tokenizer \(/);
  // The four that are reproduced are accepted.
  for (const behavior of ['Isolated', 'Removed', 'MergedWithPrevious', 'MergedWithNext']) assert.doesNotThrow(() => tokenizerFrom({ tokenizerJson: JSON.stringify(withSplit({ behavior })) }));
});

test('a Metaspace pre-tokenizer needs a known prepend_scheme, a boolean split, and "first" only where it sees the whole text', () => {
  const json = llama2Style(['▁'], [], 'metaspace');
  (json.pre_tokenizer as Json).prepend_scheme = 'sometimes';
  refusedJson(json, /^tokenizer\.json: "pre_tokenizer\.prepend_scheme" is "sometimes", not "first", "always" or "never"$/);
  (json.pre_tokenizer as Json).prepend_scheme = 'first';
  (json.pre_tokenizer as Json).split = 'yes';
  refusedJson(json, /^tokenizer\.json: "pre_tokenizer\.split" is "yes", not true or false$/);
  (json.pre_tokenizer as Json).split = true;
  assert.doesNotThrow(() => tokenizerFrom({ tokenizerJson: JSON.stringify(json) }));
  json.pre_tokenizer = { type: 'Sequence', pretokenizers: [{ type: 'Split', pattern: { String: 'x' }, behavior: 'Isolated' }, json.pre_tokenizer] };
  refusedJson(json, /a Metaspace with prepend_scheme "first" after another pre-tokenizer \(at "pre_tokenizer\.pretokenizers\[1\]"\) is not supported/);
});

test('added tokens need a content and a whole-number id; single_word ones are refused; a post-processor\'s token must have an id', () => {
  refusedJson(edited((json) => { json.added_tokens = {}; }), /"added_tokens" is not a list/);
  refusedJson(edited((json) => { json.added_tokens = [{ id: 5 }]; }), /added_tokens\[0\] has no content string/);
  refusedJson(edited((json) => { json.added_tokens = [{ id: 'x', content: '<x>' }]; }), /added_tokens\[0\] has no whole-number id/);
  refusedJson(edited((json) => { json.added_tokens = [{ id: 300, content: '<x>', single_word: true }]; }), /added_tokens\[0\] \("<x>"\) is a single_word token/);
  const { json } = llama3Style([]);
  json.added_tokens = [];
  refusedJson(json, /the post-processor adds the token "<\|begin_of_text\|>", which is neither an added token nor in the vocabulary/);
});

test('slots the file leaves out are read as absent (null), and a file with no merges is a byte-by-byte tokenizer', () => {
  const json = gpt2Style([]);
  delete json.normalizer;
  delete json.post_processor;
  delete json.added_tokens;
  delete (json.model as Json).merges;
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  assert.deepEqual(tok.encode('at').ids, [64, 83]);
  // <|endoftext|> is in the vocabulary but, not being an added token any more, is text.
  assert.equal(tok.encode('<|endoftext|>').ids.length, 13);
});

test('a Split or Replace regex of exponential shape is refused before any text meets it (no hang)', () => {
  // Before: a Split pattern "(a+)+$" was compiled and, on 28 a's and a b, attn run did not end within 20 s.
  const { json } = llama3Style([]);
  ((json.pre_tokenizer as Json).pretokenizers as Json[])[0] = { type: 'Split', pattern: { Regex: '(a+)+$' }, behavior: 'Isolated', invert: false };
  refusedJson(json, /^tokenizer\.json: the pattern at "pre_tokenizer\.pretokenizers\[0\]\.pattern\.Regex" repeats the group \(a\+\)\+,/);
  const replace = gpt2Style([]);
  replace.normalizer = { type: 'Replace', pattern: { Regex: '(?:x|xx)*y' }, content: '' };
  refusedJson(replace, /^tokenizer\.json: the pattern at "normalizer\.pattern\.Regex" repeats the group \(\?:x\|xx\)\*,/);
  // A String pattern is literal text, never a regex.
  const literal = gpt2Style([]);
  literal.normalizer = { type: 'Replace', pattern: { String: '(a+)+' }, content: '' };
  assert.doesNotThrow(() => tokenizerFrom({ tokenizerJson: JSON.stringify(literal) }));
});

test('Sequences nested deeper than any real tokenizer\'s are refused in a sentence, not a stack overflow', () => {
  // Before: a pre_tokenizer of 100,000 nested Sequences (3.8 MB) ended attn run with "internal error: Maximum call stack size exceeded", exit 3.
  const { json } = llama3Style([]);
  json.pre_tokenizer = 'HERE';
  const deep = '{"type":"Sequence","pretokenizers":['.repeat(100000) + '{"type":"ByteLevel","use_regex":false}' + ']}'.repeat(100000);
  refused({ tokenizerJson: JSON.stringify(json).replace('"HERE"', deep) }, /^tokenizer\.json: the Sequences at "pre_tokenizer(\.pretokenizers\[0\]){16}" are nested more than 16 deep/);
  let shallow: Json = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false };
  for (let i = 0; i < 3; i++) shallow = { type: 'Sequence', pretokenizers: [shallow] };
  const ok = llama3Style([]).json;
  ok.pre_tokenizer = shallow;
  assert.doesNotThrow(() => tokenizerFrom({ tokenizerJson: JSON.stringify(ok) }));
});

test('a value nested too deep to print, or megabytes long, is quoted briefly in the refusal, not a stack overflow', () => {
  // Before: "model": { "type": 200,000 lists deep } ended attn run with "internal error: Maximum call stack size exceeded", exit 3.
  const deep = `${'['.repeat(200000)}${']'.repeat(200000)}`;
  refused({ tokenizerJson: `{"model":{"type":${deep},"vocab":{}}}` }, /^tokenizer\.json: the model type a value nested too deep to print is not supported/);
  refused({ tokenizerJson: `{"model":{"type":"BPE","vocab":{"a":${deep}}}}` }, /the vocabulary gives "a" the id a value nested too deep to print/);
  refused({ tokenizerJson: JSON.stringify({ model: { type: 'z'.repeat(1_000_000), vocab: {} } }) }, /^tokenizer\.json: the model type "z{60}…" is not supported \(only BPE, WordPiece and Unigram\)$/);
});

test('sizes past any real tokenizer are refused by their key before the library builds anything', () => {
  // Before: a 12 MB added token, a 100,000-character Metaspace replacement or a 2M-piece vocabulary ran 40–120 s and up to 2.45 GB.
  refusedJson(edited((json) => { (json.added_tokens as Json[]).push({ id: 300, content: 'q'.repeat(12_000_000), special: true }); }), /^tokenizer\.json: added_tokens\[1\]\.content is 12,000,000 characters long, over the 1024 supported/);
  refusedJson(edited((json) => { json.added_tokens = Array.from({ length: 70_000 }, (_, i) => ({ id: 300 + i, content: `<t${i}>` })); }), /^tokenizer\.json: "added_tokens" holds 70,000 tokens/);
  refusedJson(edited((json) => { json.added_tokens = Array.from({ length: 2000 }, (_, i) => ({ id: 300 + i, content: `${i}`.padEnd(1000, 'q') })); }), /^tokenizer\.json: "added_tokens" hold more than 1,048,576 characters in all \(at added_tokens\[1048\]\)/);
  refusedJson(edited((_, model) => { (model.vocab as Json)['q'.repeat(2000)] = 999; }), /^tokenizer\.json: the vocabulary \(model\.vocab\) has a piece of 2,000 characters/);
  refusedJson(edited((_, model) => { (model.vocab as Json).zz = 2 ** 31; }), /^tokenizer\.json: the vocabulary gives "zz" the id 2147483648, over the largest supported/);
  refusedJson(edited((json) => { json.pre_tokenizer = { type: 'Metaspace', replacement: '\u2581'.repeat(100_000), prepend_scheme: 'first', split: false }; }), /^tokenizer\.json: "pre_tokenizer\.replacement" is 100,000 characters long, over the 64 supported/);
  refusedJson(edited((json) => { json.normalizer = { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: 'p'.repeat(65) }] }; }), /^tokenizer\.json: "normalizer\.normalizers\[0\]\.prepend" is 65 characters long/);
  refusedJson(edited((json) => { json.normalizer = { type: 'Replace', pattern: { String: 'a' }, content: 'z'.repeat(1000) }; }), /^tokenizer\.json: "normalizer\.content" is 1,000 characters long/);
  refusedJson(edited((json) => { json.normalizer = { type: 'Replace', pattern: { Regex: 'a'.repeat(9000) }, content: '' }; }), /^tokenizer\.json: the pattern at "normalizer\.pattern\.Regex" is 9,000 characters long/);
});

test('normalizers that multiply a text within the caps are stopped at 8 × the text, naming the rule', () => {
  const json = edited((j) => { j.normalizer = { type: 'Sequence', normalizers: [{ type: 'NFC' }, ...Array.from({ length: 4 }, () => ({ type: 'Replace', pattern: { Regex: '' }, content: 'z'.repeat(64) }))] }; j.added_tokens = []; });
  const tok = tokenizerFrom({ tokenizerJson: JSON.stringify(json) });
  assert.throws(() => tok.encode('a'.repeat(100_000)), /^TokenizerError: tokenizer\.json: the Replace at "normalizer\.normalizers\[1\]" makes a text of 100000 characters longer than 801024/);
  // The same normalizers on an added token marked "normalized" are refused when the tokenizer is built.
  const added = edited((j) => { j.normalizer = json.normalizer; (j.added_tokens as Json[])[0].normalized = true; });
  refusedJson(added, /^tokenizer\.json: the Replace at "normalizer\.normalizers\[\d\]" makes a text of 13 characters longer than 1128/);
});

test('a slot of more rules than any real file holds is refused: each rule is one more pass over the whole text', () => {
  refusedJson(edited((json) => { json.normalizer = { type: 'Sequence', normalizers: Array.from({ length: 10_000 }, () => ({ type: 'NFC' })) }; }), /^tokenizer\.json: "normalizer" holds more than 64 rules/);
  refusedJson(edited((json) => { json.decoder = { type: 'Sequence', decoders: Array.from({ length: 8 }, () => ({ type: 'Sequence', decoders: Array.from({ length: 8 }, () => ({ type: 'Fuse' })) })) }; }), /^tokenizer\.json: "decoder" holds more than 64 rules/);
});
