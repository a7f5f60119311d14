// One model's attention as the model views and `attn inspect` read it, wherever it is: a file on
// disk (attention-file.ts), a notebook payload in memory (model-attention/payload.ts), a run's layers
// held by its worker or a computed spec's heads (arrayAttention below; result/input-attention.ts).
// The scanners (pass.ts, rows.ts, model-attention/scan.ts) ask only for the shape, the tokens and a
// head's rows as little-endian bytes, so a source in memory hands out views of its own arrays: no
// source is ever encoded as a file to be read back.
import type { DType } from './dtype.js';

export interface AttentionSource {
  /** The name used in messages and shown as the model's: the file's path, or what holds it ("the run"). */
  file: string;
  dtype: DType;
  layers: number;
  heads: number;
  /** Tokens (queries = keys): each head is n × n. */
  n: number;
  tokens?: string[];
  /** What the reader did that the reader of the file should know (layers renumbered): shown with the warnings. */
  notes?: string[];
  /** The file's own number of each layer, when it is not the layer's place (tensors layers.0 and layers.5: [0, 5]). */
  layerNumbers?: number[];
  /** Bytes the reader inflated into memory to hold it (deflated .npz members); absent when it reads at offsets. */
  inflated?: number;
  /** The head's n × n weights, row-major (row = query), decoded exactly to float64. */
  head(layer: number, head: number, out?: Float64Array): Float64Array;
  /** The little-endian bytes of rows first … first + rows − 1 of a head, as stored (see rows.ts). */
  rowBytes(layer: number, head: number, first: number, rows: number): Uint8Array;
  /**
   * Optional: keys j0 … j0 + cols − 1 of rows first … first + rows − 1, packed (rows × cols, as
   * stored): a file reads each row's slice at its offset, so a deep tile of a 32,768-token head
   * reads its own columns and not the rows' other 64 KiB each. Readers without it read whole rows.
   */
  columnBytes?(layer: number, head: number, first: number, rows: number, j0: number, cols: number): Uint8Array;
  close(): void;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Throws unless keys j0 … j0 + cols − 1 lie within the n keys. */
export function checkColumns(n: number, j0: number, cols: number): void {
  if (!(Number.isInteger(j0) && Number.isInteger(cols) && j0 >= 0 && cols >= 0 && j0 + cols <= n)) throw new RangeError(`keys ${j0} … ${j0 + cols - 1} are outside the ${n} keys`);
}

/** Throws unless (layer, head, rows first … first + rows − 1) lie within the shape. */
export function checkRows(layers: number, heads: number, n: number, layer: number, head: number, first: number, rows: number): void {
  if (!(layer >= 0 && layer < layers && head >= 0 && head < heads)) throw new RangeError(`layer ${layer} head ${head} is outside ${layers} × ${heads}`);
  if (!(first >= 0 && rows >= 0 && first + rows <= n)) throw new RangeError(`rows ${first} … ${first + rows - 1} are outside the ${n} queries`);
}

export interface ArrayAttention {
  file: string;
  layers: number;
  heads: number;
  n: number;
  tokens?: string[];
  /**
   * The head's n × n weights, row-major, as an array the source may view but never writes (a run's
   * layer [heads, n, n] cut with subarray, a spec's head): every head of one element type.
   */
  weights(layer: number, head: number): Float32Array | Float64Array;
}

/**
 * Attention held as typed arrays, read where it lies: a head's rows are a byte view of its array
 * (little-endian, as every platform Node runs on is; a big-endian one gets a little-endian copy).
 * F32 or F64 by the arrays' element type.
 */
export function arrayAttention(a: ArrayAttention): AttentionSource {
  const { layers, heads, n } = a;
  if (!(layers >= 1 && heads >= 1 && n >= 1)) throw new RangeError(`${a.file}: ${layers} layers × ${heads} heads of ${n} tokens holds no attention`);
  const first = a.weights(0, 0);
  const item = first.BYTES_PER_ELEMENT;
  const dtype: DType = item === 4 ? 'F32' : 'F64';
  const headOf = (layer: number, head: number) => {
    const w = a.weights(layer, head);
    if (w.length !== n * n || w.BYTES_PER_ELEMENT !== item) throw new RangeError(`${a.file}: layer ${layer} head ${head} is not ${n} × ${n} ${dtype}`);
    return w;
  };
  return {
    file: a.file, dtype, layers, heads, n,
    ...(a.tokens ? { tokens: a.tokens } : {}),
    head(layer, head, out = new Float64Array(n * n)) {
      checkRows(layers, heads, n, layer, head, 0, n);
      const w = headOf(layer, head);
      for (let k = 0; k < w.length; k++) out[k] = w[k];
      return out;
    },
    rowBytes(layer, head, from, rows) {
      checkRows(layers, heads, n, layer, head, from, rows);
      const w = headOf(layer, head).subarray(from * n, (from + rows) * n);
      if (LITTLE_ENDIAN) return new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
      const out = new Uint8Array(w.byteLength), view = new DataView(out.buffer);
      for (let k = 0; k < w.length; k++) {
        if (item === 4) view.setFloat32(k * 4, w[k], true);
        else view.setFloat64(k * 8, w[k], true);
      }
      return out;
    },
    close() { /* the arrays are their owner's */ },
  };
}

/** A run's attention (per layer a [heads, n, n] float32 array, as the forward pass leaves it), read in place. */
export function layersAttention(file: string, attention: readonly Float32Array[], heads: number, n: number, tokens?: string[]): AttentionSource {
  if (attention.length === 0) throw new RangeError(`${file}: no layers`);
  return arrayAttention({
    file, layers: attention.length, heads, n, ...(tokens ? { tokens } : {}),
    weights: (layer, head) => attention[layer].subarray(head * n * n, (head + 1) * n * n),
  });
}
