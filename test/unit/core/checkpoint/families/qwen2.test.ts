// Qwen2's description (src/core/checkpoint/families/qwen2.ts): Llama's block with biases on q, k
// and v only, the bias tensors it therefore reads, and which keys each layer sees as Hugging Face's
// Qwen2Config reads them (qwen-sliding.ts): a window only when use_sliding_window is true, on layers
// from max_window_layers, or as layer_types names them; anything else in those keys refused naming
// config.json and the key. attention_bias and mlp_bias are not Qwen2 keys (its modelling code fixes
// the biases), so they change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ModelError } from '../../../../../src/core/checkpoint/error.js';
import { qwen2 } from '../../../../../src/core/checkpoint/families/qwen2.js';
import { attentionOf } from '../../../../../src/core/checkpoint/families/shared/family.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { namesOf } from '../../../../../src/core/checkpoint/weights.js';
import { QWEN2_CONFIG } from '../../../../support/tiny-checkpoint.js';

const read = (extra: object) => readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, num_hidden_layers: 3, ...extra }));
const layers = (extra: object) => { const c = read(extra); return [0, 1, 2].map((l) => attentionOf(c, l)); };
const full = { kind: 'causal' } as const;
const slide = (window: number) => ({ kind: 'sliding', window }) as const;

test('the block: pre-RMSNorm, RoPE, nn.Linear, separate q/k/v with biases (o and the MLP without), SwiGLU', () => {
  assert.deepEqual(qwen2.block, {
    kind: 'sequential', norm: { kind: 'rmsnorm', placement: 'pre' }, position: 'rope', matrices: 'linear', qkv: 'separate',
    bias: { qkv: true, o: false, mlp: false }, mlp: 'swiglu',
  });
});

test('the keys: q/k/v biases whatever attention_bias says; no window unless use_sliding_window is true', () => {
  const c = readModelConfig(JSON.stringify({ ...QWEN2_CONFIG, attention_bias: false }));
  assert.deepEqual([c.type, c.block.bias.qkv, c.attention, c.tied, c.layerAttention], ['qwen2', true, { kind: 'causal' }, true, undefined]);
  // Qwen2.5's published keys: a window of 32768 that use_sliding_window false turns off, whatever max_window_layers says.
  assert.deepEqual(layers({ use_sliding_window: false, sliding_window: 32768, max_window_layers: 0 }), [full, full, full]);
  assert.deepEqual(layers({ sliding_window: 4, max_window_layers: 0 }), [full, full, full]);
});

test('use_sliding_window true: layers from max_window_layers (28 when absent) slide over sliding_window (4096 when absent, none when null)', () => {
  assert.deepEqual(layers({ use_sliding_window: true, sliding_window: 8, max_window_layers: 1 }), [full, slide(8), slide(8)]);
  assert.deepEqual(read({ use_sliding_window: true, sliding_window: 8, max_window_layers: 1 }).layerAttention, [full, slide(8), slide(8)]);
  // Every layer alike: one kind, no per-layer list.
  const all = read({ use_sliding_window: true, sliding_window: 8, max_window_layers: 0 });
  assert.deepEqual([all.attention, all.layerAttention], [slide(8), undefined]);
  assert.deepEqual(layers({ use_sliding_window: true, sliding_window: 8 }), [full, full, full]);
  assert.deepEqual(layers({ use_sliding_window: true, max_window_layers: 2 }), [full, full, slide(4096)]);
  assert.deepEqual(layers({ use_sliding_window: true, sliding_window: null, max_window_layers: 0 }), [full, full, full]);
});

