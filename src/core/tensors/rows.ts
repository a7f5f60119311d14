// A head read row by row, for the passes over a whole model (statistics, thumbnails, rollout): a
// block of rows is read at its offset, and each row is decoded to float64 together with each weight's
// entropy term w · ln w. For the 16-bit types both come from tables of all 65,536 codes, so the
// pass over a 4 × 8 × 4,096² F16 file (537 million weights) does no logarithm at all; the numbers are
// the same bits as decoding the weight and calling Math.log on it (one float64 expression, either way).
// Memory is one block (≤ 8 MiB) and two rows, whatever n is.
import type { AttentionSource } from './attention-source.js';
import { decode, float16, ITEM_SIZE, type DType } from './dtype.js';

/**
 * Copies `count` weights of a decoded row (from `start`) into a float32 array (at `at`) by a loop:
 * TypedArray.prototype.set from a Float64Array into a Float32Array took about 15 ns a number here
 * (measured), a loop about 1. One element type each side keeps the loop fast.
 */
export function rowToFloat32(row: Float64Array, start: number, count: number, to: Float32Array, at: number): void {
  for (let k = 0; k < count; k++) to[at + k] = row[start + k];
}

/** w · ln w for w > 0, else 0: the entropy term −Σ w ln w sums its negation. */
export function entropyTerm(w: number): number {
  return w > 0 ? w * Math.log(w) : 0;
}

/** Bytes read at once: a few rows at n = 4,096 in F64, hundreds at n = 128. */
const BLOCK_BYTES = 8 * 1024 * 1024;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface Tables { value: Float64Array; term: Float64Array }
const tables = new Map<'F16' | 'BF16', Tables>();

function bfloat16(bits: number): number {
  const f = new Float32Array(new Uint32Array([bits << 16]).buffer);
  return f[0];
}

/** Every code's value and entropy term, made once per type (1 MiB). */
function tablesOf(dtype: 'F16' | 'BF16'): Tables {
  let t = tables.get(dtype);
  if (!t) {
    const value = new Float64Array(65536), term = new Float64Array(65536);
    for (let code = 0; code < 65536; code++) {
      value[code] = dtype === 'F16' ? float16(code) : bfloat16(code);
      term[code] = entropyTerm(value[code]);
    }
    t = { value, term };
    tables.set(dtype, t);
  }
  return t;
}

/**
 * Decodes `count` stored weights of `bytes` (from element `at`) into `out`: by table for F16 and
 * BF16, a typed view for F32 and F64 (little-endian machines; decode() otherwise). A tile's columns
 * are decoded this way: DataView reads cost several times more.
 */
export function decodeWeights(dtype: DType, bytes: Uint8Array, at: number, count: number, out: Float64Array): void {
  const item = ITEM_SIZE[dtype];
  if (!LITTLE_ENDIAN || (bytes.byteOffset + at * item) % item !== 0) {
    decode(dtype, bytes.subarray(at * item, (at + count) * item), count, out);
    return;
  }
  if (dtype === 'F16' || dtype === 'BF16') {
    const { value } = tablesOf(dtype);
    const codes = new Uint16Array(bytes.buffer, bytes.byteOffset + at * 2, count);
    for (let k = 0; k < count; k++) out[k] = value[codes[k]];
    return;
  }
  const row = dtype === 'F32' ? new Float32Array(bytes.buffer, bytes.byteOffset + at * 4, count) : new Float64Array(bytes.buffer, bytes.byteOffset + at * 8, count);
  for (let k = 0; k < count; k++) out[k] = row[k];
}

/** Decodes row `r` of a block into `values` and, when given, `terms` (n each). */
type RowDecoder = (block: Uint8Array, r: number, values: Float64Array, terms?: Float64Array) => void;

