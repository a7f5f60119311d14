// Tiny random checkpoints held in memory for the runner's unit tests: a config.json text and every
// tensor the architecture reads (from namesOf, so the names are the runner's own), as F32 tensors in
// one memory source. The PyTorch comparison writes its own files (test/reference/torch_forward.py).
import { memorySource } from '../../src/core/tensors/source.js';
import type { TensorRef } from '../../src/core/tensors/attention-file.js';
import { readModelConfig } from '../../src/core/checkpoint/config.js';
import { namesOf } from '../../src/core/checkpoint/weights.js';
import { seeded } from './random.js';

export const GPT2_CONFIG = { model_type: 'gpt2', n_embd: 16, n_head: 4, n_layer: 2, n_positions: 32, vocab_size: 40 };
export const QWEN2_CONFIG = {
  model_type: 'qwen2', hidden_size: 16, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 6, intermediate_size: 24,
  num_hidden_layers: 2, max_position_embeddings: 32, vocab_size: 40, tie_word_embeddings: true, rope_theta: 100,
};
/** Qwen3's keys: head_dim given (not hidden / heads), q/k norms, 8 query heads over 2 key/value heads. */
export const QWEN3_CONFIG = {
  model_type: 'qwen3', hidden_size: 16, num_attention_heads: 8, num_key_value_heads: 2, head_dim: 6, intermediate_size: 24,
  num_hidden_layers: 2, max_position_embeddings: 32, vocab_size: 40, tie_word_embeddings: true, rope_theta: 1000, attention_bias: false,
  use_sliding_window: false, sliding_window: null,
};

/** The config's text and its tensors (random, seeded), plus any `extra` tensors. */
export function tinyCheckpoint(config: object, seed = 1, extra: Record<string, number[]> = {}): { configText: string; tensors: Map<string, TensorRef> } {
  const configText = JSON.stringify(config);
  const { shapes } = namesOf(readModelConfig(configText), () => false);
  for (const [name, shape] of Object.entries(extra)) shapes.set(name, shape);
  const rand = seeded(seed);
  const count = (s: number[]) => s.reduce((a, b) => a * b, 1);
  const total = [...shapes.values()].reduce((a, s) => a + count(s), 0);
  const data = new Float32Array(total);
  for (let i = 0; i < total; i++) data[i] = (rand() - 0.5) * 1.2;
  const source = memorySource('model.safetensors', new Uint8Array(data.buffer));
  const tensors = new Map<string, TensorRef>();
  let at = 0;
  for (const [name, shape] of shapes) {
    tensors.set(name, { name, dtype: 'F32', shape, source, offset: at * 4 });
    at += count(shape);
  }
  return { configText, tensors };
}
