// Mistral as Hugging Face saves it: the rotary decoder (shared/rotary-decoder.ts) without biases, whose
// attention may slide: with sliding_window W, query i sees keys i − W < j ≤ i (W keys, itself
// included), as Hugging Face's masking_utils builds the mask (kv_idx > q_idx − W on top of the causal
// mask). null means full causal attention (Mistral 7B v0.2 and later); a config without the key gets
// MistralConfig's default of 4096, as Hugging Face loads it.
import type { Obj } from '../../json/object.js';
import { size } from './shared/config-keys.js';
import type { AttentionKind, Family } from './shared/family.js';
import { readRotaryConfig, rotaryBlock, rotaryTensors } from './shared/rotary-decoder.js';

/** Hugging Face's MistralConfig.sliding_window when config.json does not give one. */
const DEFAULT_WINDOW = 4096;

function attention(json: Obj, file: string): AttentionKind {
  if (json.sliding_window === null) return { kind: 'causal' };
  return { kind: 'sliding', window: size(json, file, ['sliding_window'], DEFAULT_WINDOW) };
}

export const mistral: Family<'mistral'> = {
  name: 'mistral',
  block: rotaryBlock(false),
  readConfig: (json, file) => readRotaryConfig(json, file, { attention }),
  tensors: rotaryTensors,
};
