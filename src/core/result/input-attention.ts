// A computed spec's input as the model views and `attn inspect` read attention (core/tensors/
// attention-source.ts): one layer of the spec's heads, each head's weights read where the compute
// left them (float64, so an F64 source), with the input's tokens. Nothing is copied or encoded.
import { arrayAttention, type AttentionSource } from '../tensors/attention-source.js';
import type { InputData } from './attention-data.js';

export function inputAttention(input: InputData, name = input.name): AttentionSource {
  return arrayAttention({
    file: name, layers: 1, heads: input.heads.length, n: input.tokens.length, tokens: [...input.tokens],
    weights: (_layer, head) => input.heads[head].weights.data,
  });
}
