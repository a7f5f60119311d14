// Qwen3 as Hugging Face saves it: the rotary decoder (shared/rotary-decoder.ts) without biases, head_dim
// given (128 beside hidden_size 1024 in Qwen3-0.6B), and each head's q and k RMS-normed over head_dim
// (self_attn.q_norm, k_norm: one weight per layer, shared by the heads, eps rms_norm_eps) before RoPE;
// its sliding window as Qwen2's (shared/qwen-sliding.ts). attention_bias true would put biases on q, k, v and
// o, which the description does not have: refused rather than run without them.
import type { Obj } from '../../json/object.js';
import { flag, refuse } from './shared/config-keys.js';
import type { Family } from './shared/family.js';
import { qwenAttention } from './shared/qwen-sliding.js';
import { readRotaryConfig, rotaryBlock, rotaryTensors } from './shared/rotary-decoder.js';

function refusals(json: Obj, file: string): void {
  if (flag(json, file, 'attention_bias', false)) refuse(file, 'attention_bias', true, 'attn computes qwen3 without attention biases');
}

export const qwen3: Family<'qwen3'> = {
  name: 'qwen3',
  block: rotaryBlock(false, true),
  readConfig: (json, file) => readRotaryConfig(json, file, { attention: qwenAttention, refusals }),
  tensors: rotaryTensors,
};
