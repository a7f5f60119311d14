// Notebook payloads for tests (src/core/model-attention/payload.ts): random attention as the Python package
// sends it, base64 of the little-endian float32 (or float16) values with its shape and tokens.
import type { AttentionPayload } from '../../src/core/model-attention/payload.js';
import { randomAttention } from './model-fixture.js';

export function payloadOf(values: Float32Array, layers: number, heads: number, n: number, extra: Partial<AttentionPayload> = {}): AttentionPayload {
  return {
    tokens: Array.from({ length: n }, (_, i) => `t${i}`),
    shape: [layers, heads, n, n],
    dtype: 'float32',
    data: Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64'),
    ...extra,
  };
}

/** A random payload of layers × heads × n (rows summing to 1) and its values. */
export function randomPayload(layers: number, heads: number, n: number, seed = 1, extra: Partial<AttentionPayload> = {}) {
  const values = randomAttention(layers, heads, n, seed);
  return { values, payload: payloadOf(values, layers, heads, n, extra) };
}

/** float32 → IEEE half bits (rounded half up; the tests use values a half holds exactly). */
export function halfBits(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, mant = u & 0x7fffff;
  if (((u >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    const m = (mant | 0x800000) >> (1 - exp);
    return sign | ((m + 0x1000) >> 13);
  }
  return sign | ((exp << 10) + ((mant + 0x1000) >> 13));
}
