// The lens on one real head: the numbers its attention is computed from, in the spec views' own
// form (y = x · W, one row per token), so a real head can be shown step by step as the seeds show a
// toy one. The pass runs up to the head's layer and records it (forward.ts's capture): the residual
// stream, the normed input, q, k and v as the scores used them (after RoPE where the family rotates
// them) and the weights are read from that recording, never recomputed, so the lens shows what the
// run computed. This head's slices of W_Q, W_K, W_V, their biases and its rows of W_O are cut out of
// the tensors where the family's description says they sit (fused or separate q/k/v; [in, out] or
// [out, in]).
import { columnsOf } from '../linalg/matrix.js';
import type { ModelConfig } from './config.js';
import { ModelError } from './error.js';
import { attentionOf, type LayerNames } from './families/shared/family.js';
import { forward } from './forward.js';
import type { LoadedModel } from './model.js';
import type { HeadLens } from './types.js';
import type { Weights } from './weights.js';

/** Where one of q, k, v sits: its weight and bias tensors, and its first output in them. */
interface Part {
  weight: string;
  bias?: string;
  from: number;
}

/** q, k and v's places, as the description lays them out: one matrix's outputs q | k | v, or three matrices. */
function parts(c: ModelConfig, l: LayerNames): { q: Part; k: Part; v: Part } {
  const Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim, biased = c.block.bias.qkv;
  if (c.block.qkv === 'fused') {
    const bias = biased ? l.qkvBias! : undefined;
    return { q: { weight: l.qkv!, bias, from: 0 }, k: { weight: l.qkv!, bias, from: Q }, v: { weight: l.qkv!, bias, from: Q + KV } };
  }
  return {
    q: { weight: l.q!, bias: biased ? l.qBias! : undefined, from: 0 },
    k: { weight: l.k!, bias: biased ? l.kBias! : undefined, from: 0 },
    v: { weight: l.v!, bias: biased ? l.vBias! : undefined, from: 0 },
  };
}

/**
 * Outputs [from, from + width) of a matrix with `inputs` inputs in the family's layout, as
 * [inputs, width] in y = x · W form: columns of a Conv1D's [in, out], rows of an nn.Linear's
 * [out, in] transposed.
 */
function outputsOf(c: ModelConfig, w: Float32Array, inputs: number, from: number, width: number): Float64Array {
  const out = new Float64Array(inputs * width);
  if (c.block.matrices === 'conv1d') {
    const stride = w.length / inputs;
    for (let i = 0; i < inputs; i++) for (let j = 0; j < width; j++) out[i * width + j] = w[i * stride + from + j];
  } else {
    for (let r = 0; r < width; r++) for (let i = 0; i < inputs; i++) out[i * width + r] = w[(from + r) * inputs + i];
  }
  return out;
}

/**
 * Inputs [from, from + width) of a matrix with `outputs` outputs in the family's layout, as
 * [width, outputs] in y = x · W form: rows of a Conv1D's [in, out], columns of an nn.Linear's
 * [out, in] transposed (a head's rows of W_O).
 */
function inputsOf(c: ModelConfig, w: Float32Array, outputs: number, from: number, width: number): Float64Array {
  if (c.block.matrices === 'conv1d') return Float64Array.from(w.subarray(from * outputs, (from + width) * outputs));
  const inputs = w.length / outputs, out = new Float64Array(width * outputs);
  for (let o = 0; o < outputs; o++) for (let r = 0; r < width; r++) out[r * outputs + o] = w[o * inputs + from + r];
  return out;
}

/** A head's weight slice [dModel, headDim] and bias [headDim] (undefined where the family has none). */
function sliceOf(c: ModelConfig, w: Weights, part: Part, offset: number): { weight: Float64Array; bias?: Float64Array } {
  const from = part.from + offset, D = c.headDim;
  const weight = outputsOf(c, w.f32(part.weight), c.dModel, from, D);
  return part.bias === undefined ? { weight } : { weight, bias: Float64Array.from(w.f32(part.bias).subarray(from, from + D)) };
}

/** Columns [from, from + width) of the n × stride `x`, as an n × width array of its own. */
function headColumns(x: Float64Array, n: number, stride: number, from: number, width: number): Float64Array {
  const m = columnsOf({ rows: n, cols: stride, data: x }, from, width);
  return m.data === x ? x.slice() : m.data;
}

export function headLens(m: LoadedModel, ids: readonly number[], tokens: readonly string[], layer: number, head: number): HeadLens {
  const c = m.config, E = c.dModel, D = c.headDim, n = ids.length;
  if (!Number.isInteger(layer) || layer < 0 || layer >= c.layers) throw new ModelError(`layer ${layer} is not one of the model's ${c.layers} layers (0 to ${c.layers - 1})`);
  if (!Number.isInteger(head) || head < 0 || head >= c.heads) throw new ModelError(`head ${head} is not one of the model's ${c.heads} heads (0 to ${c.heads - 1})`);
  const kvHead = Math.floor(head / (c.heads / c.kvHeads));
  // One head recorded, no attention kept: a long run's layer of H × n × n is never held for the lens.
  const { captured } = forward(c, m.names, m.weights, ids, { precision: m.precision, keepAttention: false, capture: { layer, stop: true, head } });
  const { residual, x, q, k, v, weights } = captured!;
  const l = m.names.layers[layer], w = m.weights;
  const at = parts(c, l);
  const sq = sliceOf(c, w, at.q, head * D), sk = sliceOf(c, w, at.k, kvHead * D), sv = sliceOf(c, w, at.v, kvHead * D);
  const wo = inputsOf(c, w.f32(l.o), E, head * D, D);
  const KV = c.kvHeads * D, seen = attentionOf(c, layer);
  return {
    layer, head, kvHead, tokens: [...tokens], residual, x, wq: sq.weight, wk: sk.weight, wv: sv.weight,
    ...(sq.bias ? { bq: sq.bias } : {}), ...(sk.bias ? { bk: sk.bias } : {}), ...(sv.bias ? { bv: sv.bias } : {}),
    wo,
    q: headColumns(q, n, c.heads * D, head * D, D), k: headColumns(k, n, KV, kvHead * D, D), v: headColumns(v, n, KV, kvHead * D, D),
    rotary: c.block.position === 'rope', scale: c.scoreDivisor ?? Math.sqrt(D),
    ...(seen.kind === 'sliding' ? { window: seen.window } : {}), ...(seen.kind === 'bidirectional' ? { bidirectional: true as const } : {}),
    ...(c.softcap?.attention !== undefined ? { softcap: c.softcap.attention } : {}),
    weights, dModel: E, headDim: D,
  };
}
