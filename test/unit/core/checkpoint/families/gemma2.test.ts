// Gemma 2 (src/core/checkpoint/families/gemma2.ts): its block (sandwich norms); its keys
// (query_pre_attn_scalar's root divides the scores; attn_logit_softcapping and
// final_logit_softcapping, 50 and 30 when absent, null for none; the sliding window on the even
// layers unless layer_types lists them); on a tiny checkpoint with gemma-2-2b's published keys
// (window shrunk to 4, a text three times longer) every layer's and head's weight and the next tokens
// against the float64 PyTorch reference to 1e-9, every weight outside a sliding layer's window exactly
// 0, the softcaps changing the numbers (the comparison is not blind to them), `attn run` to 1e-4, a
// run reusing a kept run equal to a fresh one bit for bit, and the lens on a sliding head. Then the
// property over the three Gemma families: hostile values of the keys they read are refused in one
// sentence naming config.json and a key, or computed to finite numbers.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { gemma2 } from '../../../../../src/core/checkpoint/families/gemma2.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { ModelError } from '../../../../../src/core/checkpoint/error.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel } from '../../../../../src/core/checkpoint/model.js';
import { attn } from '../../../../support/cli.js';
import { tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';
import { computedLens, configOf, distance, generated, loadFolder, printedDistance, referenceRuns, referenceScript, type RunJson } from '../../../../support/torch-reference.js';
import { cpSync } from 'node:fs';

const SCRIPT = referenceScript('gemma');
const TEXT = 'the cat sat on the mat. the cat ate the rat';
let root = '';
let base: Record<string, unknown> = {};

before(() => {
  root = generated(SCRIPT).root;
  base = configOf(join(root, 'gemma-2-2b'));
});

const read = (extra: object) => readModelConfig(JSON.stringify({ ...base, ...extra }));
const bytesOf = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('the block: sandwich RMSNorms times (1 + w), GeGLU, √d-scaled embeddings, no q/k norm', () => {
  assert.deepEqual(gemma2.block.norm, { kind: 'rmsnorm', placement: 'sandwich', offset: 1 });
  assert.deepEqual([gemma2.block.mlp, gemma2.block.embedScale, gemma2.block.qkNorm], ['geglu', 'sqrt-d-model', undefined]);
});

test('the keys: √query_pre_attn_scalar, the softcaps (defaults 50 and 30, null none), even layers sliding unless layer_types says', () => {
  const c = read({});
  assert.deepEqual([c.scoreDivisor, c.softcap], [16, { attention: 50, final: 30 }]);
  assert.deepEqual(c.layerAttention, [{ kind: 'sliding', window: 4 }, { kind: 'causal' }, { kind: 'sliding', window: 4 }]);
  assert.ok(c.layerRope!.every((r) => r.theta === 10000 && r.linear === undefined));
  assert.deepEqual(read({ attn_logit_softcapping: undefined, final_logit_softcapping: undefined, query_pre_attn_scalar: undefined }).softcap, { attention: 50, final: 30 });
  assert.equal(read({ query_pre_attn_scalar: 144 }).scoreDivisor, 12);
  assert.deepEqual(read({ attn_logit_softcapping: null, final_logit_softcapping: null }).softcap, undefined);
  assert.deepEqual(read({ final_logit_softcapping: null }).softcap, { attention: 50 });
  assert.deepEqual(read({ layer_types: ['full_attention', 'sliding_attention', 'full_attention'] }).layerAttention!.map((a) => a.kind), ['causal', 'sliding', 'causal']);
  assert.deepEqual(read({ sliding_window: undefined }).layerAttention![0], { kind: 'sliding', window: 4096 });
  const { names } = (gemma2.tensors(read({}), () => false, gemma2.block));
  assert.deepEqual([names.layers[2].norm2, names.layers[2].postAttnNorm, names.layers[2].postMlpNorm], [
    'model.layers.2.pre_feedforward_layernorm.weight', 'model.layers.2.post_attention_layernorm.weight', 'model.layers.2.post_feedforward_layernorm.weight']);
});

test('gemma-2-2b\'s keys, a text longer than the window: every weight and the next tokens\' p as the float64 reference computes them; outside the window exactly 0', async () => {
  const dir = join(root, 'gemma-2-2b');
  const r = await attn('run', dir, '--text', TEXT, '--json');
  assert.equal(r.code, 0, r.err);
  const run = JSON.parse(r.out) as RunJson;
  const n = run.ids.length;
  assert.ok(n >= 3 * 4, `${n} tokens, window 4`);
  const [ref] = referenceRuns(SCRIPT, [{ dir, ids: run.ids }]);
  const m = loadFolder(dir);
  const exact = distance(m, run.ids, ref);
  assert.ok(exact.weight < 1e-9 && exact.p < 1e-9, JSON.stringify(exact));
  const printed = printedDistance(run, ref);
  assert.ok(printed.weight < 1e-4 && printed.p < 1e-4, JSON.stringify(printed));
  for (const layer of [0, 2]) {
    for (let h = 0; h < 4; h++) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      if (j <= i - 4 || j > i) assert.ok(Object.is(run.attention[layer][h][i][j], 0), `layer ${layer} head ${h} (${i}, ${j})`);
    }
  }
  // The global layer sees every earlier key.
  assert.ok(run.attention[1][0][n - 1][0] > 0);
});

