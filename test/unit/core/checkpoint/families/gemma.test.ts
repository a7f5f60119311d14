// Gemma (1) (src/core/checkpoint/families/gemma.ts, on the GeGLU decoder geglu-decoder.ts): its block
// as data; its keys (hidden_act not read, as Hugging Face's Gemma code does not read it;
// hidden_activation other than the tanh GELU, attention biases, a scaled RoPE other than linear
// refused naming the key; head_dim 256 and a tied head when absent); the embeddings' √hidden_size held
// in the weights' dtype as PyTorch rounds it; and, on a tiny checkpoint with gemma-2b's published
// config keys (one key/value head, BF16), every layer's and head's attention weight and the five most
// likely next tokens against the float64 PyTorch reference (test/reference/families/gemma.py) to
// 1e-9, `attn run --json` to 1e-4 (it prints float32), and the lens on a head showing the run's weights.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gemma } from '../../../../../src/core/checkpoint/families/gemma.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { roundedTo } from '../../../../../src/core/checkpoint/ops.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import { attn } from '../../../../support/cli.js';
import { configOf, distance, generated, loadFolder, printedDistance, referenceRuns, referenceScript, type RunJson } from '../../../../support/torch-reference.js';

const SCRIPT = referenceScript('gemma');
const TEXT = 'the cat sat on the mat. the cat ate the rat';
let root = '';

before(() => {
  const g = generated(SCRIPT);
  root = g.root;
  assert.ok(g.cases.includes('gemma-2b'), g.cases.join(', '));
});

const read = (extra: object) => readModelConfig(JSON.stringify({ ...configOf(join(root, 'gemma-2b')), ...extra }));

test('the block: pre-RMSNorm times (1 + w), RoPE, nn.Linear, separate q/k/v without biases, GeGLU, √d-scaled embeddings', () => {
  assert.deepEqual(gemma.block, {
    kind: 'sequential', norm: { kind: 'rmsnorm', placement: 'pre', offset: 1 }, position: 'rope', matrices: 'linear', qkv: 'separate',
    bias: { qkv: false, o: false, mlp: false }, mlp: 'geglu', embedScale: 'sqrt-d-model',
  });
});

