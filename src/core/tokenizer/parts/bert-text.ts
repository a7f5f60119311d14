// BERT's normalizer and pre-tokenizer, lower-casing and the WhitespaceSplit pre-tokenizer, as the Rust
// library defines them. Ours rather
// than the library's, which differs in three places: it lower-cases with String.toLowerCase (a Greek Σ
// at a word's end becomes ς, where Rust maps each character alone to σ), it pads Chinese characters by
// UTF-16 unit (so none beyond U+FFFF is padded) with a range off by 0x100 (U+2B820, not U+2B920), and it
// strips accents after lower-casing where Rust strips them first.

/** Each character lower-cased alone (Rust's char::to_lowercase), never by its context. */
export function lowercaseByChar(text: string): string {
  // Only Σ lower-cases by its context in JavaScript; every other character maps alone.
  if (!text.includes('\u03a3')) return text.toLowerCase();
  let out = '';
  for (const c of text) out += c === '\u03a3' ? '\u03c3' : c.toLowerCase();
  return out;
}

/** Canonical decomposition, then every non-spacing mark (Mn) dropped. */
export const stripAccents = (text: string) => text.normalize('NFD').replace(/\p{Mn}/gu, '');

// The CJK ideograph blocks the Rust library pads with spaces (the CJK Unicode blocks, not Hangul or kana).
const CHINESE = /[\u{4E00}-\u{9FFF}\u{3400}-\u{4DBF}\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B920}-\u{2CEAF}\u{F900}-\u{FAFF}\u{2F800}-\u{2FA1F}]/gu;
// Removed by clean_text: NUL, U+FFFD, and the "other" categories Cc, Cf and Co, except tab, newline and return.
const CONTROL = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}]/gu;
// Written as a plain space by clean_text: Unicode's White_Space (Rust's char::is_whitespace).
const WHITESPACE = /\p{White_Space}/gu;

export interface BertNormalizerConfig {
  clean_text?: boolean;
  handle_chinese_chars?: boolean;
  strip_accents?: boolean | null;
  lowercase?: boolean;
}

/** The BertNormalizer: clean, pad Chinese characters, strip accents, lower-case, in the Rust order. */
export function bertNormalize(config: BertNormalizerConfig, text: string): string {
  const lowercase = config.lowercase ?? true;
  if (config.clean_text ?? true) text = text.replace(CONTROL, '').replace(WHITESPACE, ' ');
  if (config.handle_chinese_chars ?? true) text = text.replace(CHINESE, ' $& ');
  if (config.strip_accents ?? lowercase) text = stripAccents(text);
  return lowercase ? lowercaseByChar(text) : text;
}

// BERT's punctuation: ASCII punctuation and Unicode's P* categories, each a piece of its own.
const BERT_WORD = /[^\p{White_Space}\p{P}!-/:-@[-`{-~]+|[\p{P}!-/:-@[-`{-~]/gu;

/** The BertPreTokenizer: split at whitespace (dropped), then every punctuation character alone. */
export const bertPreTokenize = (text: string): string[] => text.match(BERT_WORD) ?? [];

/** The WhitespaceSplit pre-tokenizer (T5's first): the text cut at runs of whitespace, which are dropped. */
export const whitespaceSplit = (text: string): string[] => text.match(/[^\p{White_Space}]+/gu) ?? [];
