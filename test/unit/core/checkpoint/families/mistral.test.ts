// Mistral (src/core/checkpoint/families/mistral.ts), the family added as a description file, a
// registry line and this test: its sliding_window read as the attention kind (null: full causal;
// absent: Hugging Face's default 4096; anything but a whole number ≥ 1 refused), and, on tiny random
// checkpoints run by the generic block: with a window of n or more, bit for bit the llama run of the
// same tensors; with a window W < n, every weight of every layer and head and the logits as an
// independent float64 reference written here computes them (query i over keys i − W < j ≤ i), every
// weight outside the window exactly 0; a run reusing the last run's keys and values still equals a
// fresh run bit for bit, on the WebAssembly kernel and the JavaScript products; and the lens shows
// the windowed weights the run computed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TensorRef } from '../../../../../src/core/tensors/attention-file.js';
import { useWasmKernel } from '../../../../../src/core/kernels/gemm.js';
import { readModelConfig } from '../../../../../src/core/checkpoint/config.js';
import { forward } from '../../../../../src/core/checkpoint/forward.js';
import { headLens } from '../../../../../src/core/checkpoint/lens.js';
import { loadModel, runText } from '../../../../../src/core/checkpoint/model.js';
import type { Tokenizer } from '../../../../../src/core/tokenizer/tokenizer.js';
import { QWEN2_CONFIG, tinyCheckpoint } from '../../../../support/tiny-checkpoint.js';

after(() => useWasmKernel(true));

// Grouped-query (6 query heads over 2 key/value heads), head_dim given, an lm_head of its own.
const BASE = { ...QWEN2_CONFIG, num_attention_heads: 6, num_key_value_heads: 2, head_dim: 4, rope_theta: 500, tie_word_embeddings: false };
const LLAMA = { ...BASE, model_type: 'llama' };
const mistral = (window: number | null | undefined) => ({ ...BASE, model_type: 'mistral', sliding_window: window });

const IDS = [3, 17, 5, 5, 39, 0, 12, 8, 3, 21, 4];
const chars: Tokenizer = {
  vocabSize: 40,
  encode: (text) => ({ ids: [...text].map((ch) => ch.charCodeAt(0) % 40), pieces: [...text] }),
  decodeOne: (id) => `t${id}`,
};
const bytesOf = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('sliding_window: a whole number is the window, null is full causal, absent is 4096; others refused naming the key', () => {
  assert.deepEqual(readModelConfig(JSON.stringify(mistral(5))).attention, { kind: 'sliding', window: 5 });
  assert.deepEqual(readModelConfig(JSON.stringify(mistral(null))).attention, { kind: 'causal' });
  assert.deepEqual(readModelConfig(JSON.stringify(mistral(undefined))).attention, { kind: 'sliding', window: 4096 });
  for (const bad of [0, -3, 2.5, '8']) {
    assert.throws(() => readModelConfig(JSON.stringify({ ...mistral(4), sliding_window: bad })), /^ModelError: config\.json: "sliding_window" must be a whole number from 1 to \d+, got /, String(bad));
  }
  assert.throws(() => readModelConfig(JSON.stringify({ ...mistral(4), rope_scaling: { rope_type: 'yarn', factor: 4 } })), /config\.json: "rope_scaling": .* is not supported/);
});

test('a window of n or more (or none) gives the llama run of the same tensors, bit for bit', () => {
  const llama = tinyCheckpoint(LLAMA, 3);
  const want = forward(...loaded(llama), IDS, { precision: 'f64' });
  for (const window of [IDS.length, IDS.length + 1, 4096, null]) {
    const got = forward(...loaded(tinyCheckpoint(mistral(window), 3)), IDS, { precision: 'f64' });
    got.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(want.attention[l])), `window ${window}: layer ${l}`));
    assert.ok(bytesOf(got.logits).equals(bytesOf(want.logits)), `window ${window}: logits`);
  }
});

function loaded(checkpoint: { configText: string; tensors: Map<string, TensorRef> }) {
  const m = loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f64' });
  return [m.config, m.names, m.weights] as const;
}

