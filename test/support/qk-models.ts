// Tiny random checkpoints of the shapes a run that keeps q and k must reproduce bit for bit, with
// room for 1,024 tokens: GPT-2 (learned positions, one key head per query head), Qwen2 (grouped-query
// heads, RoPE), Gemma 2 (a sliding window on even layers, the attention's softcap, sandwich norms),
// BERT (every key seen).
import { loadModel, type LoadedModel } from '../../src/core/checkpoint/model.js';
import { BERT_CONFIG, GPT2_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from './tiny-checkpoint.js';

export const GEMMA2_CONFIG = {
  model_type: 'gemma2', hidden_size: 16, num_attention_heads: 4, num_key_value_heads: 2, head_dim: 8, intermediate_size: 24,
  num_hidden_layers: 2, max_position_embeddings: 2048, vocab_size: 40, sliding_window: 100, attn_logit_softcapping: 2,
  final_logit_softcapping: 30, query_pre_attn_scalar: 8, rope_theta: 10000, rms_norm_eps: 1e-6, hidden_activation: 'gelu_pytorch_tanh',
};

export const QK_SHAPES: Record<string, object> = {
  'gpt2': { ...GPT2_CONFIG, n_positions: 1024 },
  'qwen2 (grouped-query, RoPE)': { ...QWEN2_CONFIG, max_position_embeddings: 1024 },
  'gemma2 (sliding window, softcap)': GEMMA2_CONFIG,
  'bert (bidirectional)': { ...BERT_CONFIG, max_position_embeddings: 1024 },
};

export function qkModel(config: object, seed = 3): LoadedModel {
  const { configText, tensors } = tinyCheckpoint(config, seed);
  return loadModel(configText, tensors);
}

/** n ids in the vocabulary, seeded. */
export function qkIds(n: number, vocab: number, seed = 7): number[] {
  let s = seed;
  return Array.from({ length: n }, () => (s = (s * 1103515245 + 12345) % 2147483648) % vocab);
}
