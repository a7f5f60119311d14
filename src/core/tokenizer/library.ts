// The parts of @huggingface/tokenizers this folder uses, typed here: the package's own .d.ts files
// re-export without file extensions, which TypeScript's NodeNext resolution does not follow, so its
// Tokenizer arrives as `any`. Naming the few members used keeps every call below type-checked.
import { Tokenizer } from '@huggingface/tokenizers';

export interface LibraryDecoder {
  /** Each token's text after this decoder (and, for a Sequence, all of its members in turn). */
  decode_chain(tokens: string[]): string[];
}

export interface LibraryTokenizer {
  encode(text: string): { ids: number[] };
  id_to_token(id: number): string | undefined;
  readonly decoder: LibraryDecoder | null;
  /** The normalizer and pre-tokenizer (function objects), replaced by bounds/guard-library.ts with bounded ones. */
  normalizer: unknown;
  pre_tokenizer: unknown;
  /** The model (a function object whose call goes through its encode), replaced in part by parts/own-parts.ts. */
  model: unknown;
}

/** The library's tokenizer from a tokenizer.json object and tokenizer_config.json's (may be {}). */
export const LibraryTokenizer = Tokenizer as new (tokenizerJson: object, tokenizerConfig: object) => LibraryTokenizer;

/** A decoder alone, from its tokenizer.json config: built by the library around an empty BPE. */
export function libraryDecoder(config: object): LibraryDecoder | null {
  const empty = { model: { type: 'BPE', vocab: {}, merges: [] }, normalizer: null, pre_tokenizer: null, post_processor: null, decoder: config, added_tokens: [] };
  return new LibraryTokenizer(empty, {}).decoder;
}
