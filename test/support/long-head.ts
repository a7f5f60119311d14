// Heads shaped like a long context's, for the map's tests: causal, a sink on the first token (and
// optionally a second one), weight on the last few tokens, and a few far "needle" links; stored as
// F16 (codes) or F32 in memory, read through the same reader a file on disk has.
import { writeFileSync } from 'node:fs';
import { attentionFromTensors } from '../../src/core/tensors/attention-file.js';
import type { AttentionSource } from '../../src/core/tensors/attention-source.js';
import { memorySource } from '../../src/core/tensors/source.js';

/** float16 bits of v (rounded toward zero: exact for the tests' purposes; subnormals kept). */
export function f16bits(v: number): number {
  const u = new Uint32Array(new Float32Array([v]).buffer)[0];
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, mant = u & 0x7fffff;
  if (exp <= 0) return exp < -10 ? sign : sign | ((mant | 0x800000) >> (14 - exp));
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | (mant >> 13);
}

/** Row i of a long-context head (n keys, float64, sums to 1): `sink2` a second key that most rows lean on. */
export function longRow(i: number, n: number, seed: number, out: Float64Array, sink2?: number): Float64Array {
  out.fill(0);
  let s = (seed * 2654435761 + i * 40503) >>> 0;
  const rand = () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  for (let j = 0; j <= i; j++) out[j] = 0.02 * rand() / (i + 1);
  out[0] += 0.45;
  if (sink2 !== undefined && i >= sink2) out[sink2] += 0.35;
  for (let d = 0; d < 4 && i - d >= 0; d++) out[i - d] += 0.05 / (d + 1);
  if (i > 64) out[Math.floor(rand() * (i - 32))] += 0.08;
  let sum = 0;
  for (let j = 0; j < n; j++) sum += out[j];
  for (let j = 0; j < n; j++) out[j] /= sum;
  return out;
}

/** layers × heads heads of n tokens (each its own seed): their F16 codes or F32 values, as bytes. */
export function longBytes(layers: number, heads: number, n: number, dtype: 'F16' | 'F32', sink2?: number): Uint8Array {
  const count = layers * heads * n * n;
  const values = dtype === 'F16' ? new Uint16Array(count) : new Float32Array(count);
  const row = new Float64Array(n);
  for (let h = 0; h < layers * heads; h++) {
    for (let i = 0; i < n; i++) {
      longRow(i, n, h + 1, row, sink2);
      const at = (h * n + i) * n;
      for (let j = 0; j < n; j++) values[at + j] = dtype === 'F16' ? f16bits(row[j]) : row[j];
    }
  }
  return new Uint8Array(values.buffer);
}

/** The heads of longBytes as a source read as a file is. */
export function longAttention(layers: number, heads: number, n: number, dtype: 'F16' | 'F32', sink2?: number, tokens?: string[]): AttentionSource {
  const bytes = longBytes(layers, heads, n, dtype, sink2);
  return attentionFromTensors('long.safetensors', [{ name: 'attention', dtype, shape: [layers, heads, n, n], source: memorySource('long.safetensors', bytes), offset: 0 }], tokens, () => {});
}

/** Writes the heads of longBytes as a one-tensor .safetensors file. */
export function writeLongFile(path: string, layers: number, heads: number, n: number, dtype: 'F16' | 'F32', sink2?: number): void {
  const bytes = longBytes(layers, heads, n, dtype, sink2);
  const header = Buffer.from(JSON.stringify({ attention: { dtype, shape: [layers, heads, n, n], data_offsets: [0, bytes.length] } }));
  const size = Buffer.alloc(8);
  size.writeBigUInt64LE(BigInt(header.length));
  writeFileSync(path, Buffer.concat([size, header, bytes]));
}
