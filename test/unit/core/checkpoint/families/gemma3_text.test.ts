// Gemma 3's text model (src/core/checkpoint/families/gemma3_text.ts): its block (sandwich norms and
// per-head q and k norms); its keys (sliding layers from layer_types, else every
// sliding_window_pattern-th layer global; sliding layers rotating with rope_local_base_freq, global
// ones with rope_theta and a linear rope_scaling; attn_logit_softcapping, which Hugging Face's Gemma 3
// code stores but never applies, refused unless null; final_logit_softcapping applied;
// use_bidirectional_attention refused); and, on tiny checkpoints with the published keys of
// gemma-3-1b-pt, gemma-3-270m (layer_types) and gemma-3-4b's text model (linear scaling, two key/value
// heads), every layer's and head's weight and the next tokens against the float64 PyTorch reference
// to 1e-9 on a text longer than the window, `attn run` to 1e-4, the q and k norms and the local RoPE
// base each changing the numbers, a kept run reused bit for bit, and the lens on a global head.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gemma3_text as family } from '../../../../../src/core/checkpoint/families/gemma3_text.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { attn } from '../../../../support/cli.js';
import { computedLens, configOf, distance, generated, loadFolder, printedDistance, referenceRuns, referenceScript, type RunJson } from '../../../../support/torch-reference.js';

const SCRIPT = referenceScript('gemma');
const TEXT = 'the cat sat on the mat. the cat ate the rat';
const CASES = ['gemma-3-1b-pt', 'gemma-3-270m', 'gemma-3-4b-text'];
let root = '';

before(() => { root = generated(SCRIPT).root; });

const read = (name: string, extra: object) => readModelConfig(JSON.stringify({ ...configOf(join(root, name)), ...extra }));
const bytesOf = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('the block: sandwich RMSNorms times (1 + w), q and k normed per head, GeGLU, √d-scaled embeddings', () => {
  assert.deepEqual([family.block.norm, family.block.qkNorm, family.block.mlp], [{ kind: 'rmsnorm', placement: 'sandwich', offset: 1 }, true, 'geglu']);
});