test('layer_types names each layer; a wrong length, an unknown type or a sliding layer without a window is refused naming the key', () => {
  assert.deepEqual(layers({ use_sliding_window: true, sliding_window: 5, max_window_layers: 0, layer_types: ['full_attention', 'sliding_attention', 'full_attention'] }), [full, slide(5), full]);
  assert.deepEqual(layers({ layer_types: ['full_attention', 'full_attention', 'full_attention'] }), [full, full, full]);
  assert.throws(() => read({ layer_types: ['full_attention'] }), /^ModelError: config\.json: "layer_types" must list one of "full_attention" or "sliding_attention" for each of the 3 layers, got \["full_attention"\]$/);
  assert.throws(() => read({ layer_types: 'full_attention' }), /^ModelError: config\.json: "layer_types" must list/);
  assert.throws(() => read({ use_sliding_window: true, layer_types: ['full_attention', 'chunked_attention', 'full_attention'] }), /^ModelError: config\.json: "layer_types": "chunked_attention" is not supported \(layer 1: attn computes "full_attention" and "sliding_attention"\)$/);
  assert.throws(() => read({ layer_types: ['full_attention', 'sliding_attention', 'full_attention'] }), /^ModelError: config\.json: "layer_types": "sliding_attention" is not supported \(layer 1 slides, but there is no window/);
  for (const bad of [-1, 1.5, '2', true]) {
    assert.throws(() => read({ use_sliding_window: true, max_window_layers: bad }), /^ModelError: config\.json: "max_window_layers" must be a whole number from 0 to \d+, got /, String(bad));
  }
  for (const bad of [0, -4, 2.5, '8']) {
    assert.throws(() => read({ use_sliding_window: true, sliding_window: bad }), /^ModelError: config\.json: "sliding_window" must be a whole number from 1 to \d+, got /, String(bad));
  }
  assert.throws(() => read({ use_sliding_window: 'true' }), /"use_sliding_window" must be true or false, got "true"/);
});

test('scaled RoPE is refused for qwen2 (computed for llama only)', () => {
  assert.throws(() => read({ rope_scaling: { type: 'linear', factor: 2 } }), /^ModelError: config\.json: "rope_scaling": \{"type":"linear","factor":2\} is not supported \(attn applies plain RoPE to this family/);
});

test('the tensors: biases on q, k and v with their widths, none on o or the MLP; the head tied', () => {
  const { names, shapes } = namesOf(readModelConfig(JSON.stringify(QWEN2_CONFIG)), () => false);
  assert.deepEqual([shapes.get('model.layers.1.self_attn.q_proj.bias'), shapes.get('model.layers.1.self_attn.v_proj.bias')], [[24], [12]]);
  assert.deepEqual([...shapes.keys()].filter((n) => n.endsWith('.bias')).length, 2 * 3);
  assert.equal(names.head, 'model.embed_tokens.weight');
  assert.equal(shapes.has('lm_head.weight'), false);
});

const ABSENT = Symbol('absent');
const HOSTILE: unknown[] = [ABSENT, null, 0, 1, 2, 3, 4, 28, -1, 2.5, 1e300, '4', 'true', true, false, [], {},
  ['full_attention', 'sliding_attention', 'full_attention'], ['sliding_attention', 'sliding_attention', 'sliding_attention'],
  ['full_attention', 'full_attention'], ['full_attention', 'sliding', 'full_attention'], [1, 2, 3]];
const WINDOW_KEYS = ['use_sliding_window', 'sliding_window', 'max_window_layers', 'layer_types'];

/** Qwen2Config's rule, written out: the window only with use_sliding_window true; layer_types, else layers from max_window_layers. */
function rule(json: Record<string, unknown>): ({ kind: 'causal' } | { kind: 'sliding'; window: number })[] {
  const window = json.use_sliding_window === true ? (json.sliding_window === undefined ? 4096 : json.sliding_window) : null;
  const types = json.layer_types ?? [0, 1, 2].map((i) => (window !== null && i >= ((json.max_window_layers ?? 28) as number) ? 'sliding_attention' : 'full_attention'));
  return (types as string[]).map((t) => (t === 'sliding_attention' ? slide(window as number) : full));
}

test('property: hostile window keys are refused in one sentence naming config.json and a window key, or computed as Qwen2Config\'s rule says', () => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom(...WINDOW_KEYS), fc.constantFrom(...HOSTILE)), { minLength: 1, maxLength: 4 }), (changes) => {
    const json: Record<string, unknown> = { ...QWEN2_CONFIG, num_hidden_layers: 3 };
    for (const [key, value] of changes) {
      if (value === ABSENT) delete json[key];
      else json[key] = value;
    }
    let got;
    try {
      got = [0, 1, 2].map((l) => attentionOf(readModelConfig(JSON.stringify(json)), l));
    } catch (e) {
      assert.ok(e instanceof ModelError, String(e));
      assert.match(e.message, /^config\.json: "(use_sliding_window|sliding_window|max_window_layers|layer_types)"/);
      assert.doesNotMatch(e.message, /\n|NaN|undefined/);
      return;
    }
    // null reads as absent for every key but sliding_window, where it is "no window".
    for (const key of ['use_sliding_window', 'max_window_layers', 'layer_types']) if (json[key] === null) delete json[key];
    if (json.sliding_window === null) json.use_sliding_window = false;
    assert.deepEqual(got, rule(json), JSON.stringify(json));
  }), { seed: 3104, numRuns: 1500 });
});
