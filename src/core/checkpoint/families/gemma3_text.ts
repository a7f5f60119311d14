// Gemma 3's text model as Hugging Face saves it (gemma-3-270m, gemma-3-1b; the larger ones' text
// part): the GeGLU decoder (shared/geglu-decoder.ts) with sandwich norms and per-head q and k norms, scores
// divided by √query_pre_attn_scalar, no softcapping by default (final_logit_softcapping is applied
// when given; attn_logit_softcapping is stored but never applied by Hugging Face's Gemma 3 code, so
// a value there is refused), sliding layers (window sliding_window) rotating with
// rope_local_base_freq, global layers with rope_theta (default 1,000,000) and rope_scaling (linear in
// the 4B and larger); the pattern is layer_types, else every sliding_window_pattern-th layer
// (default 6) global. use_bidirectional_attention (embedding models) is refused. A key absent takes
// Gemma3TextConfig's default, sizes included, as Hugging Face loads it.
import type { Family } from './shared/family.js';
import { gegluBlock, gegluTensors, readGegluConfig, type GegluOptions } from './shared/geglu-decoder.js';

/** The text model's model_type, which a multimodal config's text_config names. */
export const TEXT_TYPE = 'gemma3_text';

/** Hugging Face's Gemma3TextConfig, keys and defaults (the multimodal gemma3 reads its text_config with these too). */
export const TEXT_OPTIONS: GegluOptions = {
  sandwich: true, qkNorm: true, queryScalar: true, softcaps: { attention: 'ignored', final: null },
  sliding: { period: 6, patternKey: 'sliding_window_pattern' }, localThetaKey: 'rope_local_base_freq',
  theta: 1000000, context: 131072, bidirectionalKey: true,
  sizes: { hidden_size: 2304, num_attention_heads: 8, num_key_value_heads: 4, num_hidden_layers: 26, vocab_size: 262208, intermediate_size: 9216 },
};

export const gemma3_text: Family<typeof TEXT_TYPE> = {
  name: TEXT_TYPE,
  block: gegluBlock(TEXT_OPTIONS),
  readConfig: (json, file) => readGegluConfig(json, file, TEXT_OPTIONS),
  tensors: gegluTensors,
};