test('the keys: hidden_act is not read, hidden_activation is; head_dim 256 and a tied head when absent; what is not computed is refused by key', () => {
  const c = read({});
  assert.deepEqual([c.type, c.kvHeads, c.headDim, c.tied, c.attention, c.scoreDivisor, c.softcap, c.layerAttention, c.layerRope], ['gemma', 1, 8, true, { kind: 'causal' }, undefined, undefined, undefined, undefined]);
  assert.equal(read({ hidden_act: 'relu' }).type, 'gemma');
  assert.equal(read({ hidden_activation: 'gelu_pytorch_tanh' }).type, 'gemma');
  assert.throws(() => read({ hidden_activation: 'gelu' }), /^ModelError: config\.json: "hidden_activation": "gelu" is not supported \(attn computes GeGLU with the tanh GELU, gelu_pytorch_tanh\)$/);
  assert.throws(() => read({ attention_bias: true }), /^ModelError: config\.json: "attention_bias": true is not supported/);
  assert.throws(() => read({ rope_scaling: { rope_type: 'dynamic', factor: 2 } }), /^ModelError: config\.json: "rope_scaling": \{"rope_type":"dynamic","factor":2\} is not supported/);
  // transformers 5 saves rope_parameters: one object for every layer of this family.
  assert.deepEqual(read({ rope_theta: undefined, rope_scaling: undefined, rope_parameters: { rope_type: 'linear', rope_theta: 500, factor: 2 } }).layerRope?.[0], { theta: 500, linear: 2 });
  assert.equal(read({ rope_theta: undefined, rope_scaling: undefined, rope_parameters: { rope_type: 'default', rope_theta: 500 } }).ropeTheta, 500);
  assert.throws(() => read({ rope_scaling: undefined, rope_parameters: { rope_type: 'default', rope_theta: 500 } }), /^ModelError: config\.json: "rope_theta" 10000 and "rope_parameters"'s rope_theta 500 disagree/);
  assert.throws(() => read({ rope_scaling: undefined, rope_parameters: { full_attention: { rope_type: 'default' } } }), /^ModelError: config\.json: "rope_parameters": .* is not supported \(attn reads one \{ "rope_type", "rope_theta" \} for every layer of this family\)$/);
  assert.throws(() => read({ rope_scaling: { rope_type: 'linear', factor: 2 }, rope_parameters: { rope_type: 'default' } }), /^ModelError: config\.json: "rope_scaling": .* is not supported \(rope_parameters is given too/);
  assert.throws(() => read({ num_key_value_heads: undefined }), /^ModelError: config\.json: "num_key_value_heads" is missing/);
  const bare = read({ head_dim: undefined, tie_word_embeddings: undefined });
  assert.deepEqual([bare.headDim, bare.tied], [256, true]);
  // Linear scaling: every layer's frequencies divided by the factor.
  assert.deepEqual(read({ rope_scaling: { type: 'linear', factor: 4 } }).layerRope?.[1], { theta: 10000, linear: 4 });
  const { names, shapes } = namesOf(read({ tie_word_embeddings: false }), () => false);
  assert.deepEqual([names.head, shapes.get('model.layers.1.self_attn.k_proj.weight'), names.layers[0].norm2, names.layers[0].postAttnNorm],
    ['lm_head.weight', [8, 24], 'model.layers.0.post_attention_layernorm.weight', undefined]);
});

test('√hidden_size as PyTorch holds it: float32, then the weights\' dtype, to nearest even', () => {
  // Values printed by torch 1.13: torch.tensor(24 ** 0.5, dtype=torch.bfloat16) and the like.
  assert.equal(roundedTo(Math.sqrt(24), 'BF16'), 4.90625);
  assert.equal(roundedTo(Math.sqrt(24), 'F16'), 4.8984375);
  assert.equal(roundedTo(Math.sqrt(1152), 'BF16'), 34);
  assert.equal(roundedTo(Math.sqrt(3072), 'BF16'), 55.5);
  assert.equal(roundedTo(Math.sqrt(2048), 'BF16'), 45.25);
  assert.equal(roundedTo(Math.sqrt(24), 'F32'), Math.fround(Math.sqrt(24)));
  assert.equal(roundedTo(Math.sqrt(24), 'F64'), Math.sqrt(24));
  // Through float32: 1 + 2⁻⁸ + 2⁻³⁰ is 1 + 2⁻⁸ there, a tie, which goes to the even 1 (torch gives 1.0).
  assert.equal(roundedTo(1 + 2 ** -8 + 2 ** -30, 'BF16'), 1);
  assert.equal(roundedTo(1 + 2 ** -11 + 2 ** -30, 'F16'), 1);
  assert.equal(roundedTo(1 + 3 * 2 ** -8, 'BF16'), 1 + 2 ** -6);
});

test('gemma-2b\'s keys, BF16: every weight and the next tokens\' p as the float64 reference computes them (1e-9); attn run prints them (1e-4)', async () => {
  const dir = join(root, 'gemma-2b');
  const r = await attn('run', dir, '--text', TEXT, '--json');
  assert.equal(r.code, 0, r.err);
  const run = JSON.parse(r.out) as RunJson;
  assert.ok(run.ids.length >= 10, `${run.ids.length} tokens`);
  assert.deepEqual(run.model, { type: 'gemma', layers: 2, heads: 4, kvHeads: 1, dModel: 24, headDim: 8, vocab: 300, precision: 'f32' });
  const [ref] = referenceRuns(SCRIPT, [{ dir, ids: run.ids }]);
  const exact = distance(loadFolder(dir), run.ids, ref);
  assert.ok(exact.weight < 1e-9 && exact.p < 1e-9, JSON.stringify(exact));
  const printed = printedDistance(run, ref);
  assert.ok(printed.weight < 1e-4 && printed.p < 1e-4, JSON.stringify(printed));
});

test('the factor\'s rounding is seen: with √24 as float32 rather than BF16\'s 4.90625, the BF16 checkpoint is not the reference\'s', () => {
  const dir = join(root, 'gemma-2b');
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3];
  const [ref] = referenceRuns(SCRIPT, [{ dir, ids }]);
  const m = loadFolder(dir);
  assert.equal(m.weights.dtype('model.embed_tokens.weight'), 'BF16');
  assert.ok(distance(m, ids, ref).weight < 1e-9);
  m.weights.dtype = () => 'F32';
  const off = distance(m, ids, ref);
  assert.ok(off.weight > 1e-7, JSON.stringify(off));
});

test('the lens on a gemma head: q and k rotated, its key/value head, the run\'s weights, divided by √head_dim', async () => {
  const dir = join(root, 'gemma-2b');
  const m = loadFolder(dir);
  const run = JSON.parse((await attn('run', dir, '--text', TEXT, '--json', '--precision', 'f64')).out) as RunJson;
  const n = run.ids.length;
  const lens = headLens(m, run.ids, run.ids.map(String), 1, 3);
  assert.deepEqual([lens.kvHead, lens.rotary, lens.scale, lens.window], [0, true, Math.sqrt(8), undefined]);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(Math.fround(lens.weights[i * n + j]), Math.fround(run.attention[1][3][i][j]));
});
