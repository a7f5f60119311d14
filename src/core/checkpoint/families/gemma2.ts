// Gemma 2 as Hugging Face saves it (gemma-2-2b, -9b, -27b): the GeGLU decoder (shared/geglu-decoder.ts) with
// sandwich norms, scores divided by √query_pre_attn_scalar and softcapped by attn_logit_softcapping
// (default 50) before the mask, final logits softcapped by final_logit_softcapping (default 30; null:
// none), and sliding-window attention (sliding_window, default 4096) on the even layers (0, 2, …),
// global on the odd ones, unless layer_types lists them.
import type { Family } from './shared/family.js';
import { gegluBlock, gegluTensors, readGegluConfig, type GegluOptions } from './shared/geglu-decoder.js';

const OPTIONS: GegluOptions = {
  sandwich: true, qkNorm: false, queryScalar: true, softcaps: { attention: 50, final: 30 },
  sliding: { period: 2 }, theta: 10000, context: 8192,
};

export const gemma2: Family<'gemma2'> = {
  name: 'gemma2',
  block: gegluBlock(OPTIONS),
  readConfig: (json, file) => readGegluConfig(json, file, OPTIONS),
  tensors: gegluTensors,
};
