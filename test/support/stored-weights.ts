// Seeded float32 inputs and stored weights of every dtype for the float32 kernel's tests: moderate,
// finite numbers of both signs, optionally over a SharedArrayBuffer (as the forward stores them).
import type { StoredDType, StoredMatrix } from '../../src/core/kernels/stored.js';
import { seeded } from './random.js';

export const DTYPES: readonly StoredDType[] = ['F32', 'F16', 'BF16', 'F64'];

/** n × k numbers in [−1, 1). */
export function randomFloats(count: number, seed: number): Float32Array {
  const rand = seeded(seed);
  return Float32Array.from({ length: count }, () => rand() * 2 - 1);
}

/** A rows × cols weight in `dtype` with every value within about ±2 (F16, BF16: random raw words in that range). */
export function randomStored(dtype: StoredDType, rows: number, cols: number, seed: number, shared = false): StoredMatrix {
  const rand = seeded(seed), count = rows * cols;
  const bytes = count * (dtype === 'F64' ? 8 : dtype === 'F32' ? 4 : 2);
  const buffer = shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  let data: StoredMatrix['data'];
  if (dtype === 'F64' || dtype === 'F32') {
    data = dtype === 'F64' ? new Float64Array(buffer) : new Float32Array(buffer);
    for (let i = 0; i < count; i++) data[i] = (rand() * 4 - 2) * (1 + 1e-9);
  } else {
    data = new Uint16Array(buffer);
    // Sign, then an exponent a few steps either side of 1's, then a random mantissa.
    const [bias, mantissaBits] = dtype === 'F16' ? [15, 10] : [127, 7];
    for (let i = 0; i < count; i++) {
      const sign = rand() < 0.5 ? 1 : 0, exponent = bias - 6 + Math.floor(rand() * 7), mantissa = Math.floor(rand() * 2 ** mantissaBits);
      data[i] = (sign << 15) | (exponent << mantissaBits) | mantissa;
    }
  }
  return { dtype, rows, cols, data };
}
