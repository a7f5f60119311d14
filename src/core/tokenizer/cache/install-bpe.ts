// Puts a BPE digest (bpe-digest.ts) into the library's tokenizer built around an empty BPE, leaving it
// as the library would have built it from the whole tokenizer.json: its BPE's constructor makes
// tokens_to_ids from the vocabulary object, the id → piece list and the unk id from it, and then the
// tokenizer's constructor writes each added token over both. Only the merge lookup differs: the
// library's add_node asks a Map keyed by JSON.stringify([a, b]); ours asks merge-ranks.ts by the pieces'
// indexes, which gives the same rank for the same pair.
import type { BpeDigest } from './bpe-digest.js';
import { mergeRanks } from './merge-ranks.js';

interface LibraryBpe {
  tokens_to_ids: Map<string, number>;
  vocab: string[];
  unk_token?: string | null;
  unk_token_id?: number;
  merges: unknown[];
  bpe_ranks: Map<string, number>;
  add_node(queue: { push(node: unknown): void }, node: BpeNode): void;
}
interface BpeNode { token: string; bias: number; score?: number; next: BpeNode }

/** `hf` is the library's tokenizer built with an emptied BPE (bpe-digest.ts); `index` is pieceIndex(digest.pieces). */
export function installBpe(hf: { model: unknown; added_tokens?: unknown }, digest: BpeDigest, index: Map<string, number>): void {
  const model = hf.model as LibraryBpe;
  const { pieces, ids } = digest;
  const tokens = new Map<string, number>();
  for (let i = 0; i < pieces.length; i++) tokens.set(pieces[i], ids[i]);
  const vocab = new Array<string>(tokens.size);
  for (let i = 0; i < pieces.length; i++) vocab[ids[i]] = pieces[i];
  model.tokens_to_ids = tokens;
  model.vocab = vocab;
  model.unk_token_id = typeof model.unk_token === 'string' ? tokens.get(model.unk_token) : undefined;
  for (const token of (hf.added_tokens ?? []) as { content: string; id: number }[]) {
    tokens.set(token.content, token.id);
    vocab[token.id] = token.content;
  }
  const ranks = mergeRanks(digest.merges);
  model.add_node = (queue, node) => {
    const a = index.get(node.token);
    const b = a === undefined ? undefined : index.get(node.next.token);
    const rank = b === undefined ? -1 : ranks.rank(a as number, b);
    if (rank >= 0) {
      node.score = rank + node.bias;
      queue.push(node);
    }
  };
}
