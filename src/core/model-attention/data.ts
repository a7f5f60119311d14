// What the model views draw, and how it is read: a header (file, dtype, layers, heads, tokens,
// every head's statistics, warnings), one max-pooled thumbnail per head (≤ 64 × 64, so a 4,096-token
// head still shows its strongest links as a dot), and one head's n × n on request. One streaming pass
// over the file builds the header and the thumbnails with one head in memory at a time; Float32 is
// what is posted to the webview (exact for F16/BF16/F32 files; F64 files round to float32 there).
// This file is pure (the webview bundles it); scan.ts reads files.
import type { InspectJson } from '../tensors/inspect.js';
import { softmaxRow } from '../tensors/rows.js';

/** Largest thumbnail side. */
export const THUMB = 64;

/** What `attn inspect --json` says of the file (file, dtype, layers, heads, tokens, stats), and what the views add. */
export interface ModelHeader extends Omit<InspectJson, 'rollout'> {
  /** Side of each thumbnail: min(n, 64). */
  thumb: number;
  /** Rows that did not sum to 1 (scores saved before the softmax?), 0 when all did. */
  offRows: number;
  /** True when the softmax was applied to every row as it was read (the user asked for it). */
  softmaxed: boolean;
  warnings: string[];
}

/** What a model view is drawn from: the header, the thumbnails, and what has been read on request. */
export interface ModelViewData {
  header: ModelHeader;
  /** layers × heads thumbnails of thumb × thumb, layer-major, each row-major. */
  thumbnails: Float32Array;
  /** One head's n × n weights, row-major (row = query). */
  head?: { layer: number; head: number; weights: Float32Array };
  /** R = Â_L ··· Â_1, n × n (absent above MAX_ROLLOUT_TOKENS, or until asked for). */
  rollout?: Float32Array;
}

export interface ScanOptions {
  /** Apply the softmax to each row as it is read (for files holding scores). */
  softmax?: boolean;
}

/** The row-wise softmax of `a` (n × n), in place; rows of −Infinity only stay all zero. */
export function softmaxRows(a: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) softmaxRow(a.subarray(i * n, (i + 1) * n));
}

/** Which of `side` bins each of n indices falls in: floor(i · side / n). */
function bins(n: number, side: number): Int32Array {
  const b = new Int32Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor((i * side) / n);
  return b;
}

/** Max-pools one head's n × n into `out` (side × side): each pixel is the strongest weight of its block. */
export function poolMax(a: ArrayLike<number>, n: number, side: number, out: Float32Array, offset = 0): void {
  const b = bins(n, side);
  out.fill(0, offset, offset + side * side);
  for (let i = 0; i < n; i++) {
    const row = offset + b[i] * side;
    for (let j = 0; j < n; j++) {
      const w = a[i * n + j];
      const k = row + b[j];
      if (w > out[k]) out[k] = w;
    }
  }
}

/** The largest value of an array, by a loop (never Math.max(...array)); 0 when empty or none is finite. */
export function maxOf(values: ArrayLike<number>, start = 0, end = values.length): number {
  let max = -Infinity;
  for (let i = start; i < end; i++) if (values[i] > max) max = values[i];
  return Number.isFinite(max) ? max : 0;
}
