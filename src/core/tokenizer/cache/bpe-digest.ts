// A BPE model's vocabulary and merges in the form the runner needs them, rather than as tokenizer.json
// writes them: the pieces in the vocabulary object's own key order with their ids, and each merge as the
// two pieces' indexes. The library is built around an empty BPE (a small JSON) and this is put in its
// place (install-bpe.ts), so the same code serves a fresh tokenizer.json and the cache (digest-bytes.ts).
import type { Obj } from '../../json/object.js';

export interface BpeDigest {
  /** model.vocab's pieces, in Object.entries order (each once: they are an object's keys). */
  pieces: string[];
  /** pieces[i]'s id. */
  ids: Int32Array;
  /** Merge i's two pieces, as indexes into `pieces`, at 2i and 2i + 1. */
  merges: Uint32Array;
}

/**
 * A digest with its pieces' ids as a Map in the pieces' order: what the library's BPE makes of the
 * vocabulary object (object_to_map), given to it as its tokens_to_ids (install-bpe.ts takes it over).
 */
export interface DigestedBpe {
  digest: BpeDigest;
  tokens: Map<string, number>;
}

/** Each piece's id, in the pieces' order. */
export function pieceIds(digest: BpeDigest): Map<string, number> {
  const tokens = new Map<string, number>();
  for (let i = 0; i < digest.pieces.length; i++) tokens.set(digest.pieces[i], digest.ids[i]);
  return tokens;
}

/** Each piece's index in `pieces`. */
export function pieceIndex(pieces: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < pieces.length; i++) index.set(pieces[i], i);
  return index;
}

/** The digest of a checked BPE model (check-json.ts: every merge is [a, b] with a and b in the vocabulary). */
export function digestBpe(model: Obj): DigestedBpe {
  const vocab = model.vocab as Record<string, number>;
  const pieces = Object.keys(vocab);
  const ids = new Int32Array(pieces.length);
  for (let i = 0; i < pieces.length; i++) ids[i] = vocab[pieces[i]];
  const index = pieceIndex(pieces);
  const list = model.merges as [string, string][];
  const merges = new Uint32Array(2 * list.length);
  for (let i = 0; i < list.length; i++) {
    merges[2 * i] = index.get(list[i][0]) as number;
    merges[2 * i + 1] = index.get(list[i][1]) as number;
  }
  const digest = { pieces, ids, merges };
  return { digest, tokens: pieceIds(digest) };
}

/** The model with an empty vocabulary and no merges: what the library is built from (its other keys kept). */
export const emptiedBpe = (model: Obj): Obj => ({ ...model, vocab: {}, merges: [] });
