// BERT (src/core/checkpoint/families/bert.ts) on tiny checkpoints with bert-base-uncased's published
// config keys: its keys read and its refusals named; every layer's and head's attention weight and
// the five most likely tokens at each [MASK] as the float64 PyTorch reference computes them
// (test/reference/families/bert.py) to 1e-9; every head attends ahead of its query; a kept model
// neither reuses nor keeps (an edit at the end changes every row); a BertModel saved without its head
// runs and says once why it guesses nothing; the lens on a head shows the run's full matrix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel, MAX_GUESSED, runText } from '../../../../../src/core/checkpoint/model.js';
import type { TensorRef } from '../../../../../src/core/tensors/attention-file.js';
import type { Tokenizer } from '../../../../../src/core/tokenizer/tokenizer.js';
import { agreesWith, assertBidirectional, reference, writeCheckpoint } from '../../../../support/encoder-reference.js';
import { tempDir } from '../../../../support/temp-dir.js';
import { BERT_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';

const scratch = tempDir('attn-bert-');

const MASK = 4;
/** A tokenizer of one id per character: "?" is [MASK] (id 4), [CLS] and [SEP] around the text. */
const chars: Tokenizer = {
  vocabSize: 40,
  encode: (text) => {
    const ids = [2, ...[...text].map((ch) => (ch === '?' ? MASK : 5 + (ch.charCodeAt(0) % 35))), 3];
    return { ids, pieces: ids.map((id) => (id === MASK ? '[MASK]' : id === 2 ? '[CLS]' : id === 3 ? '[SEP]' : `p${id}`)) };
  },
  decodeOne: (id) => `t${id}`,
};

test('bert-base-uncased\'s keys: sizes, layer_norm_eps, type_vocab_size; bidirectional post-norm with token types and an MLM head', () => {
  const c = readModelConfig(JSON.stringify(BERT_CONFIG));
  assert.deepEqual([c.type, c.layers, c.heads, c.kvHeads, c.dModel, c.headDim, c.ffn, c.vocab, c.contextLength, c.eps, c.tokenTypes, c.tied], ['bert', 2, 4, 4, 16, 4, 24, 40, 32, 1e-12, 2, true]);
  assert.deepEqual(c.attention, { kind: 'bidirectional' });
  assert.deepEqual([c.block.norm.placement, c.block.mlp, c.block.head, c.block.embeddings], ['post', 'gelu', 'mlm', { tokenType: true, norm: true }]);
});

test('what the block does not compute is refused in one sentence naming config.json and the key', () => {
  const refused: [Record<string, unknown>, RegExp][] = [
    [{ position_embedding_type: 'relative_key' }, /^config\.json: "position_embedding_type": "relative_key" is not supported \(attn computes absolute learned positions\)$/],
    [{ is_decoder: true }, /^config\.json: "is_decoder": true is not supported/],
    [{ add_cross_attention: true }, /^config\.json: "add_cross_attention": true is not supported/],
    [{ hidden_act: 'relu' }, /^config\.json: "hidden_act": "relu" is not supported \(attn computes the exact \(erf\) GELU\)$/],
    [{ hidden_act: 'gelu_new' }, /"hidden_act": "gelu_new" is not supported/],
    [{ hidden_size: 18 }, /^config\.json: "hidden_size" 18 is not a multiple of "num_attention_heads" 4$/],
    [{ type_vocab_size: 0 }, /^config\.json: "type_vocab_size" must be a whole number/],
  ];
  for (const [change, message] of refused) {
    assert.throws(() => readModelConfig(JSON.stringify({ ...BERT_CONFIG, ...change })), (e: Error) => e.name === 'ModelError' && message.test(e.message), JSON.stringify(change));
  }
});

const IDS = [2, 17, 5, MASK, 39, 0, 12, MASK, 3];
const AT = [3, 7];

test('every weight of every layer and head, and the five guesses at each [MASK], agree with the float64 reference to 1e-9', () => {
  const checkpoints = [1, 2].map((seed) => tinyCheckpoint(BERT_CONFIG, seed));
  const dirs = checkpoints.map((k, i) => writeCheckpoint(join(scratch, `bert-${i}`), k));
  const want = reference(dirs.map((dir) => ({ dir, ids: IDS, at: AT })), scratch);
  checkpoints.forEach((k, i) => agreesWith(k, IDS, AT, want[i], 1e-9));
});

test('every head attends to keys after its query: the matrix is full, not a triangle', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 3);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  assertBidirectional(forward(m.config, m.names, m.weights, IDS, { precision: 'f64' }).attention, m.config.heads, IDS.length);
});

