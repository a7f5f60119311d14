// Qwen2 (and Qwen2.5) as Hugging Face saves it: the rotary decoder (shared/rotary-decoder.ts) with biases on
// q, k and v (never on o or the MLP, whatever the config says: its modelling code fixes them), and its
// sliding window on the layers its config names (use_sliding_window, sliding_window,
// max_window_layers, layer_types: shared/qwen-sliding.ts).
import type { Family } from './shared/family.js';
import { qwenAttention } from './shared/qwen-sliding.js';
import { readRotaryConfig, rotaryBlock, rotaryTensors } from './shared/rotary-decoder.js';

export const qwen2: Family<'qwen2'> = {
  name: 'qwen2',
  block: rotaryBlock(true),
  readConfig: (json, file) => readRotaryConfig(json, file, { attention: qwenAttention }),
  tensors: rotaryTensors,
};
