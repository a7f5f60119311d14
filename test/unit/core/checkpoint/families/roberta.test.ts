// RoBERTa (src/core/checkpoint/families/roberta.ts) on tiny checkpoints with roberta-base's published
// config keys: positions counted from pad_token_id + 1 (a pad id in the text keeps row pad and does not
// advance the count), so of max_position_embeddings rows two fewer are a text's; every weight and the
// five guesses at each <mask> as the float64 PyTorch reference computes them, to 1e-9; every head
// attends ahead of its query; a RobertaModel without its head runs and guesses nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../../src/core/checkpoint/model.js';
import type { TensorRef } from '../../../../../src/core/tensors/attention-file.js';
import { agreesWith, assertBidirectional, reference, writeCheckpoint } from '../../../../support/encoder-reference.js';
import { tempDir } from '../../../../support/temp-dir.js';
import { ROBERTA_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';

const scratch = tempDir('attn-roberta-');
const PAD = 1, MASK = 39;

test('roberta-base\'s keys: positions from pad_token_id + 1, a context of max_position_embeddings − 2, eps 1e-5, one token type', () => {
  const c = readModelConfig(JSON.stringify(ROBERTA_CONFIG));
  assert.deepEqual([c.type, c.contextLength, c.paddingIdx, c.eps, c.tokenTypes, c.attention.kind], ['roberta', 32, 1, 1e-5, 1, 'bidirectional']);
  assert.equal(readModelConfig(JSON.stringify({ ...ROBERTA_CONFIG, pad_token_id: 0 })).contextLength, 33);
  assert.equal(readModelConfig(JSON.stringify({ ...ROBERTA_CONFIG, pad_token_id: undefined })).paddingIdx, 1);
  assert.throws(() => readModelConfig(JSON.stringify({ ...ROBERTA_CONFIG, pad_token_id: 40 })), /^ModelError: config\.json: "max_position_embeddings" 34 leaves no position after "pad_token_id" \+ 1 = 41$/);
  assert.throws(() => readModelConfig(JSON.stringify({ ...ROBERTA_CONFIG, pad_token_id: -1 })), /^ModelError: config\.json: "pad_token_id" must be a whole number/);
  const m = loadModel(JSON.stringify(ROBERTA_CONFIG), tinyCheckpoint(ROBERTA_CONFIG, 1).tensors, { precision: 'f64' });
  assert.throws(() => forward(m.config, m.names, m.weights, new Array(33).fill(5), { precision: 'f64' }), /33 tokens are more than the model's context length of 32/);
  forward(m.config, m.names, m.weights, new Array(32).fill(5), { precision: 'f64' });
});

// <s> … </s> with two <mask> and a pad id in the middle: its position is row 1 and the count resumes after it.
const IDS = [0, 17, 5, MASK, 39, PAD, 12, MASK, 8, 2];
const AT = [3, 7];

test('every weight of every layer and head, and the five guesses at each <mask>, agree with the float64 reference to 1e-9', () => {
  const checkpoints = [1, 2].map((seed) => tinyCheckpoint(ROBERTA_CONFIG, seed));
  const dirs = checkpoints.map((k, i) => writeCheckpoint(join(scratch, `roberta-${i}`), k));
  const requests = dirs.flatMap((dir) => [{ dir, ids: IDS, at: AT }, { dir, ids: IDS.filter((id) => id !== PAD), at: [3, 6] }]);
  const want = reference(requests, scratch);
  checkpoints.forEach((k, i) => {
    agreesWith(k, IDS, AT, want[2 * i], 1e-9);
    agreesWith(k, requests[2 * i + 1].ids, [3, 6], want[2 * i + 1], 1e-9);
  });
});

test('the positions are RoBERTa\'s: not BERT\'s 0, 1, 2, … (the same tensors counted from 0 give other weights)', () => {
  const k = tinyCheckpoint(ROBERTA_CONFIG, 3);
  const m = loadModel(k.configText, k.tensors, { precision: 'f64' });
  const ours = forward(m.config, m.names, m.weights, IDS, { precision: 'f64' }).attention;
  const fromZero = forward({ ...m.config, paddingIdx: undefined }, m.names, m.weights, IDS, { precision: 'f64' }).attention;
  assert.notDeepEqual(ours[0], fromZero[0]);
  assertBidirectional(ours, m.config.heads, IDS.length);
});

test('a RobertaModel saved without its head (bare names) runs the same attention and has no head', () => {
  const k = tinyCheckpoint(ROBERTA_CONFIG, 5);
  const bare = new Map<string, TensorRef>();
  for (const [name, t] of k.tensors) if (name.startsWith('roberta.')) bare.set(name.slice(8), { ...t, name: name.slice(8) });
  const full = loadModel(k.configText, k.tensors, { precision: 'f64' }), headless = loadModel(k.configText, bare, { precision: 'f64' });
  assert.equal(headless.names.head, undefined);
  assert.deepEqual(forward(headless.config, headless.names, headless.weights, IDS, { precision: 'f64' }).attention, forward(full.config, full.names, full.weights, IDS, { precision: 'f64' }).attention);
});
