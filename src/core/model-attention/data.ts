// What the model views draw, and how it is read: a header (file, dtype, layers, heads, tokens,
// every head's statistics, warnings), one max-pooled thumbnail per head (≤ 64 × 64, so a 4,096-token
// head still shows its strongest links as a dot), and one head's n × n on request. One streaming pass
// over the file builds the header and the thumbnails with one head in memory at a time; Float32 is
// what is posted to the webview (exact for F16/BF16/F32 files; F64 files round to float32 there).
// This file is pure (the webview bundles it); scan.ts reads files.
import type { MaskedGuess, NextToken } from '../checkpoint/types.js';
import type { RunAnalyses } from './run-analyses.js';
import type { Ablation, AblationMode, HeadRef } from '../model-analysis/types.js';
import type { InspectJson } from '../tensors/inspect.js';
import { softmaxInto } from '../attention/softmax.js';
import { heatmapIndices } from '../tensors/heatmap.js';

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
  /** True when the heads are value-weighted norms α_ij · ‖v_j W_O^h‖ (a model run's), not weights. */
  norms?: boolean;
}

/** What a model view is drawn from: the header, the thumbnails, and what has been read on request. */
export interface ModelViewData {
  header: ModelHeader;
  /** layers × heads thumbnails of thumb × thumb, layer-major, each row-major. */
  thumbnails: Float32Array;
  /**
   * The same thumbnails as the editor posts them, when it did (thumbnailIndices: each one's colour
   * indices): the grid draws these as they are instead of making them again from the values.
   */
  thumbIndices?: Uint8Array;
  /** One head as read on request: whole, or (a big head in the editor) its picture and windows of it. */
  head?: HeadData;
  /** R = Â_L ··· Â_1, n × n (absent above MAX_ROLLOUT_TOKENS, or until asked for). */
  rollout?: Float32Array;
  /** When the attention is a model run's (a model spec): the model and what it predicts next. */
  run?: ModelRunInfo;
  /** A model run's logit lens, attribution, patching and generated tokens (what its spec asked for). */
  analyses?: RunAnalyses;
}

/** What the model views know of a run besides its attention (the next-token list, the lens). */
export interface ModelRunInfo {
  /** The model's name as the spec gives it. */
  model: string;
  /** The most likely next tokens at the last position, most likely first (empty for an encoder). */
  next: NextToken[];
  /** An encoder's guesses at each mask token of the text (none when it holds none). */
  masked?: MaskedGuess[];
  /** Why the model guesses no token (an encoder without a mask token in the text, or without its head). */
  note?: string;
  forwardMs: number;
  /** The numeric form the forward pass ran in (attn run --precision, the editor's setting). */
  precision?: 'f32' | 'f64';
  /** The heads switched off: the attention shown and `ablation.next` are the ablated run's (`next` stays the run's own). */
  ablation?: RunAblation;
}

/** What the model views know of an ablated run: the heads (from 0), the mode, and what the ablation changed. */
export type RunAblation = Omit<Ablation, 'heads'> & { heads: HeadRef[] };

export type { AblationMode, HeadRef };

/**
 * One head for the head view. Small heads (and every head drawn in the same process) come whole;
 * a big head in the editor comes as its picture (max-pooled, already turned into colour indices)
 * and its strongest weight, and exact weights arrive in windows asked for on hover and zoom:
 * carrying 4,096² float32 (64 MiB) to the webview took seconds, a 1,024² picture is 1 MiB.
 */
export interface HeadData {
  layer: number;
  head: number;
  /** n × n weights, row-major (row = query), when the head came whole. */
  weights?: Float32Array;
  /** res × res colour indices (0 … 255 of max), max-pooled, when it did not. */
  picture?: { res: number; indices: Uint8Array };
  /** The head's strongest weight (what index 255 means). */
  max?: number;
  /** Value-weighted norms only: ‖v_j W_O^h‖ of every key j (α_ij is the norm divided by it). */
  valueNorms?: Float32Array;
  /** Windows of exact weights read so far (the newest first, a few kept). */
  windows?: CellWindow[];
}

/** Rows i0 … i0 + rows − 1 by keys j0 … j0 + cols − 1 of a head, exact, row-major. */
export interface CellWindow { i0: number; j0: number; rows: number; cols: number; weights: Float32Array }

/** Most cells in one window asked of the host (1 MiB of float32). */
export const MAX_WINDOW_CELLS = 2 ** 18;

/** Largest side of the head's picture; bigger heads are max-pooled to it (zoom redraws at full size). */
export const PICTURE_MAX = 1024;

/**
 * Side of the picture the editor sends of a big head: 512² indices are 256 KiB (measured in
 * code-server, the webview channel carried about 5–10 MB/s; a 1,024² picture made a head switch
 * ~0.8 s), and the head view is at most 760 px wide; a zoom shows every cell.
 */
export const SENT_PICTURE_MAX = 512;

/** A head is sent whole up to this many tokens (256² float32 is 256 KiB); above, as a picture and windows. */
export const WHOLE_HEAD_MAX = 256;

/** The weight at (i, j) from a head's windows, or undefined when none holds it. */
export function windowWeight(head: HeadData, n: number, i: number, j: number): number | undefined {
  if (head.weights) return head.weights[i * n + j];
  for (const w of head.windows ?? []) {
    if (i >= w.i0 && i < w.i0 + w.rows && j >= w.j0 && j < w.j0 + w.cols) return w.weights[(i - w.i0) * w.cols + (j - w.j0)];
  }
  return undefined;
}

/**
 * Thumbnails as the editor posts them: each head's colour indices of its own strongest weight (a
 * quarter of the float32 bytes). The grid scales every thumbnail to its own maximum, so index / 255
 * draws the very same picture (thumbnailValues).
 */
export function thumbnailIndices(thumbnails: Float32Array, side: number): Uint8Array {
  const out = new Uint8Array(thumbnails.length);
  const size = side * side;
  for (let at = 0; at < thumbnails.length; at += size) heatmapIndices(thumbnails, at, side, side, side, maxOf(thumbnails, at, at + size), out, at, side);
  return out;
}

/** Thumbnails from their indices: index / 255 (each head's strongest weight becomes 1). */
export function thumbnailValues(indices: Uint8Array): Float32Array {
  const out = new Float32Array(indices.length);
  // The 256 quotients once, then a lookup a pixel (a division a pixel was 7 ms of a 12 × 12 page's first paint).
  const value = QUOTIENTS ??= Float32Array.from({ length: 256 }, (_, k) => k / 255);
  for (let k = 0; k < indices.length; k++) out[k] = value[indices[k]];
  return out;
}
let QUOTIENTS: Float32Array | undefined;

export interface ScanOptions {
  /** Apply the softmax to each row as it is read (for files holding scores). */
  softmax?: boolean;
  /** A model run's value-weighted norms instead of its weights (computed when first read). */
  norms?: boolean;
}

/** The row-wise softmax of `a` (n × n), in place; rows of −Infinity only stay all zero. */
export function softmaxRows(a: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) softmaxInto(a, i * n, n, a, i * n);
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
