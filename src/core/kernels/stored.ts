// A weight matrix as its file stores it, so that a run holds every weight once, in the file's own
// type, and widens it to float32 only a tile at a time while the kernel packs it.
import { float16 } from '../tensors/dtype.js';

export type StoredDType = 'F64' | 'F32' | 'F16' | 'BF16';

/** How a weight matrix is laid out: [in, out] (a Conv1D's; y = x · W) or [out, in] (an nn.Linear's; y = x · Wᵀ). */
export type WeightLayout = 'in-out' | 'out-in';

/**
 * rows × cols, row-major: F64 and F32 as their arrays, F16 and BF16 as their raw 16-bit words (which
 * may live in a SharedArrayBuffer, so the kernel's threads read them where they are).
 */
export interface StoredMatrix {
  readonly dtype: StoredDType;
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array | Float32Array | Uint16Array;
}

let HALF: Float32Array | undefined;
/** All 65,536 half floats as float32 (exact: every half is a float32), decoded once. */
export function halfTable32(): Float32Array {
  if (!HALF) {
    HALF = new Float32Array(65536);
    for (let b = 0; b < 65536; b++) HALF[b] = float16(b);
  }
  return HALF;
}

/**
 * Elements from…from + count − 1 of the stored array, widened (or, for F64, rounded) to float32 into
 * `out` at `at`: BF16 is the top half of a float32's bits, F16 a table lookup.
 */
export function widenInto(m: StoredMatrix, from: number, count: number, out: Float32Array, at: number): void {
  switch (m.dtype) {
    case 'F32':
    case 'F64':
      for (let i = 0; i < count; i++) out[at + i] = m.data[from + i];
      return;
    case 'F16': {
      const table = halfTable32(), d = m.data as Uint16Array;
      for (let i = 0; i < count; i++) out[at + i] = table[d[from + i]];
      return;
    }
    case 'BF16': {
      const bits = new Uint32Array(out.buffer, out.byteOffset, out.length), d = m.data as Uint16Array;
      for (let i = 0; i < count; i++) bits[at + i] = d[from + i] << 16;
      return;
    }
  }
}
