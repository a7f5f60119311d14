// The BPE put into the library's tokenizer from a digest (src/core/tokenizer/cache/install-bpe.ts) is
// the one the library builds from the whole tokenizer.json: on the real files (Llama 2, Llama 3,
// Qwen3) and a GPT-2-shaped one, the same piece → id map in the same order, the same id → piece list
// (added tokens written over both), the same unk id, and every merge — and pairs that are not merges —
// ranked alike by the library's add_node and ours. Merge ranks alone: a pair listed twice keeps its last rank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTokenizerJson } from '../../../../../src/core/tokenizer/check-json.js';
import { digestBpe, emptiedBpe } from '../../../../../src/core/tokenizer/cache/bpe-digest.js';
import { installBpe } from '../../../../../src/core/tokenizer/cache/install-bpe.js';
import { mergeRanks } from '../../../../../src/core/tokenizer/cache/merge-ranks.js';
import { LibraryTokenizer } from '../../../../../src/core/tokenizer/library.js';
import type { Obj } from '../../../../../src/core/json/object.js';
import { lenmlTokenizerJson } from '../../../../support/real-tokenizers.js';
import { tinyTokenizerJson } from '../../../../support/tiny-tokenizer.js';
import { between, seeded } from '../../../../support/random.js';

interface Node { token: string; bias: number; score?: number; next: Node }
interface Bpe { tokens_to_ids: Map<string, number>; vocab: string[]; unk_token_id?: number; add_node(q: { push(n: Node): void }, n: Node): void }

/** The score add_node gives the pair (a, b), or undefined when it does not queue it. */
function score(model: Bpe, a: string, b: string): number | undefined {
  const node = { token: a, bias: 0.25, next: { token: b } } as Node;
  let pushed: number | undefined;
  model.add_node({ push: (n) => { pushed = n.score; } }, node);
  return pushed;
}

function sameAsLibrary(name: string, text: string, pairs: [string, string][] = []): void {
  const json = checkTokenizerJson(JSON.parse(text));
  const model = json.model as Obj;
  const whole = new LibraryTokenizer(json, {});
  const digested = digestBpe(model);
  const { digest } = digested;
  const ours = new LibraryTokenizer({ ...json, model: emptiedBpe(model) }, {});
  installBpe(ours, digested);
  const a = whole.model as unknown as Bpe, b = ours.model as unknown as Bpe;
  assert.deepEqual([...b.tokens_to_ids], [...a.tokens_to_ids], `${name}: tokens_to_ids`);
  assert.deepEqual(b.vocab, a.vocab, `${name}: vocab`);
  assert.equal(b.unk_token_id, a.unk_token_id, `${name}: unk_token_id`);
  const merges = model.merges as [string, string][];
  for (const [x, y] of merges) assert.equal(score(b, x, y), score(a, x, y), `${name}: the merge ${x} ${y}`);
  for (const [x, y] of pairs) assert.equal(score(b, x, y), score(a, x, y), `${name}: the pair ${x} ${y}`);
  const rand = seeded(5);
  const pieces = digest.pieces;
  for (let i = 0; i < 2000; i++) {
    const x = pieces[between(rand, 0, pieces.length - 1)], y = rand() < 0.1 ? 'not a piece' : pieces[between(rand, 0, pieces.length - 1)];
    assert.equal(score(b, x, y), score(a, x, y), `${name}: the pair ${x} ${y}`);
  }
}

for (const name of ['llama2', 'llama3', 'qwen3'] as const) {
  test(`${name}: the BPE from its digest is the library's own`, () => sameAsLibrary(name, lenmlTokenizerJson(name)));
}

test('a GPT-2-shaped vocabulary (merges as "a b" strings): the BPE from its digest is the library\'s own', () => {
  const json = JSON.parse(tinyTokenizerJson(5000)) as { model: { merges: [string, string][] | string[] } };
  json.model.merges = (json.model.merges as [string, string][]).map(([a, b]) => `${a} ${b}`);
  sameAsLibrary('gpt2', JSON.stringify(json));
});

test('ids that do not name one piece (shared, or taken by an added token): ranks by the pieces themselves, as the library', () => {
  const json = JSON.parse(tinyTokenizerJson(600)) as { model: { vocab: Record<string, number>; merges: [string, string][] }; added_tokens: object[] };
  const [x, y] = json.model.merges[0];
  const added = (content: string, id: number) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: false });
  // "Xq" takes the id of x, the first piece of the first merge: by ids, ("Xq", y) would be that merge.
  json.added_tokens.push(added('Xq', json.model.vocab[x]));
  sameAsLibrary('an added token with a piece\'s id', JSON.stringify(json), [['Xq', y], [x, y]]);
  json.added_tokens.pop();
  // "zq" shares y's id.
  json.model.vocab.zq = json.model.vocab[y];
  sameAsLibrary('two pieces with one id', JSON.stringify(json), [[x, 'zq'], [x, y]]);
  // An added token giving a piece of a merge another id.
  delete json.model.vocab.zq;
  json.added_tokens.push(added(x + y, 600));
  sameAsLibrary('an added token giving a piece another id', JSON.stringify(json), [[x, y]]);
});

test('merge ranks: as a Map of the pairs, a pair listed twice keeping its last rank', () => {
  const rand = seeded(9);
  for (let round = 0; round < 20; round++) {
    const pieces = between(rand, 1, 60), count = between(rand, 0, 300);
    const pairs = new Uint32Array(2 * count);
    for (let i = 0; i < pairs.length; i++) pairs[i] = between(rand, 0, pieces - 1);
    const map = new Map<string, number>();
    for (let i = 0; i < count; i++) map.set(`${pairs[2 * i]},${pairs[2 * i + 1]}`, i);
    const ranks = mergeRanks(pairs);
    for (let a = 0; a < pieces; a++) for (let b = 0; b < pieces; b++) assert.equal(ranks.rank(a, b), map.get(`${a},${b}`) ?? -1, `round ${round}: (${a}, ${b})`);
  }
});
