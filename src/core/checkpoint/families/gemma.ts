// Gemma (1) as Hugging Face saves it (gemma-2b, gemma-7b): the GeGLU decoder (shared/geglu-decoder.ts) with
// pre-norms, scores divided by √head_dim, full causal attention and no softcapping; gemma-2b has one
// key/value head. Its config.json says hidden_act "gelu", which Hugging Face's Gemma code does not
// read (it computes hidden_activation, default gelu_pytorch_tanh): so neither does this.
import type { Family } from './shared/family.js';
import { gegluBlock, gegluTensors, readGegluConfig } from './shared/geglu-decoder.js';

const OPTIONS = { sandwich: false, qkNorm: false, queryScalar: false, theta: 10000, context: 8192 };

export const gemma: Family<'gemma'> = {
  name: 'gemma',
  block: gegluBlock(OPTIONS),
  readConfig: (json, file) => readGegluConfig(json, file, OPTIONS),
  tensors: gegluTensors,
};
