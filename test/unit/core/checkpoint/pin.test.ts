// A pin of the forward pass's bits: sha256 of every layer's attention (float32, [heads, n, n] per
// layer, in layer order) and of the logits (float64) for gpt2, llama (6 query heads over 2 key/value
// heads) and qwen2 (grouped-query, q/k/v biases) on tiny seeded random checkpoints, for a fresh run
// and for a run reusing a kept run's first 8 positions, on the WebAssembly kernel and the JavaScript
// products. The expected hashes were computed from the forward pass at commit 3ea5fd2
// (src/core/transformer/forward.ts there), on the same checkpoints and ids: any change to a bit of
// the attention or the logits of these families fails here.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { useWasmKernel } from '../../../../src/core/kernels/gemm.js';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { GPT2_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

after(() => useWasmKernel(true));

const FAMILIES: { name: string; config: object; seed: number; attention: string; logits: string }[] = [
  {
    name: 'gpt2', config: GPT2_CONFIG, seed: 21,
    attention: '59de9a60957f878c7b3bb84e54831ea84059d6d5d67ac6465b8bb9f1aef4c5c3',
    logits: '9021c12ddb6d5f598d10b097bf35aef860452f009fab4cc2689d87f06ddfbbae',
  },
  {
    name: 'llama (grouped-query)', seed: 22,
    config: { ...QWEN2_CONFIG, model_type: 'llama', num_attention_heads: 6, num_key_value_heads: 2, head_dim: 4, rope_theta: 500, tie_word_embeddings: false },
    attention: '01d2624ece78bbd9410880791521622c14a58dbad0929424b57b820118d87b21',
    logits: 'de41fde906d031d40de5e887a0e8fc87b9eda9e14b2fd9a035db65e156104345',
  },
  {
    name: 'qwen2', config: QWEN2_CONFIG, seed: 23,
    attention: 'a953da984f525fca78f018da25da36a61bb384021ba9828b0a4814752a604e50',
    logits: '5716885f053715430231e193921a96dabf4510da3d965e4a5d68e4c17833211e',
  },
];

const KEPT = [3, 17, 5, 5, 39, 0, 12, 8, 3, 21, 4, 30, 9];
const IDS = [3, 17, 5, 5, 39, 0, 12, 8, 7, 1, 26, 11, 2, 19, 33];

function sha256(arrays: readonly (Float32Array | Float64Array)[]): string {
  const hash = createHash('sha256');
  for (const a of arrays) hash.update(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  return hash.digest('hex');
}

for (const wasm of [true, false]) {
  for (const family of FAMILIES) {
    test(`${family.name} (${wasm ? 'WebAssembly kernel' : 'JavaScript products'}): a fresh and a reused run give the pinned attention and logits`, () => {
      useWasmKernel(wasm);
      const { configText, tensors } = tinyCheckpoint(family.config, family.seed);
      const m = loadModel(configText, tensors, { precision: 'f64', keep: true });
      const fresh = forward(m.config, m.names, m.weights, IDS, { precision: 'f64' });
      assert.equal(sha256(fresh.attention), family.attention, 'fresh: attention');
      assert.equal(sha256([fresh.logits]), family.logits, 'fresh: logits');
      const kept = forward(m.config, m.names, m.weights, KEPT, { precision: 'f64', keep: true }).kept!;
      const reused = forward(m.config, m.names, m.weights, IDS, { precision: 'f64', reuse: kept });
      assert.equal(reused.reused, 8);
      assert.equal(sha256(reused.attention), family.attention, 'reused: attention');
      assert.equal(sha256([reused.logits]), family.logits, 'reused: logits');
    });
  }
}