/** A tensor's numbers as plain float64 numbers (the tiny checkpoints are F32 in memory). */
function numbers(tensors: Map<string, TensorRef>, name: string): number[] {
  const t = tensors.get(name)!;
  const count = t.shape.reduce((a, b) => a * b, 1);
  return Array.from(new Float32Array(t.source.read(t.offset, count * 4).slice().buffer));
}

/**
 * The Llama-shaped forward pass with a sliding window, written from the formulas one number at a
 * time: RMSNorm, y = W · x for nn.Linear [out, in], RoPE on the two halves of each head, query head h
 * reading key/value head ⌊h / group⌋, softmax over keys i − W < j ≤ i, SwiGLU, the head.
 */
function reference(tensors: Map<string, TensorRef>, ids: readonly number[], window: number) {
  const E = BASE.hidden_size, H = BASE.num_attention_heads, KV = BASE.num_key_value_heads, D = BASE.head_dim, F = BASE.intermediate_size;
  const eps = 1e-6, theta = BASE.rope_theta, n = ids.length, group = H / KV;
  const get = (name: string) => numbers(tensors, name);
  const linear = (w: number[], x: number[], out: number) => Array.from({ length: out }, (_, o) => x.reduce((s, v, e) => s + w[o * x.length + e] * v, 0));
  const rms = (x: number[], w: number[]) => {
    const inv = 1 / Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length + eps);
    return x.map((v, e) => v * inv * w[e]);
  };
  const rotate = (v: number[], heads: number, position: number) => {
    const out = v.slice();
    for (let h = 0; h < heads; h++) {
      for (let d = 0; d < D / 2; d++) {
        const angle = position / theta ** ((2 * d) / D);
        const a = v[h * D + d], b = v[h * D + d + D / 2];
        out[h * D + d] = a * Math.cos(angle) - b * Math.sin(angle);
        out[h * D + d + D / 2] = b * Math.cos(angle) + a * Math.sin(angle);
      }
    }
    return out;
  };
  const embed = get('model.embed_tokens.weight');
  let x = ids.map((id) => embed.slice(id * E, (id + 1) * E));
  const attention: number[][][][] = [];
  for (let layer = 0; layer < BASE.num_hidden_layers; layer++) {
    const p = `model.layers.${layer}.`;
    const h = x.map((row) => rms(row, get(`${p}input_layernorm.weight`)));
    const q = h.map((row, i) => rotate(linear(get(`${p}self_attn.q_proj.weight`), row, H * D), H, i));
    const k = h.map((row, i) => rotate(linear(get(`${p}self_attn.k_proj.weight`), row, KV * D), KV, i));
    const v = h.map((row) => linear(get(`${p}self_attn.v_proj.weight`), row, KV * D));
    const heads: number[][][] = [];
    const mixed = x.map(() => new Array<number>(H * D).fill(0));
    for (let head = 0; head < H; head++) {
      const kv = Math.floor(head / group);
      heads.push(q.map((qi, i) => {
        const seen = Array.from({ length: n }, (_, j) => j > i - window && j <= i);
        const scores = k.map((kj, j) => seen[j] ? Array.from({ length: D }, (_, d) => qi[head * D + d] * kj[kv * D + d]).reduce((a, b) => a + b, 0) / Math.sqrt(D) : -Infinity);
        const top = Math.max(...scores);
        const e = scores.map((s) => (s === -Infinity ? 0 : Math.exp(s - top)));
        const sum = e.reduce((a, b) => a + b, 0);
        const w = e.map((t) => t / sum);
        for (let d = 0; d < D; d++) mixed[i][head * D + d] = w.reduce((s, wj, j) => s + wj * v[j][kv * D + d], 0);
        return w;
      }));
    }
    attention.push(heads);
    x = x.map((row, i) => {
      const out = linear(get(`${p}self_attn.o_proj.weight`), mixed[i], E);
      const mid = row.map((t, e) => t + out[e]);
      const m = rms(mid, get(`${p}post_attention_layernorm.weight`));
      const gate = linear(get(`${p}mlp.gate_proj.weight`), m, F), up = linear(get(`${p}mlp.up_proj.weight`), m, F);
      const act = gate.map((g, f) => (g / (1 + Math.exp(-g))) * up[f]);
      const down = linear(get(`${p}mlp.down_proj.weight`), act, E);
      return mid.map((t, e) => t + down[e]);
    });
  }
  const last = rms(x[n - 1], get('model.norm.weight'));
  return { attention, logits: linear(get('lm_head.weight'), last, BASE.vocab_size) };
}

