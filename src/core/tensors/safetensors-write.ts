// The safetensors format written (the reader is safetensors.ts; the Python package writes the same
// layout): an 8-byte little-endian header size, the JSON header padded with spaces to a multiple of
// 8 (so every tensor's data is aligned), then each tensor's little-endian bytes in order. What the
// extension saves: a head's numbers for a spec (F64), a run's attention for `attn run --out` (F32,
// 600 MB at 1,024 GPT-2 tokens), and values already in bytes (F16 as a payload carries them). Pure: the file comes back
// as parts (the header, then views of the callers' arrays) to be written in turn, so a large file is
// never joined into one buffer; writeSafetensors joins them for the small ones.
import { ITEM_SIZE, type DType } from './dtype.js';

type Values = Float32Array | Float64Array | Uint8Array;

export interface TensorToWrite {
  name: string;
  dtype: DType;
  shape: readonly number[];
  /**
   * The values, C order: numbers of the dtype (F32 given as float64 are rounded to it), or their
   * little-endian bytes (F16, BF16, or a payload as it came); one array, or several written one
   * after the other (a run's layers).
   */
  data: Values | readonly Values[];
}

/** Each array's bytes as it will be written: a view when its elements are the dtype's (or bytes), else a rounded copy. */
function bytesOf(t: TensorToWrite, arrays: readonly Values[]): Uint8Array[] {
  return arrays.map((a) => {
    if (a instanceof Uint8Array) return a;
    if (t.dtype !== 'F32' && t.dtype !== 'F64') throw new RangeError(`tensor ${JSON.stringify(t.name)}: ${t.dtype} is written from its bytes, not from numbers`);
    const typed = t.dtype === 'F32' && a instanceof Float64Array ? Float32Array.from(a)
      : t.dtype === 'F64' && a instanceof Float32Array ? Float64Array.from(a)
        : a;
    // Little-endian on disk: every platform Node runs on is little-endian, so the bytes go as they are.
    return new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  });
}

/** Why a tensor's data does not fit its shape, in the units it was given in (numbers or bytes); undefined when it does. */
function lengthProblem(t: TensorToWrite, arrays: readonly Values[]): string | undefined {
  const count = t.shape.reduce((a, b) => a * b, 1);
  const where = `tensor ${JSON.stringify(t.name)}: shape [${t.shape.join(', ')}]`;
  if (arrays.every((a) => !(a instanceof Uint8Array))) {
    const numbers = arrays.reduce((a, p) => a + p.length, 0);
    return numbers === count ? undefined : `${where} holds ${count} numbers, not ${numbers}`;
  }
  const need = count * ITEM_SIZE[t.dtype], bytes = arrays.reduce((a, p) => a + p.byteLength, 0);
  return bytes === need ? undefined : `${where} of ${t.dtype} needs ${need} bytes, not ${bytes}`;
}

/**
 * The file's parts in order: the 8-byte size with the padded header, then each tensor's data (views
 * of the given arrays where their type is the dtype's). Throws on a tensor whose data is not as long
 * as its shape says, whose shape is not whole sizes, or whose name the header already holds.
 */
export function safetensorsParts(tensors: readonly TensorToWrite[], metadata?: Record<string, string>): Uint8Array[] {
  // Without a prototype, a tensor named "__proto__" is a key of the header like any other (on a plain
  // object its assignment would set the prototype, and JSON.stringify would leave the tensor out).
  const header: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (metadata) header.__metadata__ = metadata;
  const data: Uint8Array[] = [];
  let offset = 0;
  for (const t of tensors) {
    // A name the header already holds would be written once with the other's offsets, and
    // "__metadata__" is read as the metadata, not a tensor, whether or not there is any; a shape of
    // negative or fractional sizes can multiply to the right count and still not be read back.
    if (t.name === '__metadata__' || Object.hasOwn(header, t.name)) throw new RangeError(`tensor ${JSON.stringify(t.name)}: ${t.name === '__metadata__' ? 'the name of the metadata' : 'named twice'}`);
    if (!t.shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new RangeError(`tensor ${JSON.stringify(t.name)}: shape [${t.shape.join(', ')}] is not whole numbers ≥ 0`);
    const arrays = (Array.isArray(t.data) ? t.data : [t.data]) as readonly Values[];
    const problem = lengthProblem(t, arrays);
    if (problem) throw new RangeError(problem);
    const parts = bytesOf(t, arrays);
    const bytes = parts.reduce((a, p) => a + p.length, 0);
    header[t.name] = { dtype: t.dtype, shape: [...t.shape], data_offsets: [offset, offset + bytes] };
    offset += bytes;
    data.push(...parts);
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  const head = new Uint8Array(8 + padded);
  new DataView(head.buffer).setBigUint64(0, BigInt(padded), true);
  head.set(json, 8);
  head.fill(0x20, 8 + json.length);
  return [head, ...data.filter((p) => p.length > 0)];
}

/** The whole file in one buffer, for files small enough to hold twice (a head's numbers, a test's). */
export function writeSafetensors(tensors: readonly TensorToWrite[], metadata?: Record<string, string>): Uint8Array {
  const parts = safetensorsParts(tensors, metadata);
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
