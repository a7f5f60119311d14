// One id decoded alone (src/core/tokenizer/decode-one.ts, through tokenizerFrom's decodeOne): every piece
// kind reads as the text it adds after any other piece, the space it carries included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenizerFrom } from '../../../../src/core/tokenizer/index.js';
import { loneTokenDecoder } from '../../../../src/core/tokenizer/decode-one.js';
import { gpt2Style, llama2Style, llama3Style } from '../../../support/tokenizer-fixtures.js';

const from = (json: unknown) => tokenizerFrom({ tokenizerJson: JSON.stringify(json) });

test('byte-level pieces: Ġcat reads " cat", Ċ a newline, ĉ a tab, ĠĠ two spaces, a lone byte of a character U+FFFD', () => {
  // ĠĠ = 256, Ġc = 257, at = 258, Ġcat = 259, <|endoftext|> = 260.
  const tok = from(gpt2Style([['Ġ', 'Ġ'], ['Ġ', 'c'], ['a', 't'], ['Ġc', 'at'], ['Ã', '©']]));
  assert.equal(tok.decodeOne(259), ' cat');
  assert.equal(tok.decodeOne(257), ' c');
  assert.equal(tok.decodeOne(256), '  ');
  assert.equal(tok.decodeOne(198), '\n');
  assert.equal(tok.decodeOne(197), '\t');
  assert.equal(tok.decodeOne(64), 'a');
  // C3 alone (127) is half of é; C3 A9 merged (260) is é.
  assert.equal(tok.decodeOne(127), '\uFFFD');
  assert.equal(tok.decodeOne(260), 'é');
  assert.equal(tok.decodeOne(261), '<|endoftext|>');
});

test('each piece of an encoding decodes to its part of the text, so the labels join back into the text (when no character is split)', () => {
  const tok = from(gpt2Style([['Ġ', 'Ġ'], ['Ġ', 'c'], ['a', 't'], ['Ġc', 'at']]));
  const text = 'a   cat sat\n\tin the\r\nhat<|endoftext|>';
  const { ids } = tok.encode(text);
  assert.equal(ids.map((id) => tok.decodeOne(id)).join(''), text);
});

test('Llama 3\'s BOS decodes to its content', () => {
  const { json, bos } = llama3Style([]);
  assert.equal(from(json).decodeOne(bos), '<|begin_of_text|>');
});

for (const layout of ['normalizer', 'metaspace'] as const) {
  test(`SentencePiece-style pieces (${layout}): ▁cat reads " cat" (not "cat" as decode([id]) strips it), <0x0A> a newline, a lone byte U+FFFD, <s> itself`, () => {
    // ▁ = 259, c = 260, ▁c = 261, é = 262.
    const tok = from(llama2Style(['▁', 'c', '▁c', 'é'], [['▁', 'c']], layout));
    assert.equal(tok.decodeOne(261), ' c');
    assert.equal(tok.decodeOne(259), ' ');
    assert.equal(tok.decodeOne(260), 'c');
    assert.equal(tok.decodeOne(262), 'é');
    assert.equal(tok.decodeOne(3 + 0x0a), '\n');
    assert.equal(tok.decodeOne(3 + 0x41), 'A');
    assert.equal(tok.decodeOne(3 + 0xc3), '\uFFFD');
    assert.equal(tok.decodeOne(1), '<s>');
    assert.equal(tok.decodeOne(0), '<unk>');
  });
}

test('an id past the vocabulary (padded embedding rows) or not a whole number decodes to nothing', () => {
  const tok = from(gpt2Style([]));
  assert.equal(tok.vocabSize, 257);
  assert.equal(tok.decodeOne(257), '');
  assert.equal(tok.decodeOne(151_935), '');
  assert.equal(tok.decodeOne(-1), '');
  assert.equal(tok.decodeOne(1.5), '');
});

test('the lone-token decoder drops Strip and turns Metaspace into its replacement alone; other decoders are kept as they are', () => {
  assert.equal(loneTokenDecoder(null), null);
  assert.equal(loneTokenDecoder({ type: 'Strip', content: ' ', start: 1, stop: 0 }), null);
  assert.deepEqual(loneTokenDecoder({ type: 'Metaspace', replacement: '▁', prepend_scheme: 'always' }), { type: 'Replace', pattern: { String: '▁' }, content: ' ' });
  const byteLevel = { type: 'ByteLevel', add_prefix_space: true };
  assert.deepEqual(loneTokenDecoder(byteLevel), byteLevel);
  assert.deepEqual(
    loneTokenDecoder({ type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }] }),
    { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] },
  );
});

test('a file without a decoder reads each piece as it is written', () => {
  const json = gpt2Style([['Ġ', 'c']]);
  json.decoder = null;
  assert.equal(from(json).decodeOne(256), 'Ġc');
});

test('a decoder that writes far more than its piece is refused by its key, not a crash: a long Replace content, or Replaces that multiply', () => {
  // Before: a Replace decoder writing megabytes per token ended attn run in "internal error: Invalid string length".
  const json = llama2Style(['\u2581', 'a', '\u2581a'], [['\u2581', 'a']]);
  json.decoder = { type: 'Sequence', decoders: [{ type: 'Replace', pattern: { String: '' }, content: 'D'.repeat(4_000_000) }, { type: 'ByteFallback' }, { type: 'Fuse' }] };
  assert.throws(() => from(json), /^TokenizerError: tokenizer\.json: "decoder\.decoders\[0\]\.content" is 4,000,000 characters long, over the 64 supported/);
  // Within the cap, five Replaces of 64 characters at every place would make 65⁵ × the piece.
  json.decoder = { type: 'Sequence', decoders: [...Array.from({ length: 5 }, () => ({ type: 'Replace', pattern: { Regex: '' }, content: 'D'.repeat(64) })), { type: 'Fuse' }] };
  const tok = from(json);
  assert.throws(() => tok.decodeOne(261), /^TokenizerError: tokenizer\.json: the Replace at "decoder\.decoders\[1\]" makes a text of 2 characters longer than 1040/);
  // A Replace of the same size as its piece is untouched.
  json.decoder = { type: 'Replace', pattern: { String: '\u2581' }, content: ' ' };
  assert.equal(from(json).decodeOne(261), ' a');
});

test('a Replace content with a substitution pattern ("$&"), which JavaScript reads and the Rust library does not, is refused', () => {
  const json = llama2Style(['\u2581', 'a', '\u2581a'], [['\u2581', 'a']]);
  json.decoder = { type: 'Replace', pattern: { String: 'a' }, content: '[$&]' };
  assert.throws(() => from(json), /^TokenizerError: tokenizer\.json: "decoder\.content" holds "\$&", a substitution pattern/);
});
