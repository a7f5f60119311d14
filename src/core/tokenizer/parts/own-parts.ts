// Puts our own rules in the library's tokenizer where the library's differ from the Rust library's
// (each file says how): the BertNormalizer, Lowercase and Precompiled normalizers (bert-text.ts,
// precompiled.ts), the BertPreTokenizer, WhitespaceSplit and Metaspace pre-tokenizers (bert-text.ts,
// metaspace.ts), and the WordPiece and Unigram models (wordpiece.ts, unigram.ts). The library's objects
// are patched in place, as guard-library.ts does after this, so its pipeline (added tokens, sections,
// post-processor) and the bounds stay as they are around ours.
import { isObject, type Obj } from '../../json/object.js';
import { bertNormalize, bertPreTokenize, lowercaseByChar, whitespaceSplit } from './bert-text.js';
import { metaspace, type MetaspaceConfig } from './metaspace.js';
import { precompiled } from './precompiled.js';
import { unigramModel, type UnigramConfig } from './unigram.js';
import { wordPieceModel, type WordPieceConfig } from './wordpiece.js';

type Part = Record<string, unknown>;

/** `hf` is the library's tokenizer built from the checked tokenizer.json `json`. */
export function installOwnParts(hf: { normalizer: unknown; pre_tokenizer: unknown; model: unknown }, json: Obj): void {
  if (isObject(json.normalizer) && hf.normalizer) ownNormalizer(hf.normalizer as Part, json.normalizer, 'normalizer');
  if (isObject(json.pre_tokenizer) && hf.pre_tokenizer) ownPreTokenizer(hf.pre_tokenizer as Part, json.pre_tokenizer);
  const model = json.model as Obj;
  const part = hf.model as Part;
  if (model.type === 'WordPiece') {
    part.encode = wordPieceModel(model as unknown as WordPieceConfig);
    part.fuse_unk = false;
  }
  if (model.type === 'Unigram') {
    part.encode = unigramModel(model as unknown as UnigramConfig);
    // Ours fuses unk pieces itself, and keeps its own trie: the library's is dropped, not kept twice.
    part.fuse_unk = false;
    part.trie = undefined;
  }
}

function ownNormalizer(part: Part, config: Obj, where: string): void {
  if (config.type === 'Sequence') {
    const members = part.normalizers as (Part | null)[];
    (config.normalizers as Obj[]).forEach((c, i) => { if (members[i]) ownNormalizer(members[i], c, `${where}.normalizers[${i}]`); });
  }
  if (config.type === 'Precompiled') part.normalize = precompiled(config.precompiled_charsmap, `${where}.precompiled_charsmap`);
  if (config.type === 'BertNormalizer') part.normalize = (text: string) => bertNormalize(config, text);
  if (config.type === 'Lowercase') part.normalize = lowercaseByChar;
}

function ownPreTokenizer(part: Part, config: Obj): void {
  if (config.type === 'Sequence') {
    const members = part.tokenizers as (Part | null)[];
    (config.pretokenizers as Obj[]).forEach((c, i) => { if (members[i]) ownPreTokenizer(members[i], c); });
  }
  if (config.type === 'BertPreTokenizer') part.pre_tokenize_text = bertPreTokenize;
  // The library's splits at JavaScript's \s, which holds U+FEFF; Rust's whitespace does not.
  if (config.type === 'WhitespaceSplit') part.pre_tokenize_text = whitespaceSplit;
  if (config.type === 'Metaspace') {
    const split = metaspace(config as MetaspaceConfig);
    part.pre_tokenize_text = (text: string, options?: { section_index?: number }) => split(text, options?.section_index === 0);
  }
}

interface AddedToken { content: string; normalized: boolean }
interface WithAddedTokens {
  normalizer: unknown;
  added_tokens: AddedToken[];
  added_tokens_map: Map<string, AddedToken>;
  splitter_normalized: object;
}

/**
 * The library matches the added tokens marked "normalized" against the normalized text in the forms its
 * own normalizer gave them while it was built; with our normalizer in place those forms are made again
 * (a Lowercase file's added "ΑΣ" is "ασ" in the text, not the library's "ας").
 */
export function renormalizeAddedTokens(hf: object): void {
  const lib = hf as WithAddedTokens;
  if (typeof lib.normalizer !== 'function' || !Array.isArray(lib.added_tokens) || !(lib.added_tokens_map instanceof Map)) return;
  const normalize = lib.normalizer as (text: string) => string;
  const contents = new Set(lib.added_tokens.map((t) => t.content));
  for (const key of [...lib.added_tokens_map.keys()]) if (!contents.has(key)) lib.added_tokens_map.delete(key);
  const normalized: string[] = [];
  for (const token of lib.added_tokens) {
    if (!token.normalized) continue;
    const form = normalize(token.content);
    normalized.push(form);
    lib.added_tokens_map.set(form, token);
  }
  const Splitter = lib.splitter_normalized.constructor as new (words: string[]) => object;
  lib.splitter_normalized = new Splitter(normalized);
}
