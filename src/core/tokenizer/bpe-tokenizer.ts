// The Tokenizer contract on Hugging Face's own JavaScript tokenizer (@huggingface/tokenizers), which
// reads tokenizer.json's normalizer, pre-tokenizer, BPE model, added tokens and post-processor as the
// Rust library does (its test suite compares it with the Python tokenizers of GPT-2, Llama, Qwen2 and
// others), with our own parts where it does not (parts/own-parts.ts: BERT's normalizer and pre-tokenizer,
// Metaspace, the WordPiece and Unigram models). This file adds what the runner needs around it: the
// checks first (check-json.ts), ids and their vocabulary strings, one id decoded alone, and no error
// leaving but a TokenizerError.
import type { Obj } from '../json/object.js';
import { type DigestedBpe, digestBpe, emptiedBpe } from './cache/bpe-digest.js';
import { installBpe } from './cache/install-bpe.js';
import { checkTokenizerJson, type ModelSources, TOKENIZER_JSON } from './check-json.js';
import { withRegexBudget } from './bounds/bounded-regex.js';
import { pieceDecoder } from './decode-one.js';
import { guardLibrary } from './bounds/guard-library.js';
import { LibraryTokenizer } from './library.js';
import { installOwnParts, renormalizeAddedTokens } from './parts/own-parts.js';
import { encodePrefix } from './prefix-encode.js';
import { type Encoding, type Tokenizer, TokenizerError } from './tokenizer.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A checked tokenizer.json ready to build: a BPE's vocabulary and merges digested (cache/bpe-digest.ts),
 * its model emptied of them in `json`; any other model as the file gives it.
 */
export interface PreparedTokenizer {
  json: Obj;
  bpe?: DigestedBpe;
}

/** A checked tokenizer.json (check-json.ts), prepared. */
export function prepareTokenizer(json: Obj): PreparedTokenizer {
  const model = json.model as Obj;
  if (model.type !== 'BPE') return { json };
  return { json: { ...json, model: emptiedBpe(model) }, bpe: digestBpe(model) };
}

/** A tokenizer from a parsed tokenizer.json (checked here; `sources` names the files in messages). */
export function bpeTokenizer(parsed: unknown, sources: ModelSources = TOKENIZER_JSON): Tokenizer {
  return preparedTokenizer(prepareTokenizer(checkTokenizerJson(parsed, sources)), sources);
}

/** The tokenizer of a prepared tokenizer.json. */
export function preparedTokenizer({ json, bpe }: PreparedTokenizer, sources: ModelSources = TOKENIZER_JSON): Tokenizer {
  let hf: LibraryTokenizer;
  let decodePiece: (piece: string) => string;
  try {
    // tokenizer_config.json is not passed: the library reads from it only switches of the slow Python
    // tokenizers (remove_space, lowercasing), and the issue asks for tokenizer.json's rules alone.
    checkAddedTokensNormalize(json);
    hf = new LibraryTokenizer(json, {});
    if (bpe) installBpe(hf, bpe);
    installOwnParts(hf, json);
    guardLibrary(hf, json);
    withRegexBudget(() => renormalizeAddedTokens(hf));
    decodePiece = pieceDecoder(json.decoder);
  } catch (err) {
    if (err instanceof TokenizerError) throw err;
    throw new TokenizerError(`${sources.vocab}: cannot be read as a tokenizer (${message(err)})`);
  }
  const model = json.model as Obj;
  const added = new Map<number, string>();
  for (const token of json.added_tokens as { id: number; content: string }[]) added.set(token.id, token.content);
  let largest = Array.isArray(model.vocab) ? model.vocab.length - 1 : -1;
  if (bpe) for (const id of bpe.digest.ids) largest = Math.max(largest, id);
  else if (!Array.isArray(model.vocab)) for (const id of Object.values(model.vocab as Record<string, number>)) if (id > largest) largest = id;
  for (const id of added.keys()) if (id > largest) largest = id;
  const vocabSize = largest + 1;

  const pieceOf = (id: number): string | undefined => added.get(id) ?? hf.id_to_token(id);

  return {
    vocabSize,
    pieceOf: (id: number) => (Number.isInteger(id) ? pieceOf(id) : undefined),
    encode(text: string, limit?: number): Encoding {
      const whole = (part: string): Encoding => {
        let ids: number[];
        try {
          ids = hf.encode(part).ids;
        } catch (err) {
          if (err instanceof TokenizerError) throw err;
          throw new TokenizerError(`${sources.vocab}: the text could not be tokenized (${message(err)})`);
        }
        const pieces = ids.map((id) => {
          const piece = Number.isInteger(id) ? pieceOf(id) : undefined;
          if (piece === undefined) throw new TokenizerError(`${sources.vocab}: a piece of the text has no id in the vocabulary`);
          return piece;
        });
        return { ids, pieces };
      };
      return withRegexBudget(() => (limit === undefined ? whole(text) : encodePrefix(text, limit, whole)));
    },
    decodeOne(id: number): string {
      if (added.has(id)) return added.get(id) as string;
      const piece = Number.isInteger(id) ? hf.id_to_token(id) : undefined;
      // An id past the vocabulary (a model's embedding rows are often padded beyond it) decodes to nothing,
      // as Hugging Face's decode skips ids it does not know.
      return piece === undefined ? '' : decodePiece(piece);
    },
  };
}

/**
 * The library normalizes each added token marked "normalized" while it is built, out of reach of the
 * bounds: the same normalizer is run first on each of them here, bounded, so a normalizer that would
 * grow or hang on one is refused by its key before the library runs it.
 */
function checkAddedTokensNormalize(json: Obj): void {
  const tokens = (json.added_tokens as { content: string; special?: boolean; normalized?: boolean }[]).filter((t) => t.normalized ?? !t.special);
  if (json.normalizer === null || tokens.length === 0) return;
  const empty = { model: { type: 'BPE', vocab: {}, merges: [] }, normalizer: json.normalizer, pre_tokenizer: null, post_processor: null, decoder: null, added_tokens: [] };
  const alone = new LibraryTokenizer(empty, {});
  installOwnParts(alone, { ...empty, model: empty.model });
  guardLibrary(alone, json);
  const normalize = alone.normalizer as (text: string) => string;
  withRegexBudget(() => { for (const t of tokens) normalize(t.content); });
}
