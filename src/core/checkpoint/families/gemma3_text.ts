// Gemma 3's text model as Hugging Face saves it (gemma-3-270m, gemma-3-1b; the larger ones' text
// part): the GeGLU decoder (geglu-decoder.ts) with sandwich norms and per-head q and k norms, scores
// divided by √query_pre_attn_scalar, no softcapping by default (final_logit_softcapping is applied
// when given; attn_logit_softcapping is stored but never applied by Hugging Face's Gemma 3 code, so
// a value there is refused), sliding layers (window sliding_window) rotating with
// rope_local_base_freq, global layers with rope_theta (default 1,000,000) and rope_scaling (linear in
// the 4B and larger); the pattern is layer_types, else every sliding_window_pattern-th layer
// (default 6) global. use_bidirectional_attention (embedding models) is refused.
import type { Family } from './family.js';
import { gegluBlock, gegluTensors, readGegluConfig, type GegluOptions } from './geglu-decoder.js';

const OPTIONS: GegluOptions = {
  sandwich: true, qkNorm: true, queryScalar: true, softcaps: { attention: 'ignored', final: null },
  sliding: { period: 6, patternKey: 'sliding_window_pattern' }, localThetaKey: 'rope_local_base_freq',
  theta: 1000000, context: 131072, bidirectionalKey: true,
};

export const gemma3_text: Family<'gemma3_text'> = {
  name: 'gemma3_text',
  block: gegluBlock(OPTIONS),
  readConfig: (json, file) => readGegluConfig(json, file, OPTIONS),
  tensors: gegluTensors,
};
