// GPT-NeoX / Pythia (src/core/checkpoint/families/gpt_neox.ts) with pythia-70m's and pythia-160m's
// published config keys, sizes shrunk: its keys read (rotary_pct and rotary_emb_base, or transformers
// 5's rope_parameters; use_parallel_residual; attention_bias; tie_word_embeddings; rope_scaling and
// any hidden_act but gelu refused naming the key), its tensors (q, k and v as each head's rows of
// query_key_value [3 · hidden, hidden], with biases), and on tiny random checkpoints every layer's
// and head's attention weight and the top five next-token probabilities against the independent
// PyTorch forward (test/reference/families/phi_neox.py): 1e-9 in float64, 1e-4 against its float32
// run, parallel and sequential; a kept model's reuse equal to a fresh run bit for bit; the lens on a
// head cut from its rows of query_key_value; and hostile rotary_pct values and fused shapes drawn from
// a seeded generator, each refused in one line naming the key or the tensor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { ModelError } from '../../../../../src/core/checkpoint/error.js';
import { gpt_neox } from '../../../../../src/core/checkpoint/families/gpt_neox.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel, runText } from '../../../../../src/core/checkpoint/model.js';
import { ropeTables } from '../../../../../src/core/checkpoint/ops.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import type { TensorRef } from '../../../../../src/core/tensors/attention-file.js';
import type { Tokenizer } from '../../../../../src/core/tokenizer/tokenizer.js';
import { differences, reference } from '../../../../support/family-reference.js';
import { PYTHIA_160M_CONFIG, PYTHIA_70M_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';
import { ABSENT, changed, readOrRefused } from '../../../../support/hostile-config.js';

const CONFIG = PYTHIA_70M_CONFIG;
const text = (extra: object) => JSON.stringify({ ...CONFIG, ...extra });
const IDS = [3, 17, 5, 5, 39, 0, 12, 8, 3, 21, 4, 30, 9];

test('the published keys: pre-LayerNorm with biases, RoPE on rotary_pct of each head, exact GELU, parallel, embed_out untied', () => {
  const c = readModelConfig(JSON.stringify(CONFIG));
  assert.deepEqual(c.block, {
    kind: 'parallel', norm: { kind: 'layernorm', placement: 'pre' }, position: 'rope', matrices: 'linear', qkv: 'separate',
    bias: { qkv: true, o: true, mlp: true }, mlp: 'gelu',
  });
  assert.deepEqual(gpt_neox.block, c.block);
  assert.deepEqual([c.type, c.heads, c.kvHeads, c.headDim, c.ffn, c.eps, c.ropeTheta, c.rotaryDims, c.tied, c.contextLength], ['gpt_neox', 4, 4, 8, 64, 1e-5, 10000, 2, false, 64]);
  assert.deepEqual(c.attention, { kind: 'causal' });
  assert.equal(readModelConfig(JSON.stringify(PYTHIA_160M_CONFIG)).rotaryDims, 4);
  // Absent keys take GPTNeoXConfig's defaults: rotary_pct 0.25, base 10,000, parallel, biases.
  const bare = readModelConfig(text({ rotary_pct: undefined, rotary_emb_base: undefined, use_parallel_residual: undefined }));
  assert.deepEqual([bare.rotaryDims, bare.ropeTheta, bare.block.kind], [2, 10000, 'parallel']);
});

test('use_parallel_residual false is sequential; attention_bias false drops q/k/v and dense biases; tie_word_embeddings ties embed_out', () => {
  assert.equal(readModelConfig(text({ use_parallel_residual: false })).block.kind, 'sequential');
  const plain = readModelConfig(text({ attention_bias: false }));
  assert.deepEqual(plain.block.bias, { qkv: false, o: false, mlp: true });
  const { names, shapes } = namesOf(plain, () => false);
  assert.equal([...shapes.keys()].some((n) => /query_key_value\.bias|attention\.dense\.bias/.test(n)), false);
  assert.deepEqual([names.layers[0].qBias, names.layers[0].oBias], [undefined, undefined]);
  assert.equal(namesOf(readModelConfig(text({ tie_word_embeddings: true })), () => false).names.head, 'gpt_neox.embed_in.weight');
  assert.throws(() => readModelConfig(text({ use_parallel_residual: 'yes' })), /^ModelError: config\.json: "use_parallel_residual" must be true or false, got "yes"$/);
});

test('refused naming the key: rope_scaling, another hidden_act, hidden_size not a multiple of the heads, two bases or shares that disagree', () => {
  assert.throws(() => readModelConfig(text({ rope_scaling: { type: 'linear', factor: 2 } })), /^ModelError: config\.json: "rope_scaling": \{"type":"linear","factor":2\} is not supported \(/);
  for (const act of ['gelu_new', 'relu', 'gelu_fast']) assert.throws(() => readModelConfig(text({ hidden_act: act })), new RegExp(`^ModelError: config\\.json: "hidden_act": "${act}" is not supported \\(`));
  assert.throws(() => readModelConfig(text({ hidden_size: 30 })), /^ModelError: config\.json: "hidden_size" 30 is not a multiple of "num_attention_heads" 4$/);
  assert.throws(() => readModelConfig(text({ rope_theta: 500 })), /^ModelError: config\.json: "rope_theta" 500 and "rotary_emb_base" 10000 disagree/);
  assert.throws(() => readModelConfig(text({ partial_rotary_factor: 0.5 })), /^ModelError: config\.json: "partial_rotary_factor" 0\.5 and "rotary_pct" 0\.25 disagree/);
  assert.equal(readModelConfig(text({ rope_theta: 10000, partial_rotary_factor: 0.25 })).rotaryDims, 2);
  // transformers 5's save: rope_parameters holds both.
  const v5 = readModelConfig(text({ rotary_pct: undefined, rotary_emb_base: undefined, rope_parameters: { rope_type: 'default', rope_theta: 500, partial_rotary_factor: 0.5 } }));
  assert.deepEqual([v5.ropeTheta, v5.rotaryDims], [500, 4]);
  // Beside Pythia's own keys, rope_parameters must agree with them: transformers 4 reads one, 5 the other.
  assert.throws(() => readModelConfig(text({ rope_parameters: { rope_theta: 500 } })), /^ModelError: config\.json: "rotary_emb_base" 10000 and "rope_parameters\.rope_theta" 500 disagree/);
  assert.throws(() => readModelConfig(text({ rope_parameters: { partial_rotary_factor: 0.5 } })), /^ModelError: config\.json: "rotary_pct" 0\.25 and "rope_parameters\.partial_rotary_factor" 0\.5 disagree/);
  assert.equal(readModelConfig(text({ rope_parameters: { rope_type: 'default', rope_theta: 10000, partial_rotary_factor: 0.25 } })).rotaryDims, 2);
  assert.throws(() => readModelConfig(text({ rope_parameters: { rope_type: 'dynamic', factor: 2 } })), /^ModelError: config\.json: "rope_parameters": .* is not supported/);
});

test('hostile rotary_pct and rotary_emb_base (drawn from a seeded generator): a one-line refusal naming the key, or RoPE tables without a NaN', () => {
  const values = fc.oneof(
    fc.constantFrom<unknown>(0, -0.25, 1.0000001, 2, 1e300, 5e-324, 1e-310, 'a quarter', true, [], {}, null),
    fc.double({ min: -2, max: 3, noNaN: true }),
    fc.double({ min: 1e-320, max: 1e-2 }),
  );
  // Heads of 8, 32 and 64 dims (θ's smallest values overflow only in the widest).
  const shapes = fc.constantFrom([32, 4], [32, 1], [64, 1]);
  fc.assert(fc.property(fc.constantFrom('rotary_pct', 'rotary_emb_base'), values, shapes, fc.boolean(), (key, value, [hidden, heads], whole) => {
    let c;
    try {
      c = readModelConfig(text({ hidden_size: hidden, num_attention_heads: heads, ...(whole ? { rotary_pct: 1 } : {}), [key]: value }));
    } catch (e) {
      assert.ok(e instanceof ModelError, String(e));
      assert.match(e.message, new RegExp(`^config\\.json: "${key}"`));
      assert.doesNotMatch(e.message, /\n|NaN|undefined/);
      return;
    }
    const dims = c.rotaryDims!;
    assert.ok(Number.isInteger(dims) && dims >= 2 && dims % 2 === 0 && dims <= c.headDim, `${key} ${String(value)}: ${dims} of ${c.headDim}`);
    const { cos, sin } = ropeTables(c.contextLength, dims, c.ropeTheta, c.contextLength - 1);
    for (const v of [...cos, ...sin]) assert.ok(Number.isFinite(v), `${key} ${String(value)}`);
  }), { seed: 31, numRuns: 1500 });
  // The classes named: none to rotate, more than the head, an odd count, angles that overflow.
  assert.throws(() => readModelConfig(text({ rotary_pct: 0 })), /^ModelError: config\.json: "rotary_pct" must be a number above 0 and at most 1 .*, got 0$/);
  assert.throws(() => readModelConfig(text({ rotary_pct: 1.5 })), /^ModelError: config\.json: "rotary_pct" must be a number above 0 and at most 1/);
  assert.throws(() => readModelConfig(text({ rotary_pct: 0.1 })), /^ModelError: config\.json: "rotary_pct" 0\.1 rotates 0 of the head's 8 dims; RoPE needs an even number of them, at least 2$/);
  assert.throws(() => readModelConfig(text({ rotary_pct: 0.375 })), /"rotary_pct" 0\.375 rotates 3 of the head's 8 dims/);
  // Before the check: 1 / 5e-324^(62/64) is Infinity, and position 0 × Infinity is NaN in every weight.
  const one = { hidden_size: 64, num_attention_heads: 1, rotary_pct: 1 };
  assert.throws(() => readModelConfig(text({ ...one, rotary_emb_base: 5e-324 })), /^ModelError: config\.json: "rotary_emb_base": 5e-324 is not supported \(RoPE's angle position \/ θ\^\(2i\/64\) overflows at 64 positions\)$/);
  assert.equal(readModelConfig(text({ ...one, rotary_pct: 0.25, rotary_emb_base: 5e-324 })).rotaryDims, 16);
});

test('the tensors: query_key_value [3 · hidden, hidden] and its bias; q, k, v are each head\'s rows of it, in turn', () => {
  const c = readModelConfig(JSON.stringify(CONFIG));
  const { names, shapes } = namesOf(c, () => false);
  const qkv = 'gpt_neox.layers.1.attention.query_key_value.weight', bias = 'gpt_neox.layers.1.attention.query_key_value.bias';
  assert.deepEqual([shapes.get(qkv), shapes.get(bias), shapes.get('gpt_neox.layers.1.mlp.dense_h_to_4h.weight'), shapes.get('embed_out.weight')], [[96, 32], [96], [64, 32], [40, 32]]);
  const l = names.layers[1];
  assert.deepEqual([l.q, l.k, l.v, l.qBias, l.vBias].map((n) => names.parts!.get(n!)), [
    { of: qkv, blocks: 4, from: 0, count: 8 }, { of: qkv, blocks: 4, from: 8, count: 8 }, { of: qkv, blocks: 4, from: 16, count: 8 },
    { of: bias, blocks: 4, from: 0, count: 8 }, { of: bias, blocks: 4, from: 16, count: 8 }]);
});

// Against the reference: pythia-70m's keys (parallel), pythia-160m's (three heads of 16 dims, 4
// rotated), sequential, no attention biases with a tied head, and the whole head rotated.
const CASES: { name: string; config: object; seed: number }[] = [
  { name: 'pythia-70m keys', config: CONFIG, seed: 51 },
  { name: 'pythia-160m keys', config: PYTHIA_160M_CONFIG, seed: 52 },
  { name: 'use_parallel_residual false', config: { ...CONFIG, use_parallel_residual: false }, seed: 53 },
  { name: 'attention_bias false, tied', config: { ...CONFIG, attention_bias: false, tie_word_embeddings: true }, seed: 54 },
  { name: 'rotary_pct 1, base 500', config: { ...CONFIG, rotary_pct: 1, rotary_emb_base: 500 }, seed: 55 },
];

test('every layer\'s and head\'s weight and the top five p agree with the PyTorch reference: 1e-9 in float64, 1e-4 in float32', () => {
  const runs = CASES.map((k) => ({ checkpoint: tinyCheckpoint(k.config, k.seed), ids: IDS }));
  const wide = reference(runs, 'float64'), narrow = reference(runs, 'float32');
  runs.forEach((run, i) => {
    const exact = differences(run.checkpoint, run.ids, wide[i]), rough = differences(run.checkpoint, run.ids, narrow[i]);
    assert.ok(exact.weight < 1e-9 && exact.p < 1e-9, `${CASES[i].name}: float64 differences ${JSON.stringify(exact)}`);
    assert.ok(rough.weight < 1e-4 && rough.p < 1e-4, `${CASES[i].name}: float32 differences ${JSON.stringify(rough)}`);
  });
  // Not vacuous: the same tensors run sequentially give other weights in the second layer.
  const parallel = forward(...loaded(tinyCheckpoint(CONFIG, 53)), IDS, { precision: 'f64' });
  const sequential = forward(...loaded(runs[2].checkpoint), IDS, { precision: 'f64' });
  assert.deepEqual(parallel.attention[0], sequential.attention[0]);
  assert.notDeepEqual(parallel.attention[1], sequential.attention[1]);
});

function loaded(checkpoint: { configText: string; tensors: Map<string, TensorRef> }) {
  const m = loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f64' });
  return [m.config, m.names, m.weights] as const;
}

const chars: Tokenizer = {
  vocabSize: 40,
  encode: (t) => ({ ids: [...t].map((ch) => ch.charCodeAt(0) % 40), pieces: [...t] }),
  decodeOne: (id) => `t${id}`,
};
const bytesOf = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('a model decodes each saved tensor once per run, kept once for all; a kept model\'s reused runs equal fresh runs bit for bit', () => {
  const { configText, tensors } = tinyCheckpoint(PYTHIA_160M_CONFIG, 56);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  for (const [t, reused] of [['The cat sat on the mat', 0], ['The cat sat on a hat', 15], ['The c', 4]] as const) {
    const got = runText(kept, chars, t), fresh = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, t);
    assert.equal(got.reused, reused, t);
    got.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(fresh.attention[l])), `${t}: layer ${l}`));
    assert.deepEqual(got.next.map((n) => [n.id, n.p]), fresh.next.map((n) => [n.id, n.p]), t);
  }
  assert.equal(kept.weights.decoded, tensors.size);
  // Not kept: a run still decodes each saved tensor once, q, k and v (and their biases) one after the other from it.
  const once = loadModel(configText, tensors, { precision: 'f64' });
  runText(once, chars, 'The cat sat');
  assert.equal(once.weights.decoded, tensors.size);
});

test('the lens on a head: W_Q, W_K, W_V and their biases are its rows of query_key_value, q is rotated in its first rotary dims only', () => {
  const { configText, tensors } = tinyCheckpoint(PYTHIA_160M_CONFIG, 57);
  const model = loadModel(configText, tensors, { precision: 'f64' });
  const run = runText(model, { ...chars, encode: () => ({ ids: IDS, pieces: IDS.map(String) }) }, 'any');
  const E = 48, D = 16, R = 4, head = 2, n = IDS.length;
  const numbers = (name: string) => { const t = tensors.get(name)!; return new Float32Array(t.source.read(t.offset, t.shape.reduce((a, b) => a * b, 1) * 4).slice().buffer); };
  const w = numbers('gpt_neox.layers.1.attention.query_key_value.weight'), b = numbers('gpt_neox.layers.1.attention.query_key_value.bias');
  const lens = headLens(model, IDS, run.tokens, 1, head);
  assert.deepEqual([lens.kvHead, lens.rotary, lens.window], [head, true, undefined]);
  for (let r = 0; r < D; r++) {
    for (let e = 0; e < E; e++) {
      assert.equal(lens.wq[e * D + r], w[(head * 3 * D + r) * E + e]);
      assert.equal(lens.wk[e * D + r], w[(head * 3 * D + D + r) * E + e]);
      assert.equal(lens.wv[e * D + r], w[(head * 3 * D + 2 * D + r) * E + e]);
    }
    assert.deepEqual([lens.bq![r], lens.bk![r], lens.bv![r]], [b[head * 3 * D + r], b[head * 3 * D + D + r], b[head * 3 * D + 2 * D + r]]);
  }
  // Past the rotary dims q is x · W_Q + b_Q as projected; at position 0 every dim is.
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < D; r++) {
      let projected = lens.bq![r];
      for (let e = 0; e < E; e++) projected += lens.x[i * E + e] * lens.wq[e * D + r];
      if (r >= R || i === 0) assert.ok(Math.abs(lens.q[i * D + r] - projected) < 1e-12, `q[${i}][${r}]`);
      else if (i === n - 1 && r === 0) assert.ok(Math.abs(lens.q[i * D + r] - projected) > 1e-6, 'the rotary dims are rotated');
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(Math.fround(lens.weights[i * n + j]), run.attention[1][head * n * n + i * n + j]);
});

test('hostile shapes of query_key_value and its bias (a wrong first dimension, one not divisible by 3, a wrong rank) are refused in one line naming the tensor', () => {
  const good = tinyCheckpoint(CONFIG, 58);
  fc.assert(fc.property(fc.constantFrom('weight', 'bias'), fc.integer({ min: 0, max: 1 }), fc.constantFrom('rows', 'rank'), fc.integer({ min: -40, max: 40 }).filter((d) => d !== 0), (kind, layer, what, delta) => {
    const name = `gpt_neox.layers.${layer}.attention.query_key_value.${kind}`;
    const t = good.tensors.get(name)!;
    const shape = what === 'rank' ? [...t.shape, 1] : [Math.max(1, t.shape[0] + delta), ...t.shape.slice(1)];
    const tensors = new Map(good.tensors);
    tensors.set(name, { ...t, shape });
    assert.throws(() => loadModel(good.configText, tensors, { precision: 'f64' }), (e: Error) => {
      assert.ok(e instanceof ModelError, String(e));
      assert.equal(e.message, `model.safetensors: tensor "${name}" has shape [${shape.join(', ')}] but config.json implies [${t.shape.join(', ')}]`);
      return true;
    });
  }), { seed: 32, numRuns: 200 });
});

// Values a typo, a bad conversion or an attacker writes, as hostile-config.test.ts draws them for the other families.
const HOSTILE: unknown[] = [ABSENT, null, 0, -1, 0.5, 1, 2, 3, 7, 64, 1e300, 2 ** 53, 5e-324, 1e-310, '8', 'true', '', true, false, [], [8], {},
  { rope_type: 'default' }, { rope_type: 'default', rope_theta: 5e-324, partial_rotary_factor: 1 }, { rope_type: 'linear', factor: 2 }, { type: 'dynamic', factor: 2 }, 'gelu_new'];
const KEYS = ['hidden_size', 'num_attention_heads', 'num_hidden_layers', 'intermediate_size', 'max_position_embeddings', 'vocab_size', 'layer_norm_eps',
  'rotary_pct', 'rotary_emb_base', 'rope_theta', 'partial_rotary_factor', 'rope_scaling', 'rope_parameters', 'use_parallel_residual', 'attention_bias',
  'tie_word_embeddings', 'hidden_act'];

test('hostile config.json values (seeded): a one-sentence refusal naming config.json and a key, or a config that computes without NaN', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...HOSTILE)), { minLength: 1, maxLength: 3 }), (changes) => {
    const json = changed({ ...PYTHIA_70M_CONFIG, hidden_size: 64, num_attention_heads: 1 }, changes);
    const c = readOrRefused(json, /^config\.json: "[a-z_.]+"/);
    if (!c) return;
    for (const size of [c.layers, c.heads, c.dModel, c.headDim, c.vocab, c.contextLength, c.ffn]) assert.ok(Number.isInteger(size) && size >= 1, JSON.stringify(json));
    assert.equal(c.dModel, c.heads * c.headDim);
    assert.ok(c.eps > 0 && Number.isFinite(c.eps));
    assert.equal(c.block.kind, json.use_parallel_residual === false ? 'sequential' : 'parallel');
    assert.equal(c.block.bias.qkv, json.attention_bias !== false);
    const dims = c.rotaryDims!;
    assert.ok(Number.isInteger(dims) && dims >= 2 && dims % 2 === 0 && dims <= c.headDim);
    const { cos, sin } = ropeTables(c.contextLength, dims, c.ropeTheta, c.contextLength - 1);
    for (const v of [...cos, ...sin]) assert.ok(Number.isFinite(v), JSON.stringify(json));
  }), { seed: 20261127, numRuns: 3000 });
});
