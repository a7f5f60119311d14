// Qwen2 (and Qwen2.5) as Hugging Face saves it: the rotary decoder (rotary-decoder.ts) with biases on
// q, k and v (never on o or the MLP, whatever the config says: its modelling code fixes them). Its
// sliding window (use_sliding_window, on layers from max_window_layers) is refused: the block
// computes one attention kind for every layer.
import type { Family } from './family.js';
import { causalOnly, readRotaryConfig, rotaryBlock, rotaryTensors } from './rotary-decoder.js';

export const qwen2: Family<'qwen2'> = {
  name: 'qwen2',
  block: rotaryBlock(true),
  readConfig: (json, file) => readRotaryConfig(json, file, { attention: causalOnly }),
  tensors: rotaryTensors,
};
