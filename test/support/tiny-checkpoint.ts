// Tiny random checkpoints held in memory for the runner's unit tests: a config.json text and every
// tensor the architecture reads (from namesOf, so the names are the runner's own), as F32 tensors in
// one memory source. The PyTorch comparison writes its own files (test/reference/torch_forward.py).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memorySource } from '../../src/core/tensors/source.js';
import { writeSafetensors } from '../../src/core/tensors/safetensors-write.js';
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

/**
 * microsoft/Phi-3-mini-4k-instruct's config.json with every key as published but the sizes (hidden
 * 3072, 32 heads, 32 layers, 8192, 4096 positions, 32064 tokens there).
 */
export const PHI3_MINI_4K_CONFIG = {
  _name_or_path: 'Phi-3-mini-4k-instruct', architectures: ['Phi3ForCausalLM'], attention_dropout: 0.0,
  auto_map: { AutoConfig: 'configuration_phi3.Phi3Config', AutoModelForCausalLM: 'modeling_phi3.Phi3ForCausalLM' },
  bos_token_id: 1, embd_pdrop: 0.0, eos_token_id: 32000, hidden_act: 'silu', hidden_size: 16, initializer_range: 0.02,
  intermediate_size: 24, max_position_embeddings: 64, model_type: 'phi3', num_attention_heads: 4, num_hidden_layers: 2,
  num_key_value_heads: 4, original_max_position_embeddings: 4096, pad_token_id: 32000, resid_pdrop: 0.0, rms_norm_eps: 1e-5,
  rope_scaling: null, rope_theta: 10000.0, sliding_window: 2047, tie_word_embeddings: false, torch_dtype: 'bfloat16',
  transformers_version: '4.40.2', use_cache: true, attention_bias: false, vocab_size: 40,
};

/**
 * EleutherAI/pythia-70m's config.json with every key as published but the sizes (hidden 512, 8 heads
 * of 64 dims, 6 layers, 2048, 50304 tokens there): heads of 8 dims keep rotary_pct 0.25 whole (2 dims).
 */
export const PYTHIA_70M_CONFIG = {
  architectures: ['GPTNeoXForCausalLM'], bos_token_id: 0, eos_token_id: 0, hidden_act: 'gelu', hidden_size: 32,
  initializer_range: 0.02, intermediate_size: 64, layer_norm_eps: 1e-5, max_position_embeddings: 64, model_type: 'gpt_neox',
  num_attention_heads: 4, num_hidden_layers: 2, rotary_emb_base: 10000, rotary_pct: 0.25, tie_word_embeddings: false,
  torch_dtype: 'float16', transformers_version: '4.24.0', use_cache: true, use_parallel_residual: true, vocab_size: 40,
};

/** EleutherAI/pythia-160m's keys (pythia-70m's, hidden 768, 12 heads, 12 layers, 3072), sizes shrunk: heads of 16 dims, 4 rotated. */
export const PYTHIA_160M_CONFIG = { ...PYTHIA_70M_CONFIG, hidden_size: 48, intermediate_size: 96, num_attention_heads: 3, num_hidden_layers: 3 };

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

// The encoders' published config.json files (bert-base-uncased, roberta-base, distilbert-base-uncased),
// every key as published but the sizes, shrunk.
export const BERT_CONFIG = {
  architectures: ['BertForMaskedLM'], attention_probs_dropout_prob: 0.1, gradient_checkpointing: false, hidden_act: 'gelu',
  hidden_dropout_prob: 0.1, hidden_size: 16, initializer_range: 0.02, intermediate_size: 24, layer_norm_eps: 1e-12,
  max_position_embeddings: 32, model_type: 'bert', num_attention_heads: 4, num_hidden_layers: 2, pad_token_id: 0,
  position_embedding_type: 'absolute', transformers_version: '4.6.0.dev0', type_vocab_size: 2, use_cache: true, vocab_size: 40,
};
export const ROBERTA_CONFIG = {
  architectures: ['RobertaForMaskedLM'], attention_probs_dropout_prob: 0.1, bos_token_id: 0, eos_token_id: 2, hidden_act: 'gelu',
  hidden_dropout_prob: 0.1, hidden_size: 16, initializer_range: 0.02, intermediate_size: 24, layer_norm_eps: 1e-5,
  max_position_embeddings: 34, model_type: 'roberta', num_attention_heads: 4, num_hidden_layers: 2, pad_token_id: 1,
  type_vocab_size: 1, vocab_size: 40,
};
export const DISTILBERT_CONFIG = {
  activation: 'gelu', architectures: ['DistilBertForMaskedLM'], attention_dropout: 0.1, dim: 16, dropout: 0.1, hidden_dim: 24,
  initializer_range: 0.02, max_position_embeddings: 32, model_type: 'distilbert', n_heads: 4, n_layers: 2, pad_token_id: 0,
  qa_dropout: 0.1, seq_classif_dropout: 0.2, sinusoidal_pos_embds: false, tie_weights_: true, transformers_version: '4.10.0.dev0',
  vocab_size: 40,
};

/** A checkpoint's tensors as safetensors-write takes them (F32, their numbers copied out). */
export function tensorsToWrite(tensors: Map<string, TensorRef>): { name: string; dtype: 'F32'; shape: number[]; data: Float32Array }[] {
  return [...tensors.values()].map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    return { name: t.name, dtype: 'F32' as const, shape: [...t.shape], data: new Float32Array(t.source.read(t.offset, count * 4).slice().buffer) };
  });
}

/** Writes an in-memory checkpoint as a folder (config.json, model.safetensors in F32) for a reference to read; returns the folder. */
export function writeCheckpoint(dir: string, configText: string, tensors: Map<string, TensorRef>): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), configText);
  writeFileSync(join(dir, 'model.safetensors'), writeSafetensors(tensorsToWrite(tensors)));
  return dir;
}
