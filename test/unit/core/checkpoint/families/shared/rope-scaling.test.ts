// RoPE's scaling (src/core/checkpoint/families/rope-scaling.ts, src/core/checkpoint/rope-frequencies.ts):
// the frequencies of llama3, linear and dynamic as modeling_rope_utils computes them (checked here
// against the formulas written out per frequency); Llama 3.2's published rope_scaling, the older
// "type" spelling and transformers 5's rope_parameters read alike; a RoPE model runs past
// max_position_embeddings while learned positions stay a hard limit; and properties over unknown
// rope types and bad parameters (0, negative, NaN-producing, not numbers, missing): each is one
// sentence naming config.json and the key, and every config accepted rotates by finite angles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readModelConfig } from '../../../../../../src/core/checkpoint/config.js';
import { ModelError } from '../../../../../../src/core/checkpoint/error.js';
import { forward } from '../../../../../../src/core/checkpoint/forward.js';
import { loadModel, runText } from '../../../../../../src/core/checkpoint/model.js';
import { ropeFrequencies } from '../../../../../../src/core/checkpoint/rope-frequencies.js';
import type { Tokenizer } from '../../../../../../src/core/tokenizer/tokenizer.js';
import { GPT2_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../../../support/tiny-checkpoint.js';

/** Llama 3.2 1B's rope_scaling as published. */
const LLAMA3 = { factor: 32.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' };
const LLAMA = { ...QWEN2_CONFIG, model_type: 'llama', head_dim: 16, hidden_size: 32, rope_theta: 500000, max_position_embeddings: 131072 };
const read = (extra: object) => readModelConfig(JSON.stringify({ ...LLAMA, ...extra }));

test('llama3 at θ 500,000, head_dim 16, L0 8192: short wavelengths kept, long ones ÷ 32, the one between blended', () => {
  const plain = ropeFrequencies(500000, 16, undefined, 10);
  const scaled = ropeFrequencies(500000, 16, { kind: 'llama3', factor: 32, lowFreqFactor: 1, highFreqFactor: 4, original: 8192 }, 10);
  plain.forEach((f, i) => {
    const wavelength = 2 * Math.PI / f;
    if (wavelength < 8192 / 4) assert.equal(scaled[i], f, `${i} kept`);
    else if (wavelength > 8192) assert.equal(scaled[i], f / 32, `${i} ÷ 32`);
    else {
      const s = (8192 / wavelength - 1) / (4 - 1);
      assert.equal(scaled[i], (1 - s) * f / 32 + s * f, `${i} blended`);
      assert.ok(scaled[i] > f / 32 && scaled[i] < f);
    }
  });
  // Each band is used: 4 kept, 1 blended, 3 divided.
  assert.deepEqual([scaled.filter((f, i) => f === plain[i]).length, scaled.filter((f, i) => f === plain[i] / 32).length], [4, 3]);
});

test('linear divides every frequency; dynamic is the default up to L0 and raises the base past it', () => {
  const plain = ropeFrequencies(10000, 8, undefined, 1);
  assert.deepEqual(ropeFrequencies(10000, 8, { kind: 'linear', factor: 4 }, 99), plain.map((f) => f / 4));
  const dynamic = { kind: 'dynamic', factor: 2, original: 16 } as const;
  assert.deepEqual(ropeFrequencies(10000, 8, dynamic, 16), plain);
  const base = 10000 * ((2 * 40) / 16 - 1) ** (8 / 6);
  assert.deepEqual(ropeFrequencies(10000, 8, dynamic, 40), Float64Array.from([0, 1, 2, 3], (i) => 1 / base ** ((2 * i) / 8)));
});

test('Llama 3.2\'s rope_scaling, the "type" spelling and transformers 5\'s rope_parameters are read alike', () => {
  const want = { kind: 'llama3', factor: 32, lowFreqFactor: 1, highFreqFactor: 4, original: 8192 };
  assert.deepEqual(read({ rope_scaling: LLAMA3 }).ropeScaling, want);
  assert.deepEqual(read({ rope_theta: undefined, rope_parameters: { ...LLAMA3, rope_theta: 500000 } }).ropeScaling, want);
  assert.equal(read({ rope_theta: undefined, rope_parameters: { ...LLAMA3, rope_theta: 500000 } }).ropeTheta, 500000);
  assert.deepEqual(read({ rope_scaling: { type: 'linear', factor: 4 } }).ropeScaling, { kind: 'linear', factor: 4 });
  assert.deepEqual(read({ max_position_embeddings: 16, rope_scaling: { type: 'dynamic', factor: 2 } }).ropeScaling, { kind: 'dynamic', factor: 2, original: 16 });
  assert.equal(read({ rope_scaling: { rope_type: 'default' } }).ropeScaling, undefined);
  assert.throws(() => read({ rope_scaling: LLAMA3, rope_parameters: { rope_type: 'linear', factor: 2 } }), /^ModelError: config\.json: "rope_parameters": .* is not supported \(rope_scaling scales RoPE otherwise/);
  assert.deepEqual(read({ rope_scaling: LLAMA3, rope_parameters: { ...LLAMA3, rope_theta: 500000 } }).ropeScaling, want);
  assert.throws(() => read({ head_dim: 2, hidden_size: 8, num_attention_heads: 4, num_key_value_heads: 2, rope_scaling: { type: 'dynamic', factor: 2 } }), /"rope_scaling": .* is not supported \(dynamic raises the base to head_dim \/ \(head_dim − 2\), and head_dim is 2\)$/);
});

test('a Llama 3.2 saved by transformers 5 (rope_parameters with rope_theta inside) runs as the rope_scaling form, bit for bit', () => {
  const base = { ...QWEN2_CONFIG, model_type: 'llama', head_dim: 16, num_attention_heads: 2, num_key_value_heads: 1 };
  const old = tinyCheckpoint({ ...base, rope_theta: 500000, rope_scaling: LLAMA3 }, 6);
  const v5 = tinyCheckpoint({ ...base, rope_theta: undefined, rope_parameters: { ...LLAMA3, rope_theta: 500000 } }, 6);
  const plain = tinyCheckpoint({ ...base, rope_theta: 500000 }, 6);
  const ids = [3, 17, 5, 5, 39, 0, 12, 8, 3, 21, 4, 30];
  const [a, b, c] = [old, v5, plain].map(({ configText, tensors }) => { const m = loadModel(configText, tensors, { precision: 'f64' }); return forward(m.config, m.names, m.weights, ids, { precision: 'f64' }); });
  a.attention.forEach((layer, l) => assert.deepEqual(layer, b.attention[l]));
  assert.deepEqual(a.logits, b.logits);
  assert.notDeepEqual(a.attention, c.attention);
});

const chars: Tokenizer = { vocabSize: 40, encode: (text, most) => { const ids = [...text].slice(0, most).map((ch) => ch.charCodeAt(0) % 40); return { ids, pieces: ids.map(String) }; }, decodeOne: (id) => `t${id}` };

test('a RoPE model runs past max_position_embeddings (dynamic scales there); learned positions stay a hard limit', () => {
  const text = 'the cat sat on the mat, the cat sat';
  for (const extra of [{}, { rope_scaling: { type: 'dynamic', factor: 2 } }, { rope_scaling: LLAMA3 }]) {
    const { configText, tensors } = tinyCheckpoint({ ...QWEN2_CONFIG, model_type: 'llama', max_position_embeddings: 8, ...extra }, 4);
    const run = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, text);
    assert.equal(run.ids.length, text.length);
    for (const layer of run.attention) for (const w of layer) assert.ok(Number.isFinite(w));
  }
  const gpt2 = tinyCheckpoint({ ...GPT2_CONFIG, n_positions: 8 }, 4);
  assert.throws(() => runText(loadModel(gpt2.configText, gpt2.tensors, { precision: 'f64' }), chars, text), /^ModelError: the text is over 8 tokens, more than the model's context length of 8/);
  const m = loadModel(gpt2.configText, gpt2.tensors, { precision: 'f64' });
  assert.throws(() => forward(m.config, m.names, m.weights, [...text].map(() => 1), { precision: 'f64' }), /more than the model's context length of 8/);
});

// ---------------------------------------------------------------- properties over hostile values

const KNOWN = ['default', 'linear', 'dynamic', 'llama3'];
const unknownTypes = fc.oneof(
  fc.constantFrom('yarn', 'longrope', 'su', 'dynamic-yarn', 'mrope', 'Llama3', 'LINEAR', 'llama3 ', 'ntk', '', 'proportional'),
  fc.string({ maxLength: 12 }).filter((s) => !KNOWN.includes(s)),
);
const BAD_NUMBERS: unknown[] = [0, -1, -32, 0.5, 1e-320, 5e-324, -1e308, null, '8', '32.0', true, false, [], [8], {}, { value: 8 }];
const PARAMS = ['factor', 'low_freq_factor', 'high_freq_factor', 'original_max_position_embeddings'];
const KEYS = ['rope_scaling', 'rope_parameters'] as const;

function refusal(config: object): string {
  try {
    readModelConfig(JSON.stringify(config));
  } catch (e) {
    assert.ok(e instanceof ModelError, String(e));
    return e.message;
  }
  return '';
}

/** One sentence naming config.json and the key, and no NaN or undefined in it. */
function assertOneSentence(message: string, key: string): void {
  assert.match(message, new RegExp(`^config\\.json: "${key}": .* is not supported \\(.+\\)$`), message);
  assert.doesNotMatch(message, /\n|NaN|undefined/);
}

test('property: an unknown rope_type (or type) under rope_scaling or rope_parameters is refused in one sentence naming config.json and the key', () => {
  fc.assert(fc.property(unknownTypes, fc.constantFrom(...KEYS), fc.boolean(), (kind, key, older) => {
    const scaling = { [older && key === 'rope_scaling' ? 'type' : 'rope_type']: kind, factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 };
    const message = refusal({ ...LLAMA, [key]: scaling });
    assertOneSentence(message, key);
    assert.ok(message.includes('is not implemented'), message);
  }), { seed: 3101, numRuns: 400 });
});

test('property: a bad factor, low/high_freq_factor or original_max_position_embeddings (0, negative, NaN-producing, not a number, missing) is refused naming the key and the parameter', () => {
  fc.assert(fc.property(fc.constantFrom('linear', 'dynamic', 'llama3'), fc.constantFrom(...PARAMS), fc.constantFrom(...BAD_NUMBERS, 'absent'), fc.constantFrom(...KEYS), (kind, param, bad, key) => {
    const good: Record<string, unknown> = { rope_type: kind, factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 };
    // Only the parameters the type reads: linear and dynamic read factor alone.
    if (kind !== 'llama3' && param !== 'factor') return;
    // low_freq_factor may be any positive number (a tiny one only widens the blended band).
    if (param === 'low_freq_factor' && typeof bad === 'number' && bad > 0) return;
    if (bad === 'absent') delete good[param];
    else good[param] = bad;
    const message = refusal({ ...LLAMA, max_position_embeddings: 64, [key]: good });
    assertOneSentence(message, key);
    assert.ok(message.includes(`"${param}"`), message);
  }), { seed: 3102, numRuns: 600 });
  // high_freq_factor equal to low_freq_factor would divide 0 by 0 for a wavelength on the boundary.
  assertOneSentence(refusal({ ...LLAMA, rope_scaling: { ...LLAMA3, high_freq_factor: 1 } }), 'rope_scaling');
  assertOneSentence(refusal({ ...LLAMA, rope_scaling: { ...LLAMA3, high_freq_factor: 0.5 } }), 'rope_scaling');
  assertOneSentence(refusal({ ...LLAMA, rope_scaling: 'llama3' }), 'rope_scaling');
  assertOneSentence(refusal({ ...LLAMA, rope_scaling: { factor: 8 } }), 'rope_scaling');
});

test('property: any scaling accepted rotates by finite angles at every length up to 64 × the context', () => {
  const value = fc.oneof(fc.double({ min: 1, max: 1e6, noNaN: true }), fc.constantFrom(1, 1e300, 1e308, 2 ** 53));
  fc.assert(fc.property(fc.constantFrom('linear', 'dynamic', 'llama3'), value, value, value, fc.integer({ min: 1, max: 1 << 20 }), fc.constantFrom(1e-300, 1, 10000, 1e300), fc.integer({ min: 2, max: 64 }),
    (kind, factor, low, high, original, theta, context) => {
      let c;
      try {
        c = read({ rope_theta: theta, max_position_embeddings: context, rope_scaling: { rope_type: kind, factor, low_freq_factor: low, high_freq_factor: high, original_max_position_embeddings: original } });
      } catch (e) {
        assert.ok(e instanceof ModelError);
        assertOneSentence(e.message, 'rope_scaling');
        return;
      }
      for (const n of [1, context, context + 1, 64 * context]) {
        const f = ropeFrequencies(c.ropeTheta, c.headDim, c.ropeScaling, n);
        for (const v of f) assert.ok(Number.isFinite(v * (n - 1)) && v >= 0, `${kind} ${factor} θ ${theta}: ${v} at ${n}`);
      }
    }), { seed: 3103, numRuns: 500 });
});
