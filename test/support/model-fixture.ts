// Small model attention for the model views' tests: layers × heads × n random softmax rows (a
// seeded generator, so every run sees the same numbers), as an AttentionSource over memory or as a
// .safetensors file on disk with its tokens in __metadata__.
import { writeFileSync } from 'node:fs';
import { attentionFromTensors } from '../../src/core/tensors/attention-file.js';
import type { AttentionSource } from '../../src/core/tensors/attention-source.js';
import { memorySource } from '../../src/core/tensors/source.js';

export function randomAttention(layers: number, heads: number, n: number, seed = 1): Float32Array {
  let s = seed >>> 0;
  const rand = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  const a = new Float32Array(layers * heads * n * n);
  for (let r = 0; r < layers * heads * n; r++) {
    let sum = 0;
    for (let j = 0; j < n; j++) { const e = Math.exp(4 * rand()); a[r * n + j] = e; sum += e; }
    for (let j = 0; j < n; j++) a[r * n + j] /= sum;
  }
  return a;
}

export function memoryAttention(values: Float32Array, layers: number, heads: number, n: number, tokens?: string[]): AttentionSource {
  const source = memorySource('mem.safetensors', new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  return attentionFromTensors('mem.safetensors', [{ name: 'attn', dtype: 'F32', shape: [layers, heads, n, n], source, offset: 0 }], tokens, () => {});
}

/** Writes a one-tensor F32 .safetensors [layers, heads, n, n] with tokens in its metadata. */
export function writeSafetensors(path: string, values: Float32Array, layers: number, heads: number, n: number, tokens?: string[]): void {
  const header = JSON.stringify({
    attention: { dtype: 'F32', shape: [layers, heads, n, n], data_offsets: [0, values.byteLength] },
    ...(tokens ? { __metadata__: { tokens: JSON.stringify(tokens) } } : {}),
  });
  const text = Buffer.from(header);
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(text.length));
  writeFileSync(path, Buffer.concat([size, text, Buffer.from(values.buffer, values.byteOffset, values.byteLength)]));
}
