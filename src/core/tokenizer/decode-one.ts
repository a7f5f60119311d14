// One id decoded alone, for the token labels (" cat", "\n", "é"). The file's decoder is followed with one
// change: the rules that exist for the first token of a whole text are left out, so a piece shows the
// text it adds after any other piece. Hugging Face's decode([id]) strips the leading space of the first
// token (a Strip decoder, or the Metaspace decoder's own rule), which would label "▁cat" as "cat" and
// hide the space the model actually sees. A piece that is part of a character (a lone byte of a UTF-8
// sequence) decodes to U+FFFD, as the library's UTF-8 decoder does.
import { isObject, type Obj } from '../json/object.js';
import { withRegexBudget } from './bounds/bounded-regex.js';
import { boundedReplace } from './bounds/bounded-stages.js';
import { libraryDecoder } from './library.js';
import { grown } from './bounds/limits.js';

/**
 * The decoder's config without its first-token rules (null when the file has no decoder). `keys`, when
 * given, learns the tokenizer.json key of each Replace in the result (a Metaspace becomes one).
 */
export function loneTokenDecoder(decoder: unknown, where = 'decoder', keys?: WeakMap<object, string>): Obj | null {
  if (!isObject(decoder)) return null;
  if (decoder.type === 'Sequence') {
    const members = Array.isArray(decoder.decoders) ? decoder.decoders : [];
    return { type: 'Sequence', decoders: members.map((d, i) => loneTokenDecoder(d, `${where}.decoders[${i}]`, keys)).filter((d) => d !== null) };
  }
  // Strip cuts characters off the whole text's ends (Llama 2: the space the normalizer prepended).
  if (decoder.type === 'Strip') return null;
  // Metaspace: "▁" is a space; the prefix rule drops it on the first token only.
  if (decoder.type === 'Metaspace') {
    const replacement = typeof decoder.replacement === 'string' ? decoder.replacement : '\u2581';
    const replace = { type: 'Replace', pattern: { String: replacement }, content: ' ' };
    keys?.set(replace, `${where}.replacement`);
    return replace;
  }
  if (decoder.type === 'Replace') keys?.set(decoder, where);
  return decoder;
}

type Part = Record<string, unknown>;

/**
 * Each Replace of the library's decoder chain bounded: a piece (at most MAX_PIECE characters) may grow
 * to GROWTH × its length, so a Replace that writes megabytes per token is refused by its key.
 */
function guardChain(part: Part, keys: WeakMap<object, string>, piece: { length: number }): void {
  if (Array.isArray(part.decoders)) for (const d of part.decoders as Part[]) guardChain(d, keys, piece);
  const key = isObject(part.config) ? keys.get(part.config) : undefined;
  if (key === undefined || !(part.pattern instanceof RegExp)) return;
  const pattern = part.pattern;
  const content = typeof (part.config as Obj).content === 'string' ? (part.config as Obj).content as string : '';
  part.decode_chain = (tokens: string[]) => tokens.map((t) => boundedReplace(t, pattern, content, grown(piece.length), key, piece.length));
}

/**
 * The WordPiece decoder (BERT) on a piece that follows another: its prefix ("##") dropped, or else a
 * space before it; then, with cleanup, the Rust library's tidying of spaces before punctuation and
 * contractions (" ." is ".", " n't" is "n't"), as the piece reads in a whole decoded text.
 */
function wordPieceLone(decoder: Obj): (piece: string) => string {
  const prefix = typeof decoder.prefix === 'string' ? decoder.prefix : '##';
  const cleanup = decoder.cleanup !== false;
  const tidy: [string, string][] = [[' .', '.'], [' ?', '?'], [' !', '!'], [' ,', ','], [" ' ", "'"], [" n't", "n't"], [" 'm", "'m"], [' do not', " don't"], [" 's", "'s"], [" 've", "'ve"], [" 're", "'re"]];
  return (piece) => {
    let text = prefix !== '' && piece.startsWith(prefix) ? piece.slice(prefix.length) : ` ${piece}`;
    if (cleanup) for (const [from, to] of tidy) text = text.replaceAll(from, to);
    return text;
  };
}

/** A function from a vocabulary piece to its text. */
export function pieceDecoder(decoder: unknown): (piece: string) => string {
  if (isObject(decoder) && decoder.type === 'WordPiece') return wordPieceLone(decoder);
  const keys = new WeakMap<object, string>();
  const config = loneTokenDecoder(decoder, 'decoder', keys);
  if (config === null) return (piece) => piece;
  const chain = libraryDecoder(config);
  if (chain === null) return (piece) => piece;
  const piece = { length: 0 };
  guardChain(chain as unknown as Part, keys, piece);
  return (text) => {
    piece.length = text.length;
    return withRegexBudget(() => chain.decode_chain([text]).join(''));
  };
}
