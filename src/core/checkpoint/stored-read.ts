// A tensor's numbers read as its file stores them (kernels/stored.ts): F32 into a Float32Array, F64
// into a Float64Array, F16 and BF16 as their raw 16-bit words, over a SharedArrayBuffer where the
// runtime has one, so the product's worker threads read a weight where it lies and a run holds each
// weight once, in its own type (a BF16 model in half the bytes of float32, a quarter of float64). The
// bytes come through the readers' bounded reads, a slice at a time. Every word is checked for NaN and
// ±Infinity on the stored bits (a 16-bit word's exponent all ones), with no wide copy.
import { float16, ITEM_SIZE, type DType } from '../tensors/dtype.js';
import type { TensorRef } from '../tensors/attention-file.js';
import { MAX_READ_BYTES } from '../tensors/source.js';
import { widenInto, type StoredMatrix } from '../kernels/stored.js';
import { ModelError } from './error.js';

/** Bytes read and checked at once (within L2). */
const PIECE_BYTES = 1 << 20;

/** The largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** `bytes` of fresh memory, shared between threads where the runtime allows it. */
function memory(bytes: number): ArrayBuffer | SharedArrayBuffer {
  return typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

/** An array of the stored type over `buffer`, `count` elements from `byteOffset`. */
export function storedArray(dtype: DType, buffer: ArrayBuffer | SharedArrayBuffer, byteOffset: number, count: number): StoredMatrix['data'] {
  if (dtype === 'F64') return new Float64Array(buffer, byteOffset, count);
  if (dtype === 'F32') return new Float32Array(buffer, byteOffset, count);
  return new Uint16Array(buffer, byteOffset, count);
}

/** A new stored array of `count` elements of `dtype` (shared memory where there is some). */
export function newStored(dtype: DType, count: number): StoredMatrix['data'] {
  return storedArray(dtype, memory(count * ITEM_SIZE[dtype]), 0, count);
}

/**
 * The tensor as stored: rows = its first dimension (1 for a scalar), cols = the rest (1 for a vector).
 * Read in slices within the readers' single-read limit and, with `check`, checked for NaN and
 * ±Infinity, an F64 weight past float32's range refused (attn computes in float32 by default). A
 * caller that leaves the check out must find such a weight another way (the forward pass does, from
 * its results: weights.ts's nonFinite).
 */
export function readStored(t: TensorRef, maxRead = MAX_READ_BYTES, check = true): StoredMatrix {
  const dtype = t.dtype as DType;
  const count = t.shape.reduce((a, b) => a * b, 1);
  const item = ITEM_SIZE[dtype];
  const data = newStored(dtype, count);
  const bytes = new Uint8Array(data.buffer, data.byteOffset, count * item);
  // A megabyte at a time: each piece is checked while it is still in the cache, since a second pass
  // over a model's weights costs as much as reading them (memory, not the check, is the bound).
  const perRead = Math.max(1, Math.floor(Math.min(maxRead, PIECE_BYTES) / item));
  // Byte for byte: the stored words need no decoding on a little-endian host (every one Node runs on).
  for (let at = 0; at < count; at += perRead) {
    const n = Math.min(perRead, count - at);
    if (t.source.readInto) t.source.readInto(t.offset + at * item, bytes.subarray(at * item, (at + n) * item));
    else bytes.set(t.source.read(t.offset + at * item, n * item), at * item);
    if (check) refuseNonFinite(t, dtype, data.subarray(at, at + n), at);
  }
  // A vector is a column (its parts, a fused bias's, are rows of it, as a matrix's are).
  const rows = t.shape.length > 0 ? t.shape[0] : 1;
  return { dtype, rows, cols: rows === 0 ? 0 : count / rows, data };
}

/**
 * A weight that is NaN or ±Infinity (a corrupt or badly converted file; F16 and BF16 have both)
 * would run to NaN attention weights, which no picture and no JSON can show: refused by name. F16
 * and BF16 are tested on their exponent bits, where they lie.
 */
export function refuseNonFinite(t: TensorRef, dtype: DType, data: StoredMatrix['data'], first = 0): void {
  // One loop per width, each over one kind of integer array (a loop over a union of array kinds ran
  // at 3 ns a number, three times this), so the check costs a fraction of the read.
  const at = dtype === 'F64' ? firstOutOfRange(data as Float64Array)
    : dtype === 'F32' ? firstAllOnes32(new Int32Array(data.buffer, data.byteOffset, data.length))
    : firstAllOnes16(data as Uint16Array, dtype === 'F16' ? 0x7c00 : 0x7f80);
  if (at < 0) return;
  const v = dtype === 'F16' ? float16((data as Uint16Array)[at])
    : dtype === 'BF16' ? new Float32Array(new Uint32Array([(data as Uint16Array)[at] << 16]).buffer)[0] : data[at];
  const beyond = dtype === 'F64' && Number.isFinite(v);
  // An F64 weight past float32's range would become ±Infinity in float32: said as what the file holds.
  throw new ModelError(`${t.source.name}: tensor ${JSON.stringify(t.name)} holds ${v} at element ${first + at}${beyond ? `, beyond float32's range (±${FLOAT32_MAX.toExponential(4)}), in which attn computes` : '; a weight must be a finite number'}`);
}

/** The first float32 (as its bits) whose exponent is all ones (±Infinity, NaN), or −1. */
function firstAllOnes32(words: Int32Array): number {
  for (let i = 0; i < words.length; i++) if ((words[i] & 0x7f800000) === 0x7f800000) return i;
  return -1;
}

/** The first 16-bit float whose exponent bits (`mask`) are all ones, or −1. */
function firstAllOnes16(words: Uint16Array, mask: number): number {
  for (let i = 0; i < words.length; i++) if ((words[i] & mask) === mask) return i;
  return -1;
}

/** The first F64 value that is not finite or rounds to ±Infinity in float32, or −1. */
function firstOutOfRange(values: Float64Array): number {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v - v !== 0 || (Math.abs(v) > FLOAT32_MAX && !Number.isFinite(Math.fround(v)))) return i;
  }
  return -1;
}

/** Bytes a stored matrix holds. */
export const storedBytes = (m: StoredMatrix) => m.data.byteLength;

/** A stored matrix widened to float32, whole (a copy: for the lens's slices and small vectors, never kept). */
export function widened(m: StoredMatrix): Float32Array {
  const out = new Float32Array(m.data.length);
  widenInto(m, 0, m.data.length, out, 0);
  return out;
}

/** A stored matrix widened to float64, whole (exact; the float64 forward's one matrix at a time). */
export function widened64(m: StoredMatrix): Float64Array {
  if (m.dtype === 'F64') return m.data as Float64Array;
  if (m.dtype === 'F32') return new Float64Array(m.data);
  return new Float64Array(widened(m));
}

/** Decodes a tensor's bytes to float32 (a copy of its stored form, widened). */
export function readFloat32(t: TensorRef, maxRead = MAX_READ_BYTES): Float32Array {
  return widened(readStored(t, maxRead));
}