test('the softcaps change the numbers: without them the run is not the reference\'s', () => {
  const dir = join(root, 'gemma-2-2b');
  const plain = join(root, 'gemma-2-2b-uncapped');
  cpSync(dir, plain, { recursive: true });
  writeFileSync(join(plain, 'config.json'), JSON.stringify({ ...base, attn_logit_softcapping: null, final_logit_softcapping: null }));
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3, 64, 120];
  const [ref] = referenceRuns(SCRIPT, [{ dir, ids }]);
  const uncapped = distance(loadFolder(plain), ids, ref);
  assert.ok(uncapped.weight > 1e-6 && uncapped.p > 1e-6, JSON.stringify(uncapped));
  const capped = distance(loadFolder(dir), ids, ref);
  assert.ok(capped.weight < 1e-9 && capped.p < 1e-9, JSON.stringify(capped));
});

test('a run reusing a kept run\'s keys and values equals a fresh run bit for bit (sliding and global layers, softcapped)', () => {
  const dir = join(root, 'gemma-2-2b');
  const m = loadFolder(dir);
  const first = [5, 40, 7, 99, 12, 250, 31, 8, 77];
  const second = [...first.slice(0, 7), 3, 64, 120, 9, 11];
  const kept = forward(m.config, m.names, m.weights, first, { precision: 'f64', keep: true }).kept!;
  const reused = forward(m.config, m.names, m.weights, second, { precision: 'f64', reuse: kept });
  const fresh = forward(m.config, m.names, m.weights, second, { precision: 'f64' });
  assert.equal(reused.reused, 7);
  reused.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(fresh.attention[l])), `layer ${l}`));
  assert.ok(bytesOf(reused.logits).equals(bytesOf(fresh.logits)));
});

test('the lens on a sliding head: its window, the run\'s weights, scores divided by √query_pre_attn_scalar', () => {
  const m = loadFolder(join(root, 'gemma-2-2b'));
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3];
  const run = forward(m.config, m.names, m.weights, ids, { precision: 'f64' });
  const n = ids.length;
  for (const [layer, window] of [[0, 4], [1, undefined]] as const) {
    const lens = headLens(m, ids, ids.map(String), layer, 3);
    assert.deepEqual([lens.kvHead, lens.scale, lens.window, lens.softcap], [1, 16, window, 50]);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(Math.fround(lens.weights[i * n + j]), run.attention[layer][3 * n * n + i * n + j]);
  }
});

test('the lens spec of a softcapped head says so, with how far its uncapped weights are from the run\'s', () => {
  const m = loadFolder(join(root, 'gemma-2-2b'));
  const ids = [5, 40, 7, 99, 12, 250, 31, 8, 77, 3];
  const n = ids.length;
  const lens = headLens(m, ids, ids.map(String), 1, 2);
  const { description, weights } = computedLens(lens, 'capped');
  const said = /caps each scaled score s at 50 · tanh\(s \/ 50\) before the softmax, which a spec does not compute: the weights here are the uncapped softmax, at most ([0-9.e+-]+) from the run's\./.exec(description);
  assert.ok(said, description);
  let gap = 0;
  for (let i = 0; i < n * n; i++) gap = Math.max(gap, Math.abs(weights[i] - lens.weights[i]));
  // The bound said is the gap computed (to its three digits), and the gap is real.
  assert.ok(gap > 1e-7 && Math.abs(gap - Number(said[1])) <= 0.01 * gap + 1e-12, `${gap} vs ${said[1]}`);
});

// ---------------------------------------------------------------- hostile values of the keys

const ABSENT = Symbol('absent');
const HOSTILE: unknown[] = [ABSENT, null, 0, -0, -1, -50, 0.5, 1, 2, 3, 7, 1e300, 1e-300, 5e-324, 2 ** 53, '50', true, false, [], {}, 'sliding_attention',
  ['sliding_attention'], ['sliding_attention', 'chunked_attention', 'full_attention'], ['full_attention', 'full_attention', 'sliding_attention'], ['sliding_attention', 'full_attention', 'sliding'],
  [1, 2, 3], { rope_type: 'linear', factor: 8 }, { rope_type: 'default', rope_theta: 5e-324 }, { full_attention: { rope_type: 'linear', factor: 8 }, sliding_attention: {} },
  { full_attention: { rope_theta: -1 }, sliding_attention: { rope_theta: 10000 } }, { sliding_attention: 'x' }, { rope_type: 'linear', factor: 0 }, { rope_type: 'linear' }, { rope_type: 'yarn', factor: 4 }, { type: 'default' }, 'gelu', 'gelu_pytorch_tanh'];