test('the keys: the layer pattern, local and global RoPE, the softcaps, what is refused', () => {
  const one = read('gemma-3-1b-pt', {});
  assert.deepEqual(one.layerAttention!.map((a) => a.kind), ['sliding', 'sliding', 'sliding', 'sliding', 'sliding', 'causal', 'sliding']);
  assert.deepEqual([one.layerRope![0], one.layerRope![5], one.scoreDivisor, one.softcap], [{ theta: 10000 }, { theta: 1000000 }, 16, undefined]);
  const four = read('gemma-3-4b-text', {});
  assert.deepEqual([four.layerRope![0], four.layerRope![5]], [{ theta: 10000 }, { theta: 1000000, linear: 8 }]);
  const small = read('gemma-3-270m', { layer_types: ['full_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'sliding_attention', 'full_attention'] });
  assert.deepEqual(small.layerAttention!.map((a) => a.kind), ['causal', 'sliding', 'sliding', 'sliding', 'sliding', 'causal']);
  assert.deepEqual(read('gemma-3-1b-pt', { sliding_window_pattern: 2 }).layerAttention!.map((a) => a.kind), ['sliding', 'causal', 'sliding', 'causal', 'sliding', 'causal', 'sliding']);
  assert.deepEqual(read('gemma-3-1b-pt', { final_logit_softcapping: 30 }).softcap, { final: 30 });
  assert.throws(() => read('gemma-3-1b-pt', { attn_logit_softcapping: 50 }), /^ModelError: config\.json: "attn_logit_softcapping": 50 is not supported \(Hugging Face's code for this family stores it but never applies it/);
  assert.throws(() => read('gemma-3-270m', { use_bidirectional_attention: true }), /^ModelError: config\.json: "use_bidirectional_attention": true is not supported \(attn computes causal attention\)$/);
  assert.throws(() => read('gemma-3-4b-text', { rope_scaling: { rope_type: 'yarn', factor: 8 } }), /^ModelError: config\.json: "rope_scaling": .* is not supported/);
  assert.throws(() => read('gemma-3-1b-pt', { rope_local_base_freq: 0 }), /^ModelError: config\.json: "rope_local_base_freq" must be a positive number, got 0$/);
  // transformers 5's rope_parameters, one object per layer type: the same layers as the older keys say.
  const v5 = read('gemma-3-4b-text', {
    rope_theta: undefined, rope_local_base_freq: undefined, rope_scaling: undefined,
    rope_parameters: { full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 }, sliding_attention: { rope_type: 'default', rope_theta: 10000 } },
  });
  assert.deepEqual([v5.layerAttention, v5.layerRope], [four.layerAttention, four.layerRope]);
  assert.throws(() => read('gemma-3-4b-text', { rope_scaling: undefined, rope_parameters: { rope_type: 'default', rope_theta: 1000000 } }), /^ModelError: config\.json: "rope_parameters": .* is not supported \(attn reads one object for "full_attention" and one for "sliding_attention"\)$/);
  assert.throws(() => read('gemma-3-4b-text', { rope_scaling: undefined, rope_parameters: { full_attention: { rope_type: 'yarn', factor: 8 }, sliding_attention: {} } }), /^ModelError: config\.json: "rope_parameters": .* is not supported \(attn computes default and linear RoPE/);
  assert.throws(() => read('gemma-3-4b-text', { rope_scaling: undefined, rope_parameters: { full_attention: {}, sliding_attention: { rope_theta: 500 } } }), /^ModelError: config\.json: "rope_local_base_freq" 10000 and "rope_parameters"'s rope_theta 500 disagree/);
  const { names, shapes } = family.tensors(one, () => false, family.block);
  assert.deepEqual([names.layers[0].qNorm, shapes.get('model.layers.0.self_attn.k_norm.weight')], ['model.layers.0.self_attn.q_norm.weight', [8]]);
});

for (const name of CASES) {
  test(`${name}'s keys, a text longer than the window: every weight and the next tokens' p as the float64 reference computes them (1e-9); attn run (1e-4)`, async () => {
    const dir = join(root, name);
    const r = await attn('run', dir, '--text', TEXT, '--json');
    assert.equal(r.code, 0, r.err);
    const run = JSON.parse(r.out) as RunJson;
    const window = configOf(dir).sliding_window as number;
    assert.ok(run.ids.length >= 3 * window, `${run.ids.length} tokens, window ${window}`);
    const [ref] = referenceRuns(SCRIPT, [{ dir, ids: run.ids }]);
    const exact = distance(loadFolder(dir), run.ids, ref);
    assert.ok(exact.weight < 1e-9 && exact.p < 1e-9, JSON.stringify(exact));
    const printed = printedDistance(run, ref);
    assert.ok(printed.weight < 1e-4 && printed.p < 1e-4, JSON.stringify(printed));
  });
}

test('the comparison sees the q and k norms, the local RoPE base and the linear scaling: a run without each is not the reference\'s', () => {
  const dir = join(root, 'gemma-3-4b-text');
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3, 64, 120];
  const [ref] = referenceRuns(SCRIPT, [{ dir, ids }]);
  const changed = (extra: object, tensors?: (w: ReturnType<typeof loadFolder>) => void) => {
    const copy = join(root, `changed-${Math.random().toString(36).slice(2)}`);
    cpSync(dir, copy, { recursive: true });
    writeFileSync(join(copy, 'config.json'), JSON.stringify({ ...configOf(dir), ...extra }));
    const m = loadFolder(copy);
    tensors?.(m);
    return distance(m, ids, ref);
  };
  for (const [what, d] of [
    ['rope_local_base_freq as rope_theta', changed({ rope_local_base_freq: 1000000 })],
    ['no linear scaling', changed({ rope_scaling: null })],
    ['no q and k norms', changed({}, (m) => { for (const l of m.names.layers) { delete l.qNorm; delete l.kNorm; } })],
  ] as const) assert.ok(d.weight > 1e-6, `${what}: ${JSON.stringify(d)}`);
  assert.ok(changed({}).weight < 1e-9);
});

test('a run reusing a kept run equals a fresh run bit for bit (local and global RoPE tables from a later position)', () => {
  const m = loadFolder(join(root, 'gemma-3-4b-text'));
  const first = [5, 40, 7, 99, 12, 250, 31, 8, 77];
  const second = [...first.slice(0, 6), 3, 64, 120, 9, 11];
  const kept = forward(m.config, m.names, m.weights, first, { precision: 'f64', keep: true }).kept!;
  const reused = forward(m.config, m.names, m.weights, second, { precision: 'f64', reuse: kept });
  const fresh = forward(m.config, m.names, m.weights, second, { precision: 'f64' });
  assert.equal(reused.reused, 6);
  reused.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(fresh.attention[l])), `layer ${l}`));
  assert.ok(bytesOf(reused.logits).equals(bytesOf(fresh.logits)));
});

test('the lens on a global and a sliding head: q and k as the scores used them (normed, rotated), the run\'s weights', () => {
  const m = loadFolder(join(root, 'gemma-3-1b-pt'));
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3];
  const run = forward(m.config, m.names, m.weights, ids, { precision: 'f64' });
  const n = ids.length, D = 8;
  for (const [layer, window] of [[5, undefined], [6, 4]] as const) {
    const lens = headLens(m, ids, ids.map(String), layer, 2);
    assert.deepEqual([lens.kvHead, lens.rotary, lens.scale, lens.window, lens.softcap], [0, true, 16, window, undefined]);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      assert.equal(Math.fround(lens.weights[i * n + j]), run.attention[layer][2 * n * n + i * n + j]);
      if (j <= i) {
        // The weights are the softmax of q · k / 16 over the keys the query sees.
        const dot = (a: number, b: number) => Array.from({ length: D }, (_, d) => lens.q[a * D + d] * lens.k[b * D + d]).reduce((s, v) => s + v, 0);
        const seen = Array.from({ length: i + 1 }, (_, t) => t).filter((t) => window === undefined || t > i - window);
        if (!seen.includes(j)) continue;
        const top = Math.max(...seen.map((t) => dot(i, t) / 16));
        const sum = seen.reduce((s, t) => s + Math.exp(dot(i, t) / 16 - top), 0);
        assert.ok(Math.abs(Math.exp(dot(i, j) / 16 - top) / sum - lens.weights[i * n + j]) < 1e-12);
      }
    }
  }
});

test('the lens spec of a sliding and a global head: attn compute of it gives the run\'s weights to 1e-9, divided by √query_pre_attn_scalar', () => {
  const m = loadFolder(join(root, 'gemma-3-270m'));
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3];
  for (const layer of [0, 5]) {
    const lens = headLens(m, ids, ids.map(String), layer, 1);
    const { description, weights } = computedLens(lens, `head-${layer}`);
    let gap = 0;
    for (let i = 0; i < weights.length; i++) gap = Math.max(gap, Math.abs(weights[i] - lens.weights[i]));
    assert.ok(gap < 1e-9, `layer ${layer}: ${gap}`);
    assert.equal(/sliding window of 3 tokens/.test(description), layer === 0);
    assert.doesNotMatch(description, /tanh/);
  }
});
