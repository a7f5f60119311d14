// Puts a BPE digest (bpe-digest.ts) into the library's tokenizer built around an empty BPE, leaving it
// as the library would have built it from the whole tokenizer.json: its BPE's constructor makes
// tokens_to_ids from the vocabulary object, the id → piece list and the unk id from it, and then the
// tokenizer's constructor writes each added token over both. Only the merge lookup differs: the
// library's add_node asks a Map keyed by JSON.stringify([a, b]); ours asks merge-ranks.ts, which gives
// the same rank for the same pair.
import { type DigestedBpe, pieceIndex } from './bpe-digest.js';
import { mergeRanks } from './merge-ranks.js';

interface LibraryBpe {
  tokens_to_ids: Map<string, number>;
  vocab: string[];
  unk_token?: string | null;
  unk_token_id?: number;
  add_node(queue: { push(node: unknown): void }, node: BpeNode): void;
}
interface BpeNode { token: string; bias: number; score?: number; next: BpeNode }
interface AddedToken { content: string; id: number }

/** `hf` is the library's tokenizer built with an emptied BPE (bpe-digest.ts); `bpe.tokens` becomes its tokens_to_ids. */
export function installBpe(hf: { model: unknown; added_tokens?: unknown }, { digest, tokens }: DigestedBpe): void {
  const model = hf.model as LibraryBpe;
  const { pieces, ids } = digest;
  const added = (hf.added_tokens ?? []) as AddedToken[];
  const vocab = new Array<string>(tokens.size);
  for (let i = 0; i < pieces.length; i++) vocab[ids[i]] = pieces[i];
  const byIds = idsAreKeys(digest.ids, vocab, tokens, added);
  // Merge ranks by the pieces' ids when an id names one piece, before and after the added tokens are
  // written over the map (real files: always); else by their indexes, through a map of their own.
  const index = byIds ? tokens : pieceIndex(pieces);
  const merges = byIds ? digest.merges.map((i) => ids[i]) : digest.merges;
  model.tokens_to_ids = tokens;
  model.vocab = vocab;
  model.unk_token_id = typeof model.unk_token === 'string' ? tokens.get(model.unk_token) : undefined;
  for (const token of added) {
    tokens.set(token.content, token.id);
    vocab[token.id] = token.content;
  }
  const ranks = mergeRanks(merges);
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

/**
 * Whether a piece's id (in tokens_to_ids, added tokens written over it) says which piece it is: no two
 * pieces share an id, and no added token gives a piece another id or takes the id of another piece.
 */
function idsAreKeys(ids: Int32Array, vocab: string[], tokens: Map<string, number>, added: AddedToken[]): boolean {
  let named = 0;
  for (let id = 0; id < vocab.length; id++) if (vocab[id] !== undefined) named++;
  if (named !== ids.length) return false;
  for (const { content, id } of added) {
    const own = tokens.get(content);
    if (own !== undefined ? own !== id : vocab[id] !== undefined) return false;
  }
  return true;
}
