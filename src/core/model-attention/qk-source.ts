// A run's attention recomputed from what it kept (qk-store.ts): any rows of any head, on request,
// from the layer's queries and keys by the very calls the forward pass made (attention/attend32.ts's
// weightsBlock: the scores on the float32 kernel at depth headDim, the same row softmax, the same
// mask, softcap and grouped-query head), so a weight is the same float32 bits the dense run holds.
// Memory is one block of rows (≤ BLOCK_CELLS weights) and the rows asked for.
import { blockRows, keyRange, rowWeight, weightsBlock, type RowsShape } from '../attention/attend32.js';
import { gemm32 } from '../kernels/gemm32.js';
import type { KeyMask } from '../attention/attend.js';
import { checkRows, type AttentionSource } from '../tensors/attention-source.js';
import type { QkStore } from './qk-store.js';
import { SENT_PICTURE_MAX, WHOLE_HEAD_MAX } from './data.js';
import { MAX_KEPT_PICTURE_BYTES } from './scan.js';

/** What a run's attention is made of, beside its kept q and k: each layer's mask, the divisor, the softcap. */
export interface QkRun {
  readonly store: QkStore;
  /** Per layer: 'causal', a sliding { window }, or 'none' (bidirectional). */
  readonly masks: readonly KeyMask[];
  /** The scores' divisor (√headDim unless the config says otherwise). */
  readonly divisor: number;
  /** The attention's softcap, when the model has one. */
  readonly softcap?: number;
  /** Per head (layer-major), each row's softmax max and sum, [n × 2] float64: what makes qkWindow exact without the row's other keys. */
  readonly scales?: readonly Float64Array[];
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The side of the pictures a run that keeps no n × n makes for every head as it goes: a power of two
 * ≤ min(n, SENT_PICTURE_MAX), halved until all heads' fit MAX_KEPT_PICTURE_BYTES (512 heads: 256²);
 * 0 when heads are sent whole (n ≤ WHOLE_HEAD_MAX).
 */
export function runPictureSide(layers: number, heads: number, n: number): number {
  if (n <= WHOLE_HEAD_MAX) return 0;
  let res = 2 ** Math.floor(Math.log2(Math.min(n, SENT_PICTURE_MAX)));
  while (res > 1 && layers * heads * res * res > MAX_KEPT_PICTURE_BYTES) res /= 2;
  return res;
}

/** Rows first … first + rows − 1 of a head's weights, [rows, n] float32 (zeros on the keys a row does not see). */
export function qkRows(run: QkRun, layer: number, head: number, first: number, rows: number): Float32Array {
  const { store, masks } = run, { n, heads, kvHeads, headDim: D, layers } = store.shape;
  checkRows(layers, heads, n, layer, head, first, rows);
  const shape: RowsShape = { n, headDim: D, divisor: run.divisor, mask: masks[layer], ...(run.softcap !== undefined ? { softcap: run.softcap } : {}) };
  const kvHead = Math.floor(head / (heads / kvHeads));
  const out = new Float32Array(rows * n);
  const step = blockRows(n);
  for (let r0 = 0; r0 < rows; r0 += step) {
    const count = Math.min(step, rows - r0), a0 = first + r0;
    const { from, to } = keyRange(a0, a0 + count, n, shape.mask);
    const width = to - from;
    const q = store.read(layer, 'q', head, a0, count);
    const keys = store.read(layer, 'k', kvHead, from, width);
    const weights = weightsBlock(shape, q, count, a0, keys, from, to);
    for (let r = 0; r < count; r++) out.set(weights.subarray(r * width, (r + 1) * width), (r0 + r) * n + from);
  }
  return out;
}

/**
 * The weights of queries i0 … i0 + rows − 1 on keys j0 … j0 + cols − 1 of a head, [rows, cols]
 * float32 (a window, or a tile's cells): with the run's row scales, only those keys' scores are
 * computed (the kernel at depth headDim, each cell the same bits whatever the columns) and each
 * weight is rowWeight's exp(s − max) / sum, softmaxRow's own expression; without them, the rows whole.
 */
export function qkWindow(run: QkRun, layer: number, head: number, i0: number, rows: number, j0: number, cols: number): Float32Array {
  const { store, masks } = run, { n, heads, kvHeads, headDim: D, layers } = store.shape;
  checkRows(layers, heads, n, layer, head, i0, rows);
  if (!(Number.isInteger(j0) && Number.isInteger(cols) && j0 >= 0 && cols >= 0 && j0 + cols <= n)) throw new RangeError(`keys ${j0} … ${j0 + cols - 1} are outside the ${n} keys`);
  const out = new Float32Array(rows * cols);
  const scales = run.scales?.[layer * heads + head];
  if (!scales) {
    const whole = qkRows(run, layer, head, i0, rows);
    for (let r = 0; r < rows; r++) out.set(whole.subarray(r * n + j0, r * n + j0 + cols), r * cols);
    return out;
  }
  if (rows === 0 || cols === 0) return out;
  const mask = masks[layer], kvHead = Math.floor(head / (heads / kvHeads));
  const step = Math.max(1, Math.floor(2 ** 22 / cols));
  const keys = store.read(layer, 'k', kvHead, j0, cols);
  for (let r0 = 0; r0 < rows; r0 += step) {
    const count = Math.min(step, rows - r0);
    const scores = gemm32(store.read(layer, 'q', head, i0 + r0, count), count, D, keys, cols, true);
    for (let r = 0; r < count; r++) {
      const i = i0 + r0 + r, max = scales[2 * i], sum = scales[2 * i + 1];
      const { from, to } = keyRange(i, i + 1, n, mask);
      const lo = Math.max(from, j0), hi = Math.min(to, j0 + cols);
      for (let j = lo; j < hi; j++) out[(r0 + r) * cols + j - j0] = rowWeight(scores[r * cols + j - j0], run.divisor, run.softcap, max, sum);
    }
  }
  return out;
}

/** The runs behind the sources qkAttention made (a worker answers a map's tiles from the run itself: qk-tile.ts). */
const runs = new WeakMap<AttentionSource, QkRun>();

/** The run a source of qkAttention's reads, or undefined for any other source (a copy or a cut of one too). */
export function qkRunOf(source: AttentionSource): QkRun | undefined {
  return runs.get(source);
}

/** The run's attention as a source (dtype F32): rows computed from q and k when read. `close` lets the store go. */
export function qkAttention(run: QkRun, options: { file: string; tokens?: string[] }): AttentionSource {
  const { layers, heads, n } = run.store.shape;
  if (run.masks.length !== layers) throw new RangeError(`${options.file}: ${run.masks.length} masks for ${layers} layers`);
  const source: AttentionSource = {
    file: options.file, dtype: 'F32', layers, heads, n,
    ...(options.tokens ? { tokens: options.tokens } : {}),
    head(layer, head, out = new Float64Array(n * n)) {
      const w = qkRows(run, layer, head, 0, n);
      for (let k = 0; k < w.length; k++) out[k] = w[k];
      return out;
    },
    rowBytes(layer, head, first, rows) {
      const w = qkRows(run, layer, head, first, rows);
      if (LITTLE_ENDIAN) return new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
      const bytes = new Uint8Array(w.byteLength), view = new DataView(bytes.buffer);
      for (let k = 0; k < w.length; k++) view.setFloat32(k * 4, w[k], true);
      return bytes;
    },
    columnBytes(layer, head, first, rows, j0, cols) {
      // With the run's row scales only the window's keys are scored (qkWindow): a 512² window of an
      // 8,192-token head in milliseconds, not its 512 whole rows.
      const w = qkWindow(run, layer, head, first, rows, j0, cols);
      if (LITTLE_ENDIAN) return new Uint8Array(w.buffer, w.byteOffset, w.byteLength);
      const bytes = new Uint8Array(w.byteLength), view = new DataView(bytes.buffer);
      for (let k = 0; k < w.length; k++) view.setFloat32(k * 4, w[k], true);
      return bytes;
    },
    close() { run.store.close(); },
  };
  runs.set(source, run);
  return source;
}
