// A .safetensors file's bytes, for attention the extension holds in memory (a notebook output's
// payload, opened in the model editor): the 8-byte little-endian header size, the JSON header
// padded with spaces so the data starts 8-byte aligned, then each tensor's little-endian bytes as
// given. The reader is safetensors.ts; the Python package writes the same layout.
import type { DType } from './dtype.js';
import { ITEM_SIZE } from './dtype.js';

export interface TensorBytes {
  name: string;
  dtype: DType;
  shape: readonly number[];
  /** C-order little-endian values: exactly shape's count × the dtype's size. */
  bytes: Uint8Array;
}

export function safetensorsBytes(tensors: readonly TensorBytes[], metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = {};
  let at = 0;
  for (const t of tensors) {
    const need = t.shape.reduce((a, d) => a * d, 1) * ITEM_SIZE[t.dtype];
    if (need !== t.bytes.length) throw new RangeError(`tensor ${JSON.stringify(t.name)}: [${t.shape.join(', ')}] of ${t.dtype} needs ${need} bytes, not ${t.bytes.length}`);
    header[t.name] = { dtype: t.dtype, shape: [...t.shape], data_offsets: [at, at + t.bytes.length] };
    at += t.bytes.length;
  }
  if (Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let text = new TextEncoder().encode(JSON.stringify(header));
  const pad = (8 - (text.length % 8)) % 8;
  if (pad) {
    const padded = new Uint8Array(text.length + pad).fill(0x20);
    padded.set(text);
    text = padded;
  }
  const out = new Uint8Array(8 + text.length + at);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  let o = 8 + text.length;
  for (const t of tensors) { out.set(t.bytes, o); o += t.bytes.length; }
  return out;
}