const KEYS = ['attn_logit_softcapping', 'final_logit_softcapping', 'query_pre_attn_scalar', 'layer_types', 'sliding_window', 'sliding_window_pattern', 'rope_local_base_freq',
  'rope_theta', 'rope_scaling', 'rope_parameters', 'hidden_activation', 'head_dim', 'use_bidirectional_attention', 'attention_bias', 'rms_norm_eps', 'num_key_value_heads'];
// The multimodal gemma-3-4b-pt last: its keys are changed inside text_config.
const CASES = ['gemma-2b', 'gemma-2-2b', 'gemma-3-1b-pt', 'gemma-3-270m', 'gemma-3-4b-pt'];

test('hostile values of the keys: one sentence naming config.json and a key, or a run whose every weight and logit is finite', () => {
  const bases = CASES.map((name) => {
    const json = configOf(join(root, name));
    return json.text_config ? { ...json, text_config: { ...json.text_config as object, num_hidden_layers: 3 } } : { ...json, num_hidden_layers: 3, layer_types: undefined };
  });
  let refused = 0, ran = 0;
  fc.assert(fc.property(
    fc.integer({ min: 0, max: bases.length - 1 }),
    fc.array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...HOSTILE)), { minLength: 1, maxLength: 3 }),
    (which, changes) => {
      const json: Record<string, unknown> = { ...bases[which] };
      const keys: Record<string, unknown> = json.text_config ? (json.text_config = { ...json.text_config as object }) as Record<string, unknown> : json;
      for (const [key, value] of changes) {
        if (value === ABSENT) delete keys[key];
        else keys[key] = value;
      }
      let c;
      try {
        c = readModelConfig(JSON.stringify(json));
      } catch (e) {
        assert.ok(e instanceof ModelError, String(e));
        assert.match(e.message, /^config\.json: "[a-z_]+"/);
        // It names a key changed (the sentence may begin with another it is checked against).
        assert.ok(changes.some(([k]) => e.message.includes(k)), `${e.message} names no key that was changed: ${JSON.stringify(changes)}`);
        assert.doesNotMatch(e.message, /\n|NaN|undefined/);
        refused++;
        return;
      }
      if (c.softcap) for (const cap of Object.values(c.softcap)) assert.ok(cap! > 0 && Number.isFinite(cap), JSON.stringify(c.softcap));
      assert.ok(c.scoreDivisor === undefined || (c.scoreDivisor > 0 && Number.isFinite(c.scoreDivisor)));
      for (const a of c.layerAttention ?? []) assert.ok(a.kind !== 'sliding' || (Number.isInteger(a.window) && a.window >= 1));
      // Small enough to run: every weight and logit finite.
      if (c.headDim > 64 || c.kvHeads > c.heads) return;
      const { configText, tensors } = tinyCheckpoint(json, 3);
      const m = loadModel(configText, tensors, { precision: 'f64' });
      const out = forward(m.config, m.names, m.weights, [1, 17, 5, 5, 39, 0, 12, 8, 3, 21], { precision: 'f64' });
      for (const a of out.attention) for (const v of a) assert.ok(Number.isFinite(v));
      for (const v of out.logits) assert.ok(Number.isFinite(v), JSON.stringify(changes));
      ran++;
    },
  ), { seed: 20261127, numRuns: 800 });
  assert.ok(refused > 100 && ran > 100, `${refused} refused, ${ran} ran`);
});

test('the hostile values named in the issue, each refused naming its key', () => {
  const cases: [object, RegExp][] = [
    [{ attn_logit_softcapping: 0 }, /^ModelError: config\.json: "attn_logit_softcapping" must be a positive number or null, got 0$/],
    [{ final_logit_softcapping: -30 }, /^ModelError: config\.json: "final_logit_softcapping" must be a positive number or null, got -30$/],
    [{ attn_logit_softcapping: '50' }, /"attn_logit_softcapping" must be a positive number or null, got "50"/],
    [{ query_pre_attn_scalar: 0 }, /^ModelError: config\.json: "query_pre_attn_scalar" must be a positive number, got 0$/],
    [{ layer_types: ['sliding_attention', 'chunked_attention', 'full_attention'] }, /^ModelError: config\.json: "layer_types": "chunked_attention" is not supported \(layer 1: attn computes "sliding_attention" and "full_attention" layers\)$/],
    [{ layer_types: ['sliding_attention'] }, /^ModelError: config\.json: "layer_types" must list one of .* for each of the 3 layers, got \["sliding_attention"\]$/],
    [{ sliding_window: null }, /^ModelError: config\.json: "sliding_window": null is not supported/],
    [{ sliding_window: 0 }, /"sliding_window" must be a whole number/],
  ];
  for (const [extra, pattern] of cases) assert.throws(() => read(extra), pattern, JSON.stringify(extra));
  // A JSON number too large for a double reads as Infinity: refused, not run to NaN.
  assert.throws(() => readModelConfig(JSON.stringify(base).replace('"attn_logit_softcapping":50', '"attn_logit_softcapping":1e999')), /"attn_logit_softcapping" must be a positive number or null, got Infinity/);
});
