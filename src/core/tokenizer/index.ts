// The tokenizer of a model folder: tokenizer.json when the folder has one, else GPT-2's vocab.json +
// merges.txt, else BERT's vocab.txt. Every failure is a TokenizerError naming the file; see bpe-tokenizer.ts for why the
// rules come from @huggingface/tokenizers rather than a BPE of our own.
import { bpeTokenizer } from './bpe-tokenizer.js';
import { cachedTokenizer } from './cache/cached-load.js';
import type { TokenizerSource, TokenizerStore } from './cache/source.js';
import { parseJsonFile } from './check-json.js';
import { vocabTxtTokenizerJson } from './bert-files.js';
import { vocabMergesTokenizerJson } from './gpt2-files.js';
import { type Tokenizer, type TokenizerFiles, TokenizerError } from './tokenizer.js';

export { TokenizerError } from './tokenizer.js';
export type { Encoding, Tokenizer, TokenizerFiles } from './tokenizer.js';
export type { TokenizerSource, TokenizerStore } from './cache/source.js';

/**
 * With `cache` (the file's identity as read, and a store on disk when the entry point has one), a
 * tokenizer.json is built once and reused (cache/cached-load.ts).
 */
export function tokenizerFrom(files: TokenizerFiles, cache?: { source: TokenizerSource; store?: TokenizerStore }): Tokenizer {
  if (files.tokenizerJson !== undefined) {
    if (cache) return cachedTokenizer(files.tokenizerJson, cache.source, cache.store);
    return bpeTokenizer(parseJsonFile(files.tokenizerJson, 'tokenizer.json'));
  }
  const { vocabJson, mergesTxt } = files;
  if (vocabJson !== undefined && mergesTxt !== undefined) {
    const { json, sources } = vocabMergesTokenizerJson(vocabJson, mergesTxt);
    return bpeTokenizer(json, sources);
  }
  if (files.vocabTxt !== undefined && vocabJson === undefined && mergesTxt === undefined) {
    return bpeTokenizer(vocabTxtTokenizerJson(files.vocabTxt, files.tokenizerConfigJson), { vocab: 'vocab.txt', merges: 'vocab.txt', mergeAt: (i) => `line ${i + 1}` });
  }
  if (vocabJson !== undefined) throw new TokenizerError('merges.txt: is missing (vocab.json without merges.txt and no tokenizer.json)');
  if (mergesTxt !== undefined) throw new TokenizerError('vocab.json: is missing (merges.txt without vocab.json and no tokenizer.json)');
  throw new TokenizerError('tokenizer.json: is missing (and there is no vocab.json + merges.txt, nor vocab.txt, either)');
}
