// The lens on one real head: the numbers its attention is computed from, in the spec views' own
// form (y = x · W, one row per token), so a real head can be shown step by step as the seeds show a
// toy one. The pass runs up to the head's layer and keeps that layer's input; this head's slices of
// W_Q, W_K, W_V (Conv1D columns for gpt2, nn.Linear rows transposed for llama and qwen2), its biases,
// its rows of W_O, and its q, k, v (q and k rotated by RoPE where the model uses it) are cut out.
import { ModelError } from './config.js';
import { forward } from './forward.js';
import type { LoadedModel } from './model.js';
import { applyRope, matmul, ropeTables } from './ops.js';
import type { HeadLens } from './types.js';

/** Columns [from, from + width) of the rows × stride matrix `w` (float32), as rows × width float64. */
function columnsOf(w: Float32Array, rows: number, stride: number, from: number, width: number): Float64Array {
  const out = new Float64Array(rows * width);
  for (let i = 0; i < rows; i++) for (let j = 0; j < width; j++) out[i * width + j] = w[i * stride + from + j];
  return out;
}

/** Rows [from, from + count) of the ? × width matrix `w`, transposed: width × count. */
function rowsTransposed(w: Float32Array, width: number, from: number, count: number): Float64Array {
  const out = new Float64Array(width * count);
  for (let r = 0; r < count; r++) for (let j = 0; j < width; j++) out[j * count + r] = w[(from + r) * width + j];
  return out;
}

const slice = (b: Float32Array, from: number, width: number) => Float64Array.from(b.subarray(from, from + width));

export function headLens(m: LoadedModel, ids: readonly number[], tokens: readonly string[], layer: number, head: number): HeadLens {
  const c = m.config, E = c.dModel, D = c.headDim, n = ids.length;
  if (!Number.isInteger(layer) || layer < 0 || layer >= c.layers) throw new ModelError(`layer ${layer} is not one of the model's ${c.layers} layers (0 to ${c.layers - 1})`);
  if (!Number.isInteger(head) || head < 0 || head >= c.heads) throw new ModelError(`head ${head} is not one of the model's ${c.heads} heads (0 to ${c.heads - 1})`);
  const kvHead = Math.floor(head / (c.heads / c.kvHeads));
  const { captured } = forward(c, m.names, m.weights, ids, { capture: { layer, stop: true } });
  const { residual, x, weights } = captured!;
  const l = m.names.layers[layer], w = m.weights;
  let wq: Float64Array, wk: Float64Array, wv: Float64Array, wo: Float64Array;
  let bq: Float64Array | undefined, bk: Float64Array | undefined, bv: Float64Array | undefined;
  if (l.qkv) {
    const qkv = w.f32(l.qkv), bias = w.f32(l.qkvBias!);
    wq = columnsOf(qkv, E, 3 * E, head * D, D);
    wk = columnsOf(qkv, E, 3 * E, E + kvHead * D, D);
    wv = columnsOf(qkv, E, 3 * E, 2 * E + kvHead * D, D);
    bq = slice(bias, head * D, D);
    bk = slice(bias, E + kvHead * D, D);
    bv = slice(bias, 2 * E + kvHead * D, D);
    wo = Float64Array.from(w.f32(l.o).subarray(head * D * E, (head + 1) * D * E)); // Conv1D [in, out]: this head's rows
  } else {
    wq = rowsTransposed(w.f32(l.q!), E, head * D, D);
    wk = rowsTransposed(w.f32(l.k!), E, kvHead * D, D);
    wv = rowsTransposed(w.f32(l.v!), E, kvHead * D, D);
    if (l.qBias) bq = slice(w.f32(l.qBias), head * D, D);
    if (l.kBias) bk = slice(w.f32(l.kBias), kvHead * D, D);
    if (l.vBias) bv = slice(w.f32(l.vBias), kvHead * D, D);
    wo = columnsOf(w.f32(l.o), E, c.heads * D, head * D, D); // nn.Linear [E, heads·D]: this head's columns are Wᵀ's rows
    wo = transpose(wo, E, D);
  }
  const project = (wm: Float64Array, b: Float64Array | undefined) => {
    const y = matmul(x, n, E, wm, D, false);
    if (b) for (let i = 0; i < n; i++) for (let j = 0; j < D; j++) y[i * D + j] += b[j];
    return y;
  };
  const q = project(wq, bq), k = project(wk, bk), v = project(wv, bv);
  const rotary = c.type !== 'gpt2';
  if (rotary) {
    const tables = ropeTables(n, D, c.ropeTheta);
    applyRope(q, n, 1, D, tables);
    applyRope(k, n, 1, D, tables);
  }
  return {
    layer, head, kvHead, tokens: [...tokens], residual, x, wq, wk, wv,
    ...(bq ? { bq } : {}), ...(bk ? { bk } : {}), ...(bv ? { bv } : {}),
    wo, q, k, v, rotary, scale: Math.sqrt(D), weights: weights.slice(head * n * n, (head + 1) * n * n), dModel: E, headDim: D,
  };
}

/** The rows × cols matrix transposed. */
function transpose(a: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = a[i * cols + j];
  return out;
}
