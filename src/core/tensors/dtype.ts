// The element types we read, and their exact decoding to float64. Half floats are decoded bit by
// bit (not through a lossy approximation), so a statistic computed here matches numpy's on the
// same file. Every file format maps its own type names onto these.

export type DType = 'F64' | 'F32' | 'F16' | 'BF16';

export const ITEM_SIZE: Record<DType, number> = { F64: 8, F32: 4, F16: 2, BF16: 2 };

/**
 * Whether a file's type name is one we read. An own-property test, never `name in ITEM_SIZE`: a file
 * may name its dtype "toString" or "constructor", which every object inherits.
 */
export function isDType(name: unknown): name is DType {
  return typeof name === 'string' && Object.hasOwn(ITEM_SIZE, name);
}

/** `table[key]` when the table has that key of its own (a file's string looked up in one of our tables). */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** IEEE 754 binary16 bits as a number: sign, 5-bit exponent, 10-bit fraction; subnormals, ±Infinity and NaN too. */
export function float16(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

let HALF: Float64Array | undefined;
/** All 65,536 half floats, decoded once: a table lookup per element. */
function halfTable(): Float64Array {
  if (!HALF) {
    HALF = new Float64Array(65536);
    for (let b = 0; b < 65536; b++) HALF[b] = float16(b);
  }
  return HALF;
}

/**
 * Decodes `count` little-endian elements of `dtype` from `bytes` into `out` (from index 0).
 * BF16 is the top half of a float32: its bits shifted up 16 are that float32's bits.
 */
export function decode(dtype: DType, bytes: Uint8Array, count: number, out: Float64Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (dtype) {
    case 'F64':
      for (let i = 0; i < count; i++) out[i] = view.getFloat64(i * 8, true);
      return;
    case 'F32':
      for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
      return;
    case 'F16': {
      const table = halfTable();
      for (let i = 0; i < count; i++) out[i] = table[view.getUint16(i * 2, true)];
      return;
    }
    case 'BF16': {
      const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
      for (let i = 0; i < count; i++) {
        u32[0] = view.getUint16(i * 2, true) << 16;
        out[i] = f32[0];
      }
      return;
    }
  }
}
