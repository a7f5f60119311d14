// Phi-3 (src/core/checkpoint/families/phi3.ts) with Phi-3-mini-4k-instruct's published config keys,
// sizes shrunk: its keys read (sliding_window 2047, null and absent full causal; partial_rotary_factor;
// rope_scaling longrope/su refused naming the key), its tensors (q, k, v as rows of qkv_proj, gate and
// up of gate_up_proj), and on tiny random checkpoints every layer's and head's attention weight and
// the top five next-token probabilities against the independent PyTorch forward
// (test/reference/families/phi_neox.py): 1e-9 in float64, 1e-4 against its float32 run, a text longer
// than the window among them; a kept model's reuse equal to a fresh run bit for bit, each fused tensor
// decoded once; the lens on a head cut from qkv_proj's rows; and hostile shapes of the fused tensors
// drawn from a seeded generator, each refused in one line naming the tensor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { ModelError } from '../../../../../src/core/checkpoint/error.js';
import { phi3 } from '../../../../../src/core/checkpoint/families/phi3.js';
import { rotaryBlock } from '../../../../../src/core/checkpoint/families/shared/rotary-decoder.js';
import { ropeTables } from '../../../../../src/core/checkpoint/ops.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel, runText } from '../../../../../src/core/checkpoint/model.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import type { TensorRef } from '../../../../../src/core/tensors/attention-file.js';
import type { Tokenizer } from '../../../../../src/core/tokenizer/tokenizer.js';
import { differences, reference } from '../../../../support/family-reference.js';
import { PHI3_MINI_4K_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';
import { ABSENT, changed, readOrRefused } from '../../../../support/hostile-config.js';

const CONFIG = PHI3_MINI_4K_CONFIG;
const text = (extra: object) => JSON.stringify({ ...CONFIG, ...extra });
const IDS = [3, 17, 5, 5, 39, 0, 12, 8, 3, 21, 4, 30, 9];

test('the published keys: RMSNorm, rotate-half RoPE θ 10,000, no biases, SwiGLU; sliding_window 2047; lm_head untied', () => {
  const c = readModelConfig(JSON.stringify(CONFIG));
  assert.deepEqual(phi3.block, rotaryBlock(false));
  assert.deepEqual([c.type, c.heads, c.kvHeads, c.headDim, c.ffn, c.eps, c.ropeTheta, c.tied, c.rotaryDims], ['phi3', 4, 4, 4, 24, 1e-5, 10000, false, undefined]);
  assert.deepEqual(c.attention, { kind: 'sliding', window: 2047 });
  assert.deepEqual(readModelConfig(text({ sliding_window: null })).attention, { kind: 'causal' });
  assert.deepEqual(readModelConfig(text({ sliding_window: undefined })).attention, { kind: 'causal' });
  for (const bad of [0, -1, 2.5, '2047', true]) assert.throws(() => readModelConfig(text({ sliding_window: bad })), /^ModelError: config\.json: "sliding_window" must be a whole number/);
});

test('rope_scaling longrope, su or yarn is refused naming the key; partial_rotary_factor rotates int(head_dim · factor) dims', () => {
  for (const type of ['longrope', 'su', 'yarn']) {
    const scaling = { type, long_factor: [1, 1], short_factor: [1, 1] };
    assert.throws(() => readModelConfig(text({ rope_scaling: scaling })), /^ModelError: config\.json: "rope_scaling": \{"type":"\w+".* is not supported \(/);
  }
  assert.equal(readModelConfig(text({ rope_scaling: { rope_type: 'default' } })).ropeTheta, 10000);
  const wide = { hidden_size: 32, num_attention_heads: 2, num_key_value_heads: 2 };
  assert.equal(readModelConfig(text({ ...wide, partial_rotary_factor: 0.5 })).rotaryDims, 8);
  assert.equal(readModelConfig(text({ ...wide, partial_rotary_factor: 0.75 })).rotaryDims, 12);
  assert.equal(readModelConfig(text({ ...wide, partial_rotary_factor: 1 })).rotaryDims, undefined);
  assert.equal(readModelConfig(text({ ...wide, rope_theta: undefined, rope_parameters: { rope_type: 'default', rope_theta: 10000, partial_rotary_factor: 0.5 } })).rotaryDims, 8);
  assert.throws(() => readModelConfig(text({ ...wide, partial_rotary_factor: 0.5, rope_parameters: { partial_rotary_factor: 0.25 } })), /^ModelError: config\.json: "partial_rotary_factor" 0\.5 and "rope_parameters"'s partial_rotary_factor 0\.25 disagree/);
  for (const bad of [0, -0.5, 1.5, 1e300, 'half', 0.05, 0.6]) {
    assert.throws(() => readModelConfig(text({ ...wide, partial_rotary_factor: bad })), /^ModelError: config\.json: "partial_rotary_factor" (must be a number above 0 and at most 1|[0-9.]+ rotates \d+ of the head's 16 dims; RoPE needs an even number)/, String(bad));
  }
});

test('the tensors: qkv_proj [(heads + 2 · kv heads) · head_dim, hidden] and gate_up_proj [2 · intermediate, hidden]; q, k, v, gate and up are their rows', () => {
  const c = readModelConfig(text({ num_key_value_heads: 2, head_dim: 6 }));
  const { names, shapes } = namesOf(c, () => false);
  assert.deepEqual(shapes.get('model.layers.1.self_attn.qkv_proj.weight'), [(4 + 2 * 2) * 6, 16]);
  assert.deepEqual(shapes.get('model.layers.1.mlp.gate_up_proj.weight'), [48, 16]);
  assert.deepEqual(shapes.get('model.layers.1.self_attn.o_proj.weight'), [16, 24]);
  assert.equal([...shapes.keys()].some((n) => /\.[qkv]_proj|gate_proj|mlp\.up_proj|\.bias$/.test(n)), false);
  const l = names.layers[1];
  const qkv = 'model.layers.1.self_attn.qkv_proj.weight', gateUp = 'model.layers.1.mlp.gate_up_proj.weight';
  assert.deepEqual([l.q, l.k, l.v, l.gate, l.up].map((n) => names.parts!.get(n!)), [
    { of: qkv, blocks: 1, from: 0, count: 24 }, { of: qkv, blocks: 1, from: 24, count: 12 }, { of: qkv, blocks: 1, from: 36, count: 12 },
    { of: gateUp, blocks: 1, from: 0, count: 24 }, { of: gateUp, blocks: 1, from: 24, count: 24 }]);
  assert.equal(names.head, 'lm_head.weight');
  assert.equal(namesOf(readModelConfig(text({ tie_word_embeddings: true })), () => false).names.head, 'model.embed_tokens.weight');
});

// The cases against the reference: the published keys (a window of 2047 over 13 tokens), grouped-query
// heads with head_dim given and a tied head, a window of 4 shorter than the text, and half the head rotated.
const CASES: { name: string; config: object; seed: number }[] = [
  { name: 'published keys', config: CONFIG, seed: 41 },
  { name: 'grouped-query, head_dim 6, tied', config: { ...CONFIG, num_attention_heads: 6, num_key_value_heads: 2, head_dim: 6, tie_word_embeddings: true }, seed: 42 },
  { name: 'sliding_window 4 over 13 tokens', config: { ...CONFIG, sliding_window: 4 }, seed: 43 },
  { name: 'partial_rotary_factor 0.5', config: { ...CONFIG, hidden_size: 32, num_attention_heads: 4, num_key_value_heads: 4, partial_rotary_factor: 0.5 }, seed: 44 },
];

test('every layer\'s and head\'s weight and the top five p agree with the PyTorch reference: 1e-9 in float64, 1e-4 in float32', () => {
  const runs = CASES.map((k) => ({ checkpoint: tinyCheckpoint(k.config, k.seed), ids: IDS }));
  const wide = reference(runs, 'float64'), narrow = reference(runs, 'float32');
  runs.forEach((run, i) => {
    const exact = differences(run.checkpoint, run.ids, wide[i]), rough = differences(run.checkpoint, run.ids, narrow[i]);
    assert.ok(exact.weight < 1e-9 && exact.p < 1e-9, `${CASES[i].name}: float64 differences ${JSON.stringify(exact)}`);
    assert.ok(rough.weight < 1e-4 && rough.p < 1e-4, `${CASES[i].name}: float32 differences ${JSON.stringify(rough)}`);
  });
  // Not vacuous: the window hides keys (their reference weights are exactly 0, and our run differs from the causal one).
  const windowed = wide[2].attention[1][0];
  assert.equal(windowed[12][8], 0);
  assert.ok(windowed[12][9] > 0);
  const causal = forward(...loaded(tinyCheckpoint({ ...CONFIG, sliding_window: null }, 43)), IDS, { precision: 'f64' });
  const slid = forward(...loaded(runs[2].checkpoint), IDS, { precision: 'f64' });
  assert.notDeepEqual(causal.attention[1], slid.attention[1]);
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

test('a kept model decodes each fused tensor once and its reused runs equal fresh runs bit for bit', () => {
  const { configText, tensors } = tinyCheckpoint({ ...CONFIG, sliding_window: 3 }, 45);
  const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
  for (const [t, reused] of [['The cat sat on the mat', 0], ['The cat sat on a hat', 15], ['The c', 4]] as const) {
    const got = runText(kept, chars, t), fresh = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, t);
    assert.equal(got.reused, reused, t);
    got.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(fresh.attention[l])), `${t}: layer ${l}`));
    assert.deepEqual(got.next.map((n) => [n.id, n.p]), fresh.next.map((n) => [n.id, n.p]), t);
  }
  // Every saved tensor decoded once: the fused ones too, though five names read from them per layer.
  assert.equal(kept.weights.decoded, tensors.size);
  // The memory estimate counts each saved tensor once, a part as the tensor it is saved in; a part's shape is its rows'.
  const elements = [...tensors.values()].map((t) => t.shape.reduce((a, b) => a * b, 1));
  assert.deepEqual([kept.elements.total, kept.elements.largest], [elements.reduce((a, b) => a + b, 0), Math.max(...elements)]);
  assert.equal(kept.elements.bytes.total, elements.reduce((a, b) => a + b, 0) * 4);
  const l = kept.names.layers[0];
  assert.deepEqual([l.q, l.k, l.v, l.gate, l.up, l.down].map((n) => kept.weights.shape(n!)), [[16, 16], [16, 16], [16, 16], [24, 16], [24, 16], [16, 24]]);
});

test('the lens on a head: W_Q, W_K, W_V are its rows of qkv_proj (transposed), W_O its columns of o_proj; its weights are the run\'s', () => {
  const config = { ...CONFIG, num_attention_heads: 6, num_key_value_heads: 2, head_dim: 4 };
  const { configText, tensors } = tinyCheckpoint(config, 46);
  const model = loadModel(configText, tensors, { precision: 'f64' });
  const run = runText(model, { ...chars, encode: () => ({ ids: IDS, pieces: IDS.map(String) }) }, 'any');
  const E = 16, D = 4, Q = 24, KV = 8, n = IDS.length;
  const numbers = (name: string) => { const t = tensors.get(name)!; return new Float32Array(t.source.read(t.offset, t.shape.reduce((a, b) => a * b, 1) * 4).slice().buffer); };
  const qkv = numbers('model.layers.1.self_attn.qkv_proj.weight'), o = numbers('model.layers.1.self_attn.o_proj.weight');
  const lens = headLens(model, IDS, run.tokens, 1, 5);
  assert.deepEqual([lens.kvHead, lens.rotary, lens.window], [1, true, 2047]);
  for (let e = 0; e < E; e++) {
    for (let r = 0; r < D; r++) {
      assert.equal(lens.wq[e * D + r], qkv[(5 * D + r) * E + e]);
      assert.equal(lens.wk[e * D + r], qkv[(Q + 1 * D + r) * E + e]);
      assert.equal(lens.wv[e * D + r], qkv[(Q + KV + 1 * D + r) * E + e]);
      assert.equal(lens.wo[r * E + e], o[e * Q + 5 * D + r]);
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(Math.fround(lens.weights[i * n + j]), run.attention[1][5 * n * n + i * n + j]);
});

test('hostile shapes of qkv_proj and gate_up_proj (a wrong first dimension, one not divisible, a wrong rank) are refused in one line naming the tensor', () => {
  const good = tinyCheckpoint(CONFIG, 47);
  const fused = ['self_attn.qkv_proj.weight', 'mlp.gate_up_proj.weight'];
  fc.assert(fc.property(fc.constantFrom(...fused), fc.integer({ min: 0, max: 1 }), fc.constantFrom('rows', 'cols', 'rank'), fc.integer({ min: -20, max: 20 }).filter((d) => d !== 0), (tensor, layer, what, delta) => {
    const name = `model.layers.${layer}.${tensor}`;
    const t = good.tensors.get(name)!;
    const shape = what === 'rank' ? [...t.shape, 1] : what === 'rows' ? [Math.max(1, t.shape[0] + delta), t.shape[1]] : [t.shape[0], Math.max(1, t.shape[1] + delta)];
    const tensors = new Map(good.tensors);
    tensors.set(name, { ...t, shape });
    assert.throws(() => loadModel(good.configText, tensors, { precision: 'f64' }), (e: Error) => {
      assert.ok(e instanceof ModelError, String(e));
      assert.equal(e.message, `model.safetensors: tensor "${name}" has shape [${shape.join(', ')}] but config.json implies [${t.shape.join(', ')}]`);
      return true;
    });
  }), { seed: 31, numRuns: 200 });
});

// Values a typo, a bad conversion or an attacker writes, as hostile-config.test.ts draws them for the other families.
const HOSTILE: unknown[] = [ABSENT, null, 0, -1, 0.5, 0.75, 1, 2, 3, 7, 64, 1e300, 2 ** 53, 5e-324, 1e-310, '8', 'true', '', true, false, [], [8], {},
  { rope_type: 'default' }, { type: 'longrope', long_factor: [1], short_factor: [1] }, { type: 'su' }, { rope_type: 'default', rope_theta: 5e-324, partial_rotary_factor: 0.5 }];
const KEYS = ['hidden_size', 'num_attention_heads', 'num_key_value_heads', 'head_dim', 'intermediate_size', 'num_hidden_layers', 'max_position_embeddings',
  'vocab_size', 'rms_norm_eps', 'rope_theta', 'rope_scaling', 'rope_parameters', 'partial_rotary_factor', 'sliding_window', 'tie_word_embeddings', 'hidden_act'];

test('hostile config.json values (seeded): a one-sentence refusal naming config.json and a key, or a config that computes without NaN', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...HOSTILE)), { minLength: 1, maxLength: 3 }), (changes) => {
    const json = changed({ ...CONFIG, hidden_size: 64, num_attention_heads: 1, num_key_value_heads: 1 }, changes);
    const c = readOrRefused(json, /^config\.json: "[a-z_]+"/);
    if (!c) return;
    for (const size of [c.layers, c.heads, c.kvHeads, c.dModel, c.headDim, c.vocab, c.contextLength, c.ffn]) assert.ok(Number.isInteger(size) && size >= 1, JSON.stringify(json));
    assert.equal(c.heads % c.kvHeads, 0);
    assert.ok(c.eps > 0 && Number.isFinite(c.eps));
    if (c.attention.kind === 'sliding') assert.ok(Number.isInteger(c.attention.window) && c.attention.window >= 1);
    const dims = c.rotaryDims ?? c.headDim;
    assert.ok(Number.isInteger(dims) && dims >= 2 && dims % 2 === 0 && dims <= c.headDim);
    const { cos, sin } = ropeTables(c.contextLength, dims, c.ropeTheta, c.contextLength - 1);
    for (const v of [...cos, ...sin]) assert.ok(Number.isFinite(v), JSON.stringify(json));
  }), { seed: 20261127, numRuns: 3000 });
});
