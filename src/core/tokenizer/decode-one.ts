// One id decoded alone, for the token labels (" cat", "\n", "é"). The file's decoder is followed with one
// change: the rules that exist for the first token of a whole text are left out, so a piece shows the
// text it adds after any other piece. Hugging Face's decode([id]) strips the leading space of the first
// token (a Strip decoder, or the Metaspace decoder's own rule), which would label "▁cat" as "cat" and
// hide the space the model actually sees. A piece that is part of a character (a lone byte of a UTF-8
// sequence) decodes to U+FFFD, as the library's UTF-8 decoder does.
import { isObject, type Obj } from '../json/object.js';
import { libraryDecoder } from './library.js';

/** The decoder's config without its first-token rules (null when the file has no decoder). */
export function loneTokenDecoder(decoder: unknown): Obj | null {
  if (!isObject(decoder)) return null;
  if (decoder.type === 'Sequence') {
    const members = Array.isArray(decoder.decoders) ? decoder.decoders : [];
    return { type: 'Sequence', decoders: members.map(loneTokenDecoder).filter((d) => d !== null) };
  }
  // Strip cuts characters off the whole text's ends (Llama 2: the space the normalizer prepended).
  if (decoder.type === 'Strip') return null;
  // Metaspace: "▁" is a space; the prefix rule drops it on the first token only.
  if (decoder.type === 'Metaspace') {
    const replacement = typeof decoder.replacement === 'string' ? decoder.replacement : '\u2581';
    return { type: 'Replace', pattern: { String: replacement }, content: ' ' };
  }
  return decoder;
}

/** A function from a vocabulary piece to its text. */
export function pieceDecoder(decoder: unknown): (piece: string) => string {
  const config = loneTokenDecoder(decoder);
  if (config === null) return (piece) => piece;
  const chain = libraryDecoder(config);
  if (chain === null) return (piece) => piece;
  return (piece) => chain.decode_chain([piece]).join('');
}