function decoderFor(dtype: DType, n: number): RowDecoder {
  if (!LITTLE_ENDIAN) {
    // Typed views would read the bytes in this machine's order: decode through a DataView instead.
    return (block, r, values, terms) => {
      const bytes = ITEM_SIZE[dtype] * n;
      decode(dtype, block.subarray(r * bytes, (r + 1) * bytes), n, values);
      if (terms) for (let j = 0; j < n; j++) terms[j] = entropyTerm(values[j]);
    };
  }
  if (dtype === 'F16' || dtype === 'BF16') {
    const { value, term } = tablesOf(dtype);
    return (block, r, values, terms) => {
      const codes = new Uint16Array(block.buffer, block.byteOffset + r * n * 2, n);
      if (!terms) {
        for (let j = 0; j < n; j++) values[j] = value[codes[j]];
        return;
      }
      for (let j = 0; j < n; j++) {
        const c = codes[j];
        values[j] = value[c];
        terms[j] = term[c];
      }
    };
  }
  const Typed = dtype === 'F32' ? Float32Array : Float64Array;
  return (block, r, values, terms) => {
    const row = new Typed(block.buffer as ArrayBuffer, block.byteOffset + r * n * Typed.BYTES_PER_ELEMENT, n);
    if (!terms) {
      for (let j = 0; j < n; j++) values[j] = row[j];
      return;
    }
    for (let j = 0; j < n; j++) {
      const w = row[j];
      values[j] = w;
      terms[j] = w > 0 ? w * Math.log(w) : 0;
    }
  };
}

/** What forEachRow hands its visitor: row i's weights and their entropy terms (valid until it returns). */
export type RowVisitor = (i: number, values: Float64Array, terms: Float64Array) => void;

/** Reusable buffers for one file's passes. */
export interface RowScratch { values: Float64Array; terms: Float64Array }

export function rowScratch(n: number): RowScratch {
  return { values: new Float64Array(n), terms: new Float64Array(n) };
}

export interface RowOptions {
  scratch?: RowScratch;
  /** Rewrites a row's values in place before the visit (the softmax for files of scores). */
  transform?: (i: number, values: Float64Array) => void;
  /** False: the visitor does not read the entropy terms (reading a head to show it), skip them. */
  terms?: boolean;
  /** Only rows from … to − 1 (a window of the head); every row when absent. */
  from?: number;
  to?: number;
}

/**
 * The head's rows from … to − 1 as blocks of stored bytes (≤ BLOCK_BYTES, aligned for a typed view of
 * the dtype): `visit(first, rows, block)`. What forEachRow decodes, and what a pass over raw codes reads.
 */
export function forEachBlock(a: AttentionSource, layer: number, head: number, from: number, to: number, visit: (first: number, rows: number, block: Uint8Array) => void): void {
  const perBlock = Math.max(1, Math.floor(BLOCK_BYTES / (a.n * ITEM_SIZE[a.dtype])));
  for (let first = from; first < to; first += perBlock) {
    const rows = Math.min(perBlock, to - first);
    let block = a.rowBytes(layer, head, first, rows);
    // Typed views need their element alignment; a slice of an in-memory file (an inflated .npz
    // member) may not have it. A copy into a Uint8Array of its own: a Node Buffer's slice() is a view.
    if (block.byteOffset % ITEM_SIZE[a.dtype] !== 0) block = new Uint8Array(block);
    visit(first, rows, block);
  }
}

/** Visits every row of one head in order; the terms are computed from the row after `transform`. */
export function forEachRow(a: AttentionSource, layer: number, head: number, visit: RowVisitor, options: RowOptions = {}): void {
  const { n } = a;
  const decodeRow = decoderFor(a.dtype, n);
  const { values, terms } = options.scratch ?? rowScratch(n);
  const { transform } = options;
  const wantTerms = options.terms !== false;
  forEachBlock(a, layer, head, options.from ?? 0, options.to ?? n, (first, rows, block) => {
    for (let r = 0; r < rows; r++) {
      decodeRow(block, r, values, wantTerms && !transform ? terms : undefined);
      if (transform) {
        transform(first + r, values);
        if (wantTerms) for (let j = 0; j < n; j++) terms[j] = entropyTerm(values[j]);
      }
      visit(first + r, values, terms);
    }
  });
}
