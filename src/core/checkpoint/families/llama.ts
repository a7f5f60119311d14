// Llama as Hugging Face saves it (and SmolLM, TinyLlama and the other models saved as model_type
// llama): the rotary decoder (shared/rotary-decoder.ts) without biases and with full causal attention, its
// RoPE scaled as rope_scaling says (linear, dynamic, llama3: Llama 3.1 and 3.2; shared/rope-scaling.ts). Its
// config may ask for attention or MLP biases (attention_bias, mlp_bias), which the description does
// not have: refused rather than run without them.
import type { Obj } from '../../json/object.js';
import { flag, refuse } from './shared/config-keys.js';
import type { Family } from './shared/family.js';
import { causalOnly, readRotaryConfig, rotaryBlock, rotaryTensors } from './shared/rotary-decoder.js';

function refusals(json: Obj, file: string): void {
  // Read as flags: Hugging Face takes any truthy value (1, "yes") as true, which `=== true` would run without.
  if (flag(json, file, 'attention_bias', false)) refuse(file, 'attention_bias', true, 'attn computes llama without attention biases');
  if (flag(json, file, 'mlp_bias', false)) refuse(file, 'mlp_bias', true, 'attn computes llama without MLP biases');
}

export const llama: Family<'llama'> = {
  name: 'llama',
  block: rotaryBlock(false),
  readConfig: (json, file) => readRotaryConfig(json, file, { attention: causalOnly, refusals, scaledRope: true }),
  tensors: rotaryTensors,
};
