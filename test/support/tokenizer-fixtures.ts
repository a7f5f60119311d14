// tokenizer.json fixtures in the three layouts the runner meets, small enough that every expected id in
// the tests can be worked out by hand from the merge ranks: GPT-2 (ByteLevel with its own regex), Llama 3
// and Qwen2 (a Split regex, then ByteLevel without one, and a BOS added by the post-processor), and
// Llama 2 / Mistral (SentencePiece-style: "▁" for spaces, <0xNN> byte fallback, <s> added).
import { tinyTokenizer } from './tiny-tokenizer.js';

type Json = Record<string, unknown>;

/**
 * GPT-2's byte pieces have GPT-2's ids: a printable ASCII character c is c's code − 33 ("a" = 64), a space
 * "Ġ" = 220, "\n" "Ċ" = 198, "\t" "ĉ" = 197. The merges follow at 256, 257, …, <|endoftext|> last.
 */
export function gpt2Style(merges: [string, string][], options: { mergesAsStrings?: boolean; vocabSize?: number } = {}): Json {
  const vocabSize = options.vocabSize ?? 256 + merges.length + 1;
  return tinyTokenizer({ vocabSize, merges, mergesAsStrings: options.mergesAsStrings }).json;
}

/** Llama 3's pre-tokenizer regex, as its tokenizer.json writes it (Oniguruma syntax). */
export const LLAMA3_REGEX = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/**
 * A Llama-3-style file over gpt2Style's vocabulary (`vocabSize` ids, generated merges after the given
 * ones when it is larger): <|begin_of_text|> gets the next id and starts every text.
 */
export function llama3Style(merges: [string, string][], vocabSize = 256 + merges.length + 1): { json: Json; bos: number } {
  const json = gpt2Style(merges, { vocabSize });
  const bos = vocabSize;
  (json.added_tokens as Json[]).push({ id: bos, content: '<|begin_of_text|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  json.pre_tokenizer = {
    type: 'Sequence',
    pretokenizers: [
      { type: 'Split', pattern: { Regex: LLAMA3_REGEX }, behavior: 'Isolated', invert: false },
      { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
    ],
  };
  json.post_processor = {
    type: 'Sequence',
    processors: [
      { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
      {
        type: 'TemplateProcessing',
        single: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
        pair: [{ SpecialToken: { id: '<|begin_of_text|>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
        special_tokens: { '<|begin_of_text|>': { id: '<|begin_of_text|>', ids: [bos], tokens: ['<|begin_of_text|>'] } },
      },
    ],
  };
  return { json, bos };
}

/**
 * A Llama-2-style file: <unk> 0, <s> 1, </s> 2, <0x00>…<0xFF> 3…258 (byte b is 3 + b: "\n" = 13), then
 * `pieces` from 259 in order, then the merges (each must join two pieces into a third listed piece).
 * `layout` "normalizer" is Llama 2's own file (Prepend "▁" and Replace " " → "▁" normalizers, no
 * pre-tokenizer; a decoder ending in Strip); "metaspace" is the newer conversion (a Metaspace pre-tokenizer,
 * prepend_scheme "first"; a Metaspace decoder, then ByteFallback and Fuse).
 */
export function llama2Style(pieces: string[], merges: [string, string][], layout: 'normalizer' | 'metaspace' = 'normalizer'): Json {
  const vocab: Record<string, number> = { '<unk>': 0, '<s>': 1, '</s>': 2 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 3 + b;
  for (const p of pieces) vocab[p] = Object.keys(vocab).length;
  const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const metaspace = { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'first', split: false };
  return {
    version: '1.0',
    added_tokens: [special(0, '<unk>'), special(1, '<s>'), special(2, '</s>')],
    normalizer: layout === 'normalizer'
      ? { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '\u2581' }, { type: 'Replace', pattern: { String: ' ' }, content: '\u2581' }] }
      : null,
    pre_tokenizer: layout === 'normalizer' ? null : metaspace,
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '<s>', type_id: 1 } }, { Sequence: { id: 'B', type_id: 1 } }],
      special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } },
    },
    decoder: layout === 'normalizer'
      ? {
        type: 'Sequence',
        decoders: [
          { type: 'Replace', pattern: { String: '\u2581' }, content: ' ' },
          { type: 'ByteFallback' },
          { type: 'Fuse' },
          { type: 'Strip', content: ' ', start: 1, stop: 0 },
        ],
      }
      : { type: 'Sequence', decoders: [metaspace, { type: 'ByteFallback' }, { type: 'Fuse' }] },
    model: { type: 'BPE', dropout: null, unk_token: '<unk>', continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: true, byte_fallback: true, ignore_merges: false, vocab, merges: merges.map(([a, b]) => `${a} ${b}`) },
  };
}
