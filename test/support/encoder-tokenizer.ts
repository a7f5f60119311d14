// A tiny byte-level BPE tokenizer.json in an encoder's dress, for runs of the encoders' tiny
// checkpoints: RoBERTa's (<s> <pad> </s> <unk> first, <mask> last, RobertaProcessing adding
// <s> … </s>) or BERT's special tokens ([PAD] [UNK] [CLS] [SEP] first, [MASK] last, TemplateProcessing
// "[CLS] $A [SEP]"). WordPiece itself is the tokenizer's own work; these test the model's side.
import { byteToUnicode } from './tiny-tokenizer.js';

const MERGES: [string, string][] = [['Ġ', 'c'], ['a', 't'], ['Ġc', 'at'], ['Ġ', 's'], ['Ġs', 'at'], ['Ġ', 't'], ['h', 'e'], ['Ġt', 'he'], ['Ġ', 'm'], ['Ġm', 'at']];

export interface EncoderTokenizer {
  /** tokenizer.json's text. */
  text: string;
  /** Ids in all, the config's vocab_size. */
  vocabSize: number;
  mask: { content: string; id: number };
}

export function encoderTokenizer(style: 'roberta' | 'bert'): EncoderTokenizer {
  const specials = style === 'roberta' ? ['<s>', '<pad>', '</s>', '<unk>'] : ['[PAD]', '[UNK]', '[CLS]', '[SEP]'];
  const vocab: Record<string, number> = {};
  for (const s of specials) vocab[s] = Object.keys(vocab).length;
  for (const c of [...byteToUnicode()].sort((a, b) => a.charCodeAt(0) - b.charCodeAt(0))) vocab[c] = Object.keys(vocab).length;
  for (const [a, b] of MERGES) vocab[a + b] = Object.keys(vocab).length;
  const maskContent = style === 'roberta' ? '<mask>' : '[MASK]';
  const mask = { content: maskContent, id: Object.keys(vocab).length };
  vocab[maskContent] = mask.id;
  const added = [...specials, maskContent].map((content) => ({
    id: vocab[content], content, single_word: false, lstrip: content === '<mask>', rstrip: false, normalized: false, special: true,
  }));
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  const [cls, sep] = style === 'roberta' ? ['<s>', '</s>'] : ['[CLS]', '[SEP]'];
  const post_processor = style === 'roberta'
    ? { type: 'RobertaProcessing', sep: [sep, vocab[sep]], cls: [cls, vocab[cls]], trim_offsets: true, add_prefix_space: false }
    : {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: cls, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: sep, type_id: 0 } }],
      pair: [{ SpecialToken: { id: cls, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: sep, type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: sep, type_id: 1 } }],
      special_tokens: { [cls]: { id: cls, ids: [vocab[cls]], tokens: [cls] }, [sep]: { id: sep, ids: [vocab[sep]], tokens: [sep] } },
    };
  const json = {
    version: '1.0', truncation: null, padding: null, added_tokens: added, normalizer: null, pre_tokenizer: byteLevel, post_processor, decoder: byteLevel,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges: MERGES.map(([a, b]) => [a, b]) },
  };
  return { text: JSON.stringify(json), vocabSize: mask.id + 1, mask };
}

/**
 * bert-base-uncased's tokenizer.json layout on a tiny vocabulary: BertNormalizer (lower-casing),
 * BertPreTokenizer, WordPiece with "##" continuations and [UNK], TemplateProcessing "[CLS] $A [SEP]".
 */
export function wordPieceTokenizer(): EncoderTokenizer {
  const pieces = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'the', 'cat', 'sat', 'on', 'mat', 'ze', '##bra', '##s', 'a'];
  const vocab = Object.fromEntries(pieces.map((p, id) => [p, id]));
  const added = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((content) => ({
    id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
  }));
  const json = {
    version: '1.0', truncation: null, padding: null, added_tokens: added,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
  return { text: JSON.stringify(json), vocabSize: pieces.length, mask: { content: '[MASK]', id: vocab['[MASK]'] } };
}
