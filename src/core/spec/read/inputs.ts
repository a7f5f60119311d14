// The embedding table and the inputs: each token resolved to its vector, each input's own mask.
import { isFileRef, readFileMatrix } from './file-ref.js';
import { childAt, propertyNode, type Node } from '../../json/json-tree.js';
import type { JsonPath } from '../../json/path.js';
import type { InputSpec, TokenSpec } from '../spec.js';
import type { Dimensions } from './dimensions.js';
import { count, describe, spanOf, type Reader } from './values.js';
import { listSome, quote } from '../../json/quote.js';

/** Longest input read at all (a quick early refusal); the cell limit in read/limits.ts has the last word. */
export const MAX_TOKENS = 2048;
/** Inputs one spec may have: a few sentences to compare, not a corpus. Checked before any is read. */
export const MAX_INPUTS = 256;
/** The keys of an input, and of a token written as an object. */
export const INPUT_KEYS = ['name', 'tokens', 'mask'] as const;
export const TOKEN_KEYS = ['text', 'embedding'] as const;

/**
 * The embedding table, with a case-insensitive index built once (a lookup per token stays O(1)),
 * and the words whose own vector was broken, so a token using one gets no second problem.
 */
export class Vocabulary {
  readonly table = new Map<string, Float64Array>();
  private readonly broken = new Set<string>();
  private readonly byLowerCase = new Map<string, string[]>();

  add(word: string, vector: Float64Array): void {
    this.table.set(word, vector);
    // Appended in place: copying the list on every add made many case variants of one word quadratic.
    const lower = word.toLowerCase();
    const same = this.byLowerCase.get(lower);
    if (same) same.push(word);
    else this.byLowerCase.set(lower, [word]);
  }

  markBroken(word: string): void {
    this.broken.add(word.toLowerCase());
  }

  /** Exact word first; otherwise a unique case-insensitive match, so "Apple" finds "apple". */
  lookUp(word: string): Float64Array | undefined {
    const exact = this.table.get(word);
    if (exact) return exact;
    const matches = this.byLowerCase.get(word.toLowerCase());
    return matches?.length === 1 ? this.table.get(matches[0]) : undefined;
  }

  /** The words that differ from `word` only by case, when there are several (so a lookup cannot choose). */
  ambiguous(word: string): readonly string[] | undefined {
    const matches = this.byLowerCase.get(word.toLowerCase());
    return matches && matches.length > 1 && !this.table.has(word) ? matches : undefined;
  }

  /**
   * A few of `cases` (one ambiguous()'s answer) for a message, listed once per set of case variants:
   * listing them anew for each token made 65,536 variants × 131,072 tokens minutes of work.
   */
  listCases(cases: readonly string[]): string {
    let text = this.listed.get(cases);
    if (text === undefined) {
      text = `${listSome(cases.slice(0, 4).map((c) => JSON.stringify(c)), 4)}${cases.length > 4 ? ` and ${cases.length - 4} more` : ''}`;
      this.listed.set(cases, text);
    }
    return text;
  }

  private readonly listed = new Map<readonly string[], string>();

  /** True when the word's own entry in "embeddings" already has a problem. */
  isBroken(word: string): boolean {
    return this.broken.has(word.toLowerCase());
  }

  /** A few known words, for the unknown-token message. */
  sample(count = 12): string {
    return listSome(this.table.keys(), count);
  }
}

export function readEmbeddings(r: Reader, root: Node, dims: Dimensions): Vocabulary {
  const vocabulary = new Vocabulary();
  const node = childAt(root, 'embeddings');
  if (isFileRef(node)) return fileEmbeddings(r, node!, dims, vocabulary);
  if (!node || !r.object(node, ['embeddings'], 'a table of word → vector')) return vocabulary;
  const what = dims.featuresGiven ? 'd_model, the number of features' : 'd_model, the length of the first embedding';
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (!key || !value) continue;
    const word = key.value as string;
    const vector = r.vector(value, ['embeddings', word], { length: dims.dModel, what });
    if (vector) vocabulary.add(word, vector);
    else vocabulary.markBroken(word);
  }
  return vocabulary;
}

/** { "file": "emb.npy", "words": [...] }: row i of the file's matrix is the embedding of words[i]. */
function fileEmbeddings(r: Reader, node: Node, dims: Dimensions, vocabulary: Vocabulary): Vocabulary {
  const wordsNode = childAt(node, 'words');
  if (!wordsNode || wordsNode.type !== 'array') {
    r.error(wordsNode ?? node, ['embeddings', 'words'], 'give "words": the word of each row of the file, in order');
    return vocabulary;
  }
  const m = readFileMatrix(r, node, ['embeddings'], ['words']);
  if (!m) return vocabulary;
  const words = wordsNode.children ?? [];
  if (words.length !== m.rows) {
    r.error(wordsNode, ['embeddings', 'words'], `${words.length} words for the ${m.rows} rows of the file: give one word per row`);
    return vocabulary;
  }
  if (m.cols !== dims.dModel) {
    r.error(childAt(node, 'file')!, ['embeddings', 'file'], `the file's rows are ${m.cols} wide, but d_model is ${dims.dModel} (the number of features)`);
    return vocabulary;
  }
  const seen = new Set<string>();
  words.forEach((w, i) => {
    const word = r.string(w, ['embeddings', 'words', i], 'a word');
    if (word === undefined) return;
    if (seen.has(word)) {
      r.error(w, ['embeddings', 'words', i], `${quote(word)} is listed twice`);
      return;
    }
    seen.add(word);
    vocabulary.add(word, m.data.slice(i * m.cols, (i + 1) * m.cols));
  });
  return vocabulary;
}

