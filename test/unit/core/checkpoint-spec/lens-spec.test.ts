// The lens on a real head (src/core/checkpoint-spec/lens-spec.ts): the spec it writes, read back by the
// spec reader from its tensor file and computed by the core, gives the head's own attention weights
// to 1e-5: for a GPT-2 head with biases (x with a 1 appended, the bias as W's last row) and for a
// rotary head (each token [q | k | v], W_Q, W_K, W_V selecting their third); and a real Mistral
// head with a window shorter than the text, whose band is the input's mask, to 1e-6.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../../../src/core/index.js';
import { folderFiles } from '../../../../src/core/files/spec-files.js';
import { lensSpec, lensWords } from '../../../../src/core/checkpoint-spec/lens-spec.js';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import type { HeadLens } from '../../../../src/core/checkpoint/types.js';
import { fakeHeadLens } from '../../../support/head-lens.js';
import { headLens } from '../../../../src/core/checkpoint/lens.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { BERT_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'attn-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the lens's spec and tensor file, reads and computes it: the computed head. */
function computeLens(lens: HeadLens, stem: string) {
  const { spec, tensors } = lensSpec(lens, { tensorFile: `${stem}.safetensors`, model: 'tiny', query: 3 });
  writeFileSync(join(dir, `${stem}.safetensors`), writeSafetensors(tensors));
  const text = JSON.stringify(spec, null, 2);
  writeFileSync(join(dir, `${stem}.attn.json`), text);
  const a = analyze(text, { files: folderFiles(dir) });
  assert.deepEqual(a.problems.filter((p) => p.severity === 'error'), [], 'the spec reads without errors');
  assert.ok(a.result && a.spec, 'computed');
  return { spec, a, head: a.result.inputs[0].heads[0] };
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol: number, what: string): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  let worst = 0;
  for (let i = 0; i < actual.length; i++) worst = Math.max(worst, Math.abs(actual[i] - expected[i]));
  assert.ok(worst <= tol, `${what}: largest difference ${worst} over ${tol}`);
}

test('a GPT-2 head with biases: attn compute of its spec gives the head\'s weights, q, k and v to 1e-5', () => {
  const lens = fakeHeadLens({ n: 9, dModel: 12, headDim: 4, rotary: false, biases: true });
  const { spec, a, head } = computeLens(lens, 'gpt2-head');
  assertClose(head.weights.data, lens.weights, 1e-5, 'weights');
  assertClose(head.q.data, lens.q, 1e-9, 'q = [x | 1] · W_Q');
  assertClose(head.k.data, lens.k, 1e-9, 'k');
  assertClose(head.v.data, lens.v, 1e-9, 'v');
  assert.equal(a.spec!.dModel, 13, 'd_model + the constant 1');
  assert.equal(a.spec!.features.at(-1), 'one');
  assert.equal(a.spec!.wo?.matrix.rows, 4);
  assert.equal(a.spec!.mask, 'causal');
  assert.match(String(spec.description), /constant 1 appended/);
  // The panel opens on the query asked for, in the steps view.
  assert.equal(a.story?.open?.view, 'steps');
  assert.equal(a.story?.open?.token, 3);
});

test('a rotary head: each token is [q | k | v] after the rotation, and compute gives its weights to 1e-5', () => {
  const lens = fakeHeadLens({ n: 8, dModel: 10, headDim: 6, rotary: true, biases: true, seed: 11 });
  const { spec, a, head } = computeLens(lens, 'llama-head');
  assertClose(head.weights.data, lens.weights, 1e-5, 'weights');
  assertClose(head.q.data, lens.q, 1e-12, 'q selected from [q | k | v]');
  assertClose(head.v.data, lens.v, 1e-12, 'v');
  assert.equal(a.spec!.dModel, 18);
  assert.equal(a.spec!.wo, undefined, 'no W_O in the [q | k | v] space');
  assert.match(String(spec.description), /RoPE/);
  // Without the rotation the head's own W_Q would not give these weights: the selector is needed.
  assert.ok(Math.abs(lens.q[lens.headDim * 5] - (lens.x.subarray(50, 60).reduce((s, x, t) => s + x * lens.wq[t * lens.headDim], 0) + lens.bq![0])) > 1e-6);
});

test('repeated tokens become distinct words (one vector per position), and a lone one keeps its text', () => {
  assert.deepEqual(lensWords(['The', ' cat', 'the', ' cat', '!', '']), ['The#1', ' cat#2', 'the#3', ' cat#4', '!', '#6']);
});

test('a sliding-window head (window 2 over 8 tokens): the spec\'s mask is the band, and compute gives the run\'s weights to 1e-6', () => {
  const config = { ...QWEN2_CONFIG, model_type: 'mistral', num_attention_heads: 6, num_key_value_heads: 2, head_dim: 4, sliding_window: 2, tie_word_embeddings: false };
  const { configText, tensors } = tinyCheckpoint(config, 7);
  const model = loadModel(configText, tensors, { precision: 'f64' });
  const ids = [3, 17, 5, 5, 39, 0, 12, 8], n = ids.length;
  const lens = headLens(model, ids, ids.map((id) => `t${id}`), 1, 4);
  assert.equal(lens.window, 2);
  const { spec, head } = computeLens(lens, 'mistral-head');
  const band = (spec.inputs as { mask: number[][] }[])[0].mask;
  assert.deepEqual(band[3], [0, 0, 1, 1, 0, 0, 0, 0], 'query 3 sees keys 2 and 3');
  assertClose(head.weights.data, lens.weights, 1e-6, 'weights');
  assert.match(String(spec.description), /sliding window of 2 tokens/);
  // Not vacuous: the window hides keys the causal mask alone would show.
  assert.ok(lens.weights.some((w, at) => Math.floor(at / n) === n - 1 && at % n < n - 2 && w === 0));
  assert.ok(head.weights.data.every((w, at) => (at % n <= Math.floor(at / n) - 2 ? w === 0 : true)));
});

test('an encoder\'s head: the spec has no mask, and compute gives the run\'s full matrix to 1e-5, weight above the diagonal', () => {
  const { configText, tensors } = tinyCheckpoint(BERT_CONFIG, 5);
  const ids = [2, 17, 5, 4, 39, 12, 3], n = ids.length;
  const lens = headLens(loadModel(configText, tensors, { precision: 'f64' }), ids, ids.map((id) => `t${id}`), 1, 2);
  const { a, head } = computeLens(lens, 'bert-head');
  assert.equal(a.spec!.mask, 'none');
  assert.match(String(a.story?.description ?? ''), /every token attends to every token, before and after it \(no mask\)/);
  assertClose(head.weights.data, lens.weights, 1e-5, 'weights');
  let above = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) above += head.weights.data[i * n + j];
  assert.ok(above > 0.1 * n, `the computed spec puts ${above} above the diagonal`);
});