test('a kept model neither reuses nor keeps: an edit at the end changes every row, as a fresh run computes it', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 5);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  const first = runText(kept, chars, 'the cat ? on');
  const edited = runText(kept, chars, 'the cat ? at');
  const fresh = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, 'the cat ? at');
  assert.equal(kept.kept, undefined);
  assert.equal(edited.reused, 0);
  const n = edited.ids.length, heads = kept.config.heads;
  for (let l = 0; l < kept.config.layers; l++) {
    assert.deepEqual(edited.attention[l], fresh.attention[l]);
    // Not vacuous: row 0 (the [CLS]) changed though only the last character did.
    for (let h = 0; h < heads; h++) assert.notDeepEqual(edited.attention[l].subarray(h * n * n, h * n * n + n), first.attention[l].subarray(h * n * n, h * n * n + n));
  }
  assert.deepEqual(edited.masked, fresh.masked);
});

test('a run guesses at each [MASK], keeps "next" empty, and says why when there is none', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 7);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  const r = runText(m, chars, 'a ? b ?');
  assert.deepEqual(r.next, []);
  assert.deepEqual(r.masked!.map((g) => g.position), [3, 7]);
  for (const g of r.masked!) {
    assert.equal(g.guesses.length, 5);
    assert.ok(g.guesses.every((t, k) => k === 0 || t.p <= g.guesses[k - 1].p));
  }
  assert.equal(r.note, undefined);
  const none = runText(m, chars, 'a b');
  assert.deepEqual([none.next, none.masked], [[], []]);
  assert.match(none.note!, /^the text holds no mask token \(\[MASK\] or <mask>\)/);
});

test('a text of more mask tokens than a run guesses at: the first 64, and a note saying so', () => {
  const config = { ...BERT_CONFIG, max_position_embeddings: 80 };
  const { configText, tensors } = tinyCheckpoint(config, 8);
  const r = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, '?'.repeat(70));
  assert.equal(r.masked!.length, MAX_GUESSED);
  assert.deepEqual([r.masked![0].position, r.masked!.at(-1)!.position], [1, 64]);
  assert.equal(r.note, 'the text holds 70 mask tokens; the guesses are at the first 64');
});

/** The BertModel layout: the encoder's names without "bert.", no cls.* head. */
function bare(tensors: Map<string, TensorRef>, prefix: string, head: (name: string) => boolean): Map<string, TensorRef> {
  const out = new Map<string, TensorRef>();
  for (const [name, t] of tensors) if (!head(name)) out.set(name.slice(prefix.length), { ...t, name: name.slice(prefix.length) });
  return out;
}

test('a BertModel saved without its head (bare names, or "bert." without cls.*) runs the same attention and says once it guesses nothing', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 9);
  const full = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, 'a ? b');
  const isHead = (name: string) => name.startsWith('cls.');
  const headless = [bare(tensors, 'bert.', isHead), new Map([...tensors].filter(([name]) => !isHead(name)))];
  for (const files of headless) {
    const r = runText(loadModel(configText, files, { precision: 'f64' }), chars, 'a ? b');
    assert.deepEqual(r.attention, full.attention);
    assert.deepEqual([r.next, r.masked], [[], undefined]);
    assert.equal(r.note, 'this bert checkpoint was saved without its masked-token head, so it guesses no token');
  }
});

test('TensorFlow-converted names (LayerNorm gamma and beta) are read as weight and bias', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 11);
  const renamed = new Map<string, TensorRef>();
  for (const [name, t] of tensors) {
    const to = name.replace(/LayerNorm\.weight$/, 'LayerNorm.gamma').replace(/LayerNorm\.bias$/, 'LayerNorm.beta');
    renamed.set(to, { ...t, name: to });
  }
  assert.ok([...renamed.keys()].some((n) => n.endsWith('.gamma')));
  assert.deepEqual(runText(loadModel(configText, renamed, { precision: 'f64' }), chars, 'a ? b').masked, runText(loadModel(configText, tensors, { precision: 'f64' }), chars, 'a ? b').masked);
});

test('the lens on a bidirectional head: the run\'s full matrix, weight above the diagonal, q = x · W_Q + b_Q', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 13);
  const m = loadModel(configText, tensors, { precision: 'f64' });
  const run = runText(m, chars, 'the ? sat');
  const n = run.ids.length;
  const lens = headLens(m, run.ids, run.tokens, 1, 2);
  assert.deepEqual([lens.rotary, lens.window, lens.bidirectional], [false, undefined, true]);
  let above = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      assert.equal(Math.fround(lens.weights[i * n + j]), run.attention[1][2 * n * n + i * n + j]);
      if (j > i) above += lens.weights[i * n + j];
    }
  }
  assert.ok(above > 0.1 * n);
  // Post-norm: the head reads the layer's input itself (no norm before attention).
  assert.deepEqual(lens.x, lens.residual);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < lens.headDim; d++) {
      let q = lens.bq![d];
      for (let e = 0; e < lens.dModel; e++) q += lens.x[i * lens.dModel + e] * lens.wq[e * lens.headDim + d];
      assert.ok(Math.abs(q - lens.q[i * lens.headDim + d]) < 1e-12);
    }
  }
});
