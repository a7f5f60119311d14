// A tokenizer.json's tokenizer, built once: kept in memory while the file's size, mtime and hash stay
// the same (the host's worker runs many texts, and may open several folders), and prepared on disk
// through an injected store for the next process (the CLI starts afresh each run). The cache only ever
// saves work: what it holds is checked as it is read (digest-bytes.ts), anything wrong with it and any
// failure of the store is passed over, and the tokenizer is then built from tokenizer.json's text and
// the entry written again, so the tokens never depend on what the cache held.
import { parseJsonFile, checkTokenizerJson } from '../check-json.js';
import { prepareTokenizer, preparedTokenizer } from '../bpe-tokenizer.js';
import type { Tokenizer } from '../tokenizer.js';
import { digestBytes, preparedFromBytes } from './digest-bytes.js';
import { sameSource, type TokenizerSource, type TokenizerStore } from './source.js';

/** Tokenizers kept in memory: a few (each of a big vocabulary holds tens of MB). */
export const KEPT_TOKENIZERS = 4;
const kept = new Map<string, { source: TokenizerSource; tokenizer: Tokenizer }>();

/** How the last load went, for benchmarks and tests: 'memory', 'disk' or 'built'. */
export let lastLoad: 'memory' | 'disk' | 'built' = 'built';

/** tokenizer.json's tokenizer from its text, as read from `source`, through the caches. */
export function cachedTokenizer(text: string, source: TokenizerSource, store?: TokenizerStore): Tokenizer {
  const hit = kept.get(source.path);
  if (hit && sameSource(hit.source, source)) {
    kept.delete(source.path);
    kept.set(source.path, hit);
    lastLoad = 'memory';
    return hit.tokenizer;
  }
  const tokenizer = (store && fromStore(source, store)) ?? built(text, source, store);
  kept.delete(source.path);
  kept.set(source.path, { source, tokenizer });
  while (kept.size > KEPT_TOKENIZERS) kept.delete(kept.keys().next().value as string);
  return tokenizer;
}

/** Forgets the tokenizers kept in memory. */
export function forgetKeptTokenizers(): void {
  kept.clear();
}

function fromStore(source: TokenizerSource, store: TokenizerStore): Tokenizer | undefined {
  try {
    const bytes = store.read(source);
    if (bytes === undefined) return undefined;
    const tokenizer = preparedTokenizer(preparedFromBytes(bytes));
    lastLoad = 'disk';
    return tokenizer;
  } catch {
    // A damaged or foreign entry, or a store that failed: tokenizer.json is read instead.
    return undefined;
  }
}

function built(text: string, source: TokenizerSource, store: TokenizerStore | undefined): Tokenizer {
  const prepared = prepareTokenizer(checkTokenizerJson(parseJsonFile(text, 'tokenizer.json')));
  // The bytes are made before the build, which keeps references into the JSON it is given.
  const bytes = store ? digestBytes(prepared) : undefined;
  const tokenizer = preparedTokenizer(prepared);
  lastLoad = 'built';
  if (store && bytes) {
    try {
      store.write(source, bytes);
    } catch {
      // A cache that cannot be written is no cache: the run goes on.
    }
  }
  return tokenizer;
}
