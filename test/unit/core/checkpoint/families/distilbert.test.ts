// DistilBERT (src/core/checkpoint/families/distilbert.ts) on tiny checkpoints with
// distilbert-base-uncased's published config keys: dim, n_heads, n_layers, hidden_dim, activation;
// no token types; every LayerNorm's eps 1e-12 whatever layer_norm_eps says (DistilBERT's code fixes
// it); every weight and the five guesses at each [MASK] as the float64 PyTorch reference computes
// them, to 1e-9; every head attends ahead of its query; a DistilBertModel without its head runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../../src/core/checkpoint/model.js';
import type { TensorRef } from '../../../../../src/core/tensors/attention-file.js';
import { agreesWith, assertBidirectional, reference, writeCheckpoint } from '../../../../support/encoder-reference.js';
import { tempDir } from '../../../../support/temp-dir.js';
import { DISTILBERT_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';

const scratch = tempDir('attn-distilbert-');
const MASK = 4;

test('distilbert-base-uncased\'s keys: its own size names, eps 1e-12, no token types; activation other than gelu refused', () => {
  const c = readModelConfig(JSON.stringify({ ...DISTILBERT_CONFIG, layer_norm_eps: 0.5 }));
  assert.deepEqual([c.type, c.layers, c.heads, c.dModel, c.ffn, c.vocab, c.contextLength, c.eps, c.tokenTypes], ['distilbert', 2, 4, 16, 24, 40, 32, 1e-12, undefined]);
  assert.deepEqual(c.block.embeddings, { tokenType: false, norm: true });
  assert.throws(() => readModelConfig(JSON.stringify({ ...DISTILBERT_CONFIG, activation: 'relu' })), /^ModelError: config\.json: "activation": "relu" is not supported \(attn computes the exact \(erf\) GELU\)$/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...DISTILBERT_CONFIG, n_heads: 5 })), /^ModelError: config\.json: "dim" 16 is not a multiple of "n_heads" 5$/);
  assert.ok(!tinyCheckpoint(DISTILBERT_CONFIG).tensors.has('distilbert.embeddings.token_type_embeddings.weight'));
});

const IDS = [2, 17, MASK, 5, 39, 0, 12, 8, MASK, 3];
const AT = [2, 8];

test('every weight of every layer and head, and the five guesses at each [MASK], agree with the float64 reference to 1e-9', () => {
  const checkpoints = [1, 2].map((seed) => tinyCheckpoint(DISTILBERT_CONFIG, seed));
  const dirs = checkpoints.map((k, i) => writeCheckpoint(join(scratch, `distilbert-${i}`), k));
  const want = reference(dirs.map((dir) => ({ dir, ids: IDS, at: AT })), scratch);
  checkpoints.forEach((k, i) => agreesWith(k, IDS, AT, want[i], 1e-9));
});

test('every head attends ahead of its query; a DistilBertModel saved without its head (bare names) runs the same attention', () => {
  const k = tinyCheckpoint(DISTILBERT_CONFIG, 3);
  const full = loadModel(k.configText, k.tensors, { precision: 'f64' });
  const attention = forward(full.config, full.names, full.weights, IDS, { precision: 'f64' }).attention;
  assertBidirectional(attention, full.config.heads, IDS.length);
  const bare = new Map<string, TensorRef>();
  for (const [name, t] of k.tensors) if (name.startsWith('distilbert.')) bare.set(name.slice(11), { ...t, name: name.slice(11) });
  const headless = loadModel(k.configText, bare, { precision: 'f64' });
  assert.equal(headless.names.head, undefined);
  assert.deepEqual(forward(headless.config, headless.names, headless.weights, IDS, { precision: 'f64' }).attention, attention);
});
