// The memory estimate of a float64 run (src/core/checkpoint/model.ts's runBytes): the float64 form
// widens each product's matrix whole on use, but never the embedding or the head (their rows are read
// one at a time, the logits a block of rows at a time). So a bigger vocabulary costs a float64 run what
// it costs a float32 one — its stored bytes — and a Llama-3.2-1B-shaped BF16 model, whose embedding is
// its largest tensor by 16 times, runs in float64 within the default budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RUN_BYTES, loadModel, mostTokens, runBytes, runRefusal } from '../../../../src/core/checkpoint/model.js';
import { readModelConfig } from '../../../../src/core/checkpoint/config.js';
import { namesOf } from '../../../../src/core/checkpoint/weights.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { seeded } from '../../../support/random.js';

/** Tensors of the config's shapes in `dtype` with no bytes behind them (the estimate reads shapes alone). */
function shapesOnly(config: object, dtype: 'BF16' | 'F32'): Map<string, TensorRef> {
  const none = memorySource('model.safetensors', new Uint8Array(0));
  const { shapes } = namesOf(readModelConfig(JSON.stringify(config)), () => false);
  return new Map([...shapes].map(([name, shape]) => [name, { name, dtype, shape, source: none, offset: 0 }]));
}

const LLAMA_1B = {
  model_type: 'llama', hidden_size: 2048, intermediate_size: 8192, num_hidden_layers: 16, num_attention_heads: 32, num_key_value_heads: 8,
  head_dim: 64, vocab_size: 128256, max_position_embeddings: 131072, rope_theta: 500000, rms_norm_eps: 1e-5, tie_word_embeddings: true,
};

test('a Llama-3.2-1B-shaped BF16 model runs 128 tokens in float64 within the default budget, kept or not', () => {
  const tensors = shapesOnly(LLAMA_1B, 'BF16');
  for (const keep of [false, true]) {
    const m = loadModel(JSON.stringify(LLAMA_1B), tensors, { keep, precision: 'f64' });
    assert.equal(m.elements.product, 8192 * 2048, 'the MLP matrices are the largest a product widens');
    assert.equal(runRefusal(m, 128, DEFAULT_RUN_BYTES), undefined, `keep ${keep}: ${runRefusal(m, 128, DEFAULT_RUN_BYTES)}`);
    assert.ok(mostTokens(m, DEFAULT_RUN_BYTES) >= 128);
  }
});

test('in float64 as in float32, a bigger vocabulary costs its stored bytes alone (seeded shapes, tied and not)', () => {
  const r = seeded(64);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  for (let i = 0; i < 40; i++) {
    const heads = 2 ** int(1, 4), headDim = 2 ** int(3, 6);
    const config = {
      model_type: 'llama', hidden_size: heads * headDim, intermediate_size: heads * headDim * int(2, 4), num_hidden_layers: int(1, 4),
      num_attention_heads: heads, num_key_value_heads: heads, max_position_embeddings: 4096, tie_word_embeddings: r() < 0.5,
    };
    const vocabs = [int(100, 1000), int(50_000, 260_000)];
    const n = int(1, 300), keep = r() < 0.5, dtype = r() < 0.5 ? 'BF16' : 'F32';
    const cost = (precision: 'f32' | 'f64', vocab: number) => {
      const c = { ...config, vocab_size: vocab };
      return runBytes(loadModel(JSON.stringify(c), shapesOnly(c, dtype), { keep, precision }), n);
    };
    const grew = (precision: 'f32' | 'f64') => cost(precision, vocabs[1]) - cost(precision, vocabs[0]);
    assert.equal(grew('f64'), grew('f32'), `case ${i}: ${JSON.stringify({ ...config, vocabs, n, keep, dtype })}`);
  }
});