for (const window of [1, 3, 5]) {
  test(`a window of ${window} < n: every weight and the logits as the float64 reference computes them; outside the window exactly 0`, () => {
    const checkpoint = tinyCheckpoint(mistral(window), 11);
    const [c, names, weights] = loaded(checkpoint);
    const want = reference(checkpoint.tensors, IDS, window);
    const got = forward(c, names, weights, IDS, { precision: 'f64' });
    const n = IDS.length;
    for (let layer = 0; layer < c.layers; layer++) {
      // The float64 weights as the block computed them (the run keeps float32 copies).
      const exact = forward(c, names, weights, IDS, { precision: 'f64', capture: { layer, stop: true } }).captured!.weights;
      for (let head = 0; head < c.heads; head++) {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            const at = head * n * n + i * n + j, w = want.attention[layer][head][i][j];
            assert.ok(Math.abs(exact[at] - w) < 1e-12, `layer ${layer} head ${head} (${i}, ${j}): ${exact[at]} vs ${w}`);
            assert.equal(got.attention[layer][at], Math.fround(exact[at]));
            if (j <= i - window || j > i) assert.ok(Object.is(got.attention[layer][at], 0), `(${i}, ${j}) is outside the window`);
          }
        }
      }
    }
    got.logits.forEach((v, t) => assert.ok(Math.abs(v - want.logits[t]) < 1e-10, `logit ${t}: ${v} vs ${want.logits[t]}`));
    // Not vacuous: the window changes the run.
    const full = forward(...loaded(tinyCheckpoint(mistral(null), 11)), IDS, { precision: 'f64' });
    assert.ok(!bytesOf(full.attention[1]).equals(bytesOf(got.attention[1])));
  });
}

for (const wasm of [true, false]) {
  test(`a window of 3 (${wasm ? 'WebAssembly kernel' : 'JavaScript products'}): a run reusing the last run's keys and values equals a fresh run bit for bit`, () => {
    useWasmKernel(wasm);
    const { configText, tensors } = tinyCheckpoint(mistral(3), 5);
    const kept = loadModel(configText, tensors, { precision: 'f64', keep: true });
    for (const [text, reused] of [['The cat sat on the mat', 0], ['The cat sat on a hat', 15], ['The cat sat on a hat.', 20], ['The c', 4]] as const) {
      const got = runText(kept, chars, text);
      const fresh = runText(loadModel(configText, tensors, { precision: 'f64' }), chars, text);
      assert.equal(got.reused, reused, text);
      got.attention.forEach((a, l) => assert.ok(bytesOf(a).equals(bytesOf(fresh.attention[l])), `${text}: layer ${l}`));
      assert.deepEqual(got.next.map((t) => [t.id, t.p]), fresh.next.map((t) => [t.id, t.p]), text);
    }
  });
}

test('the lens on a windowed head: its weights are the run\'s, 0 outside the window', () => {
  const { configText, tensors } = tinyCheckpoint(mistral(2), 7);
  const model = loadModel(configText, tensors, { precision: 'f64' });
  const run = runText(model, { ...chars, encode: () => ({ ids: IDS, pieces: IDS.map(String) }) }, 'any');
  const n = IDS.length;
  for (const [layer, head] of [[0, 0], [1, 5]]) {
    const lens = headLens(model, IDS, run.tokens, layer, head);
    assert.deepEqual([lens.kvHead, lens.rotary], [Math.floor(head / 3), true]);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const w = lens.weights[i * n + j];
      assert.equal(Math.fround(w), run.attention[layer][head * n * n + i * n + j]);
      if (j < i - 1 || j > i) assert.equal(w, 0);
    }
  }
});