// The known words are listed in the first unknown-token message only: repeated in every one of
// thousands of problems they once made gigabytes of messages.
const listedKnownWords = new WeakSet<Reader>();

function unknownToken(r: Reader, node: Node, path: JsonPath, vocabulary: Vocabulary, text: string): undefined {
  if (vocabulary.isBroken(text)) return undefined; // its broken embedding already has its own problem
  const word = quote(text);
  const cases = vocabulary.ambiguous(text);
  if (cases) {
    return r.error(node, path, `token ${word} matches ${vocabulary.listCases(cases)} in "embeddings" ` +
      'when case is ignored, so it is not clear which one is meant: write it exactly as one of them');
  }
  let known = '';
  if (!listedKnownWords.has(r)) {
    listedKnownWords.add(r);
    const sample = vocabulary.sample();
    known = sample ? ` (known: ${sample})` : '';
  }
  return r.error(node, path, `unknown token ${word}: it has no entry in "embeddings"${known}; ` +
    `add one, or write the token as { "text": ${word}, "embedding": [...] }`);
}

export function readToken(r: Reader, node: Node, path: JsonPath, vocabulary: Vocabulary, dims: Dimensions): TokenSpec | undefined {
  if (node.type === 'string') {
    const text = node.value as string;
    const embedding = vocabulary.lookUp(text);
    if (!embedding) return unknownToken(r, node, path, vocabulary, text);
    return { text, embedding, inline: false, span: spanOf(node) };
  }
  if (node.type === 'object') {
    r.unknownKeys(node, path, new Set(TOKEN_KEYS));
    const textNode = childAt(node, 'text');
    const vecNode = childAt(node, 'embedding');
    if (!textNode) return r.error(node, path, 'an inline token needs "text"');
    const text = r.string(textNode, [...path, 'text']);
    if (text === undefined) return undefined;
    if (!vecNode) {
      const embedding = vocabulary.lookUp(text);
      if (!embedding) return unknownToken(r, textNode, [...path, 'text'], vocabulary, text);
      return { text, embedding, inline: false, span: spanOf(textNode) };
    }
    const embedding = r.vector(vecNode, [...path, 'embedding'], { length: dims.dModel, what: 'd_model' });
    return embedding ? { text, embedding, inline: true, span: spanOf(textNode) } : undefined;
  }
  return r.error(node, path, `expected a token (a word from "embeddings", or { "text", "embedding" }), got ${describe(node)}`);
}

export function readInputMask(r: Reader, node: Node, path: JsonPath, n: number): boolean[][] | undefined {
  const m = r.matrix(node, path, { count: n, what: 'one row per token' }, 'a mask: a list of rows of 1 (may attend) and 0 (hidden), one row per token');
  if (!m) return undefined;
  if (m.cols !== n) return r.error(node, path, `${count(m.cols, 'column')}, expected ${n} (one per token)`);
  for (let i = 0; i < m.data.length; i++) {
    const v = m.data[i];
    if (v !== 0 && v !== 1) {
      const rowI = Math.floor(i / n), colJ = i % n;
      return r.error(node.children![rowI].children![colJ], [...path, rowI, colJ], `mask entries are 1 (may attend) or 0 (hidden), got ${v}`);
    }
  }
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => m.data[i * n + j] === 1));
}

export function readInputs(r: Reader, root: Node, vocabulary: Vocabulary, dims: Dimensions): InputSpec[] | undefined {
  const node = childAt(root, 'inputs');
  if (!node) return r.error(propertyNode(root, 'embeddings') ?? r.rootKeySpan(root), ['inputs'], 'missing "inputs": give at least one { "name": "...", "tokens": [...] }');
  if (node.type !== 'array' || (node.children?.length ?? 0) === 0) {
    return r.error(node, ['inputs'], `expected a non-empty list of inputs, got ${describe(node)}`);
  }
  if (node.children!.length > MAX_INPUTS) {
    return r.error(node, ['inputs'], `${node.children!.length.toLocaleString('en-US')} inputs, more than the ${MAX_INPUTS} one spec may have`);
  }
  const inputs: InputSpec[] = [];
  let ok = true;
  node.children!.forEach((inputNode, i) => {
    const path = ['inputs', i];
    if (!r.object(inputNode, path, 'an input { "name", "tokens" }')) { ok = false; return; }
    r.unknownKeys(inputNode, path, new Set(INPUT_KEYS));
    const nameNode = childAt(inputNode, 'name');
    const name = nameNode ? r.string(nameNode, [...path, 'name']) : `input ${i + 1}`;
    const tokensNode = childAt(inputNode, 'tokens');
    if (!tokensNode) { ok = false; r.error(inputNode, path, 'missing "tokens": a list of words'); return; }
    if (tokensNode.type !== 'array' || (tokensNode.children?.length ?? 0) === 0) {
      ok = false; r.error(tokensNode, [...path, 'tokens'], `expected a non-empty list of tokens, got ${describe(tokensNode)}`); return;
    }
    if (tokensNode.children!.length > MAX_TOKENS) {
      ok = false; r.error(tokensNode, [...path, 'tokens'], `${tokensNode.children!.length} tokens, more than the ${MAX_TOKENS} one input may have`); return;
    }
    const tokens = tokensNode.children!.map((t, j) => readToken(r, t, [...path, 'tokens', j], vocabulary, dims));
    const maskNode = childAt(inputNode, 'mask');
    const mask = maskNode ? readInputMask(r, maskNode, [...path, 'mask'], tokens.length) : undefined;
    if (name === undefined || tokens.some((t) => !t) || (maskNode && !mask)) { ok = false; return; }
    inputs.push({ name, tokens: tokens as TokenSpec[], ...(mask ? { mask } : {}), span: spanOf(inputNode) });
  });
  return ok ? inputs : undefined;
}
