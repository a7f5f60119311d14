// The safetensors format written (the reader is safetensors.ts): an 8-byte little-endian header
// size, the JSON header padded with spaces to a multiple of 8 (so every tensor's data is aligned),
// then each tensor's bytes in order. F32 and F64 only: what the host writes (a run's attention for
// the model views, a head's numbers for a spec). Pure: the bytes come back; the caller writes them.

export interface TensorToWrite {
  name: string;
  dtype: 'F32' | 'F64';
  shape: readonly number[];
  data: Float32Array | Float64Array;
}

/** The file's bytes. Throws on a tensor whose data is not as long as its shape says. */
export function writeSafetensors(tensors: readonly TensorToWrite[], metadata?: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (count !== t.data.length) throw new RangeError(`tensor ${JSON.stringify(t.name)}: shape [${t.shape.join(', ')}] holds ${count} numbers, not ${t.data.length}`);
    const bytes = count * (t.dtype === 'F32' ? 4 : 8);
    header[t.name] = { dtype: t.dtype, shape: [...t.shape], data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  const out = new Uint8Array(8 + padded + offset);
  const view = new DataView(out.buffer);
  view.setUint32(0, padded, true);
  view.setUint32(4, Math.floor(padded / 2 ** 32), true);
  out.set(json, 8);
  out.fill(0x20, 8 + json.length, 8 + padded);
  let at = 8 + padded;
  for (const t of tensors) {
    const typed = t.dtype === 'F32' ? Float32Array.from(t.data) : Float64Array.from(t.data);
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    // Little-endian on disk: every platform Node runs on is little-endian, so the bytes go as they are.
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}
