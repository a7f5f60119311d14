// The embedding table and the inputs: each token resolved to its vector, each input's own mask.
import { childAt, propertyNode, type Node } from './json-tree.js';
import type { JsonPath } from './path.js';
import type { InputSpec, TokenSpec } from './spec.js';
import type { Dimensions } from './read-dimensions.js';
import { describe, spanOf, type Reader } from './read-values.js';

/** Longest input we compute: n² scores per head must stay quick to draw and to hover. */
export const MAX_TOKENS = 4096;

export function readEmbeddings(r: Reader, root: Node, dims: Dimensions): Map<string, Float64Array> {
  const table = new Map<string, Float64Array>();
  const node = childAt(root, 'embeddings');
  if (!node || !r.object(node, ['embeddings'], 'a table of word → vector')) return table;
  const what = dims.featuresGiven ? 'd_model, the number of features' : 'd_model, the length of the first embedding';
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (!key || !value) continue;
    const word = key.value as string;
    const vector = r.vector(value, ['embeddings', word], { length: dims.dModel, what });
    if (vector) table.set(word, vector);
  }
  return table;
}

/** Exact word first; otherwise a unique case-insensitive match, so "Apple" finds "apple". */
export function lookUp(table: ReadonlyMap<string, Float64Array>, word: string): Float64Array | undefined {
  const exact = table.get(word);
  if (exact) return exact;
  const lower = word.toLowerCase();
  const matches = [...table.keys()].filter((k) => k.toLowerCase() === lower);
  return matches.length === 1 ? table.get(matches[0]) : undefined;
}

export function readToken(r: Reader, node: Node, path: JsonPath, table: ReadonlyMap<string, Float64Array>, dims: Dimensions, tableBroken: boolean): TokenSpec | undefined {
  if (node.type === 'string') {
    const text = node.value as string;
    const embedding = lookUp(table, text);
    if (!embedding) {
      if (tableBroken) return undefined; // the broken embedding already has its own problem
      const known = [...table.keys()].slice(0, 12).join(', ');
      return r.error(node, path, `unknown token "${text}": it has no entry in "embeddings"${known ? ` (known: ${known})` : ''}; add one, or write the token as { "text": "${text}", "embedding": [...] }`);
    }
    return { text, embedding, inline: false, span: spanOf(node) };
  }
  if (node.type === 'object') {
    r.unknownKeys(node, path, new Set(['text', 'embedding']));
    const textNode = childAt(node, 'text');
    const vecNode = childAt(node, 'embedding');
    if (!textNode) return r.error(node, path, 'an inline token needs "text"');
    const text = r.string(textNode, [...path, 'text']);
    if (text === undefined) return undefined;
    if (!vecNode) {
      const embedding = lookUp(table, text);
      if (!embedding) return r.error(node, path, `unknown token "${text}": give it an "embedding" or add it to "embeddings"`);
      return { text, embedding, inline: false, span: spanOf(textNode) };
    }
    const embedding = r.vector(vecNode, [...path, 'embedding'], { length: dims.dModel, what: 'd_model' });
    return embedding ? { text, embedding, inline: true, span: spanOf(textNode) } : undefined;
  }
  return r.error(node, path, `expected a token (a word from "embeddings", or { "text", "embedding" }), got ${describe(node)}`);
}

export function readInputMask(r: Reader, node: Node, path: JsonPath, n: number): boolean[][] | undefined {
  const m = r.matrix(node, path, { count: n, what: 'one row per token' });
  if (!m) return undefined;
  if (m.cols !== n) return r.error(node, path, `${m.cols} columns, expected ${n} (one per token)`);
  for (let i = 0; i < m.data.length; i++) {
    const v = m.data[i];
    if (v !== 0 && v !== 1) {
      const rowI = Math.floor(i / n), colJ = i % n;
      return r.error(node.children![rowI].children![colJ], [...path, rowI, colJ], `mask entries are 1 (may attend) or 0 (hidden), got ${v}`);
    }
  }
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => m.data[i * n + j] === 1));
}

export function readInputs(r: Reader, root: Node, table: ReadonlyMap<string, Float64Array>, dims: Dimensions, tableBroken: boolean): InputSpec[] | undefined {
  const node = childAt(root, 'inputs');
  if (!node) return r.error(propertyNode(root, 'embeddings') ?? r.rootKeySpan(root), ['inputs'], 'missing "inputs": give at least one { "name": "...", "tokens": [...] }');
  if (node.type !== 'array' || (node.children?.length ?? 0) === 0) {
    return r.error(node, ['inputs'], `expected a non-empty list of inputs, got ${describe(node)}`);
  }
  const inputs: InputSpec[] = [];
  let ok = true;
  node.children!.forEach((inputNode, i) => {
    const path = ['inputs', i];
    if (!r.object(inputNode, path, 'an input { "name", "tokens" }')) { ok = false; return; }
    r.unknownKeys(inputNode, path, new Set(['name', 'tokens', 'mask']));
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
    const tokens = tokensNode.children!.map((t, j) => readToken(r, t, [...path, 'tokens', j], table, dims, tableBroken));
    const maskNode = childAt(inputNode, 'mask');
    const mask = maskNode ? readInputMask(r, maskNode, [...path, 'mask'], tokens.length) : undefined;
    if (name === undefined || tokens.some((t) => !t) || (maskNode && !mask)) { ok = false; return; }
    inputs.push({ name, tokens: tokens as TokenSpec[], ...(mask ? { mask } : {}), span: spanOf(inputNode) });
  });
  return ok ? inputs : undefined;
}
