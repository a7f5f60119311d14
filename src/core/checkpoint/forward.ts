// One forward pass over a list of token ids, in float64, keeping what the views show: every layer's
// attention weights for every query head ([heads, n, n] as float32), and the logits at the last
// position only (the head's vocab × d_model product is needed nowhere else). One generic block,
// driven by the family's description (families/family.ts) and never by the family's name:
// x += attention(norm1(x)); x += mlp(norm2(x)) (sandwich norms: each sublayer's output normed again
// before the add), with the norm kind (RMSNorm's weight offset), the positions (learned rows or RoPE,
// with a base and linear scaling per layer where layers differ), the embeddings' scale, the layout of
// every matrix (y = x · W for a Conv1D's [in, out], x · Wᵀ for an nn.Linear's [out, in]), fused or
// separate q/k/v, the biases, q and k normed per head, the attention kind per layer (causal, or a
// sliding window; grouped-query when kvHeads < heads: query head h reads key/value head
// ⌊h / (heads / kvHeads)⌋), the scores' divisor and softcap, the MLP (gelu_new, SwiGLU, GeGLU) and the
// final logits' softcap as it says. A kind the block does not compute yet (post norms, a parallel
// block, bidirectional attention) is refused by readModelConfig (config.ts), before any tensor is
// loaded. The
// activations are linalg's Matrix and its products, which give the same bits whatever the number of
// rows (they switch between the WebAssembly kernel and a JavaScript loop that sum every cell in the
// same order).
// With `capture`, the pass records one layer: its residual stream and normed input, its q, k and v as
// the scores use them (after RoPE), and its weights (the lens reads these rather than recomputing).
//
// With `reuse`, the last run's keys and values (after RoPE) and attention: for ids that begin with
// the same p ids as that run's, only positions p…n − 1 are computed (their queries against every
// key; their keys and values appended to the kept ones), and attention rows 0…p − 1 are copied. This
// is exact for a causal model, bit for bit: a position's residual stream depends only on the tokens
// at and before it, positions are absolute (learned rows, RoPE by position), and every product here
// sums each cell in the same order whatever the number of rows (kernels/gemm.ts), every norm and
// softmax works row by row. The last position is always computed (its logits are not kept).
import { attendEach, type KeyMask } from '../attention/attend.js';
import { columnsOf, matmul, matmulTransposed, type Matrix } from '../linalg/matrix.js';
import type { ModelConfig } from './config.js';
import { ModelError } from './error.js';
import { attentionOf, type AttentionKind, type LayerNames, type ModelNames } from './families/family.js';
import type { Weights } from './weights.js';
import { addBias, addInto, applyRope, gegluTanh, geluNew, layerNorm, rmsNorm, roundedTo, ropeTables, softcapInto, swiglu } from './ops.js';

export interface ForwardOutput {
  /** Per layer, [heads, n, n] row-major. */
  attention: Float32Array[];
  /** The logits of the next token after the last position, [vocab]. */
  logits: Float64Array;
  /** The captured layer's recording: every position, all heads. */
  captured?: LayerRecording;
  /** With `keep`: what a later run may reuse. */
  kept?: KeptRun;
  /** Positions taken from `reuse` rather than computed (0 without it). */
  reused: number;
}

/** One layer of one pass, as its attention computed it. */
export interface LayerRecording {
  /** [n, dModel]: the residual stream at the layer's input. */
  residual: Float64Array;
  /** [n, dModel]: after the layer's first norm, what the q, k and v projections multiply. */
  x: Float64Array;
  /** [n, heads · headDim]: the queries, biases added, after RoPE where the family rotates them. */
  q: Float64Array;
  /** [n, kvHeads · headDim]: the keys (as q) and the values. */
  k: Float64Array;
  v: Float64Array;
  /** [heads, n, n]: the attention weights. */
  weights: Float64Array;
}

/** A run's keys and values, kept for the next run over a text that begins the same. */
export interface KeptRun {
  ids: readonly number[];
  /** Per layer, [n, kvHeads · headDim] row-major, after RoPE. */
  keys: Float64Array[];
  values: Float64Array[];
  /** Per layer, [heads, n, n]: the run's attention (shared with its result; never written). */
  attention: Float32Array[];
}

export interface ForwardOptions {
  /** Keep this layer's inputs; with `stop`, end the pass there (no logits: an empty array). Computes every position. */
  capture?: { layer: number; stop?: boolean };
  /** Called after each layer (progress, and a chance for a caller to stop by throwing). */
  onLayer?: (layer: number) => void;
  /** The last run's keys and values: positions its ids share with these are not computed again. */
  reuse?: KeptRun;
  /** Return this run's keys and values (`kept`) for the next run. */
  keep?: boolean;
}

/** How many leading ids a and b share. */
export function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  return p;
}

/** Bytes a kept run of n tokens holds: every layer's keys and values (float64), and its attention (float32). */
export function keptBytes(c: ModelConfig, n: number): number {
  return c.layers * (n * c.kvHeads * c.headDim * 2 * 8 + c.heads * n * n * 4);
}

export function forward(c: ModelConfig, names: ModelNames, w: Weights, ids: readonly number[], options: ForwardOptions = {}): ForwardOutput {
  const n = ids.length, E = c.dModel, D = c.headDim, KV = c.kvHeads * D, H = c.heads;
  if (n === 0) throw new ModelError('the text has no tokens to run');
  if (n > c.contextLength) throw new ModelError(`${n} tokens are more than the model's context length of ${c.contextLength}`);
  const reuse = options.capture ? undefined : options.reuse;
  // The first position computed: after the shared prefix, and never past the last position.
  const p = reuse ? Math.min(sharedPrefix(reuse.ids, ids), n - 1) : 0;
  const rows = n - p;
  // Held for the whole pass (the budget counts it): a tied head reads it again at the end.
  const table = w.f32(names.embed);
  const x = embed(c, names, w, table, ids, p);
  const rope = c.block.position === 'rope' ? ropeFor(c, n, p) : undefined;
  const attention: Float32Array[] = [];
  const keys: Float64Array[] = [], values: Float64Array[] = [];
  let captured: LayerRecording | undefined;
  for (let layer = 0; layer < c.layers; layer++) {
    const l = names.layers[layer];
    const h = norm(c, x, w, l.norm1, l.norm1Bias);
    const { q, k: newKeys, v: newValues } = headNormed(c, w, l, projections(c, w, l, h));
    if (rope) {
      const tables = rope(layer);
      applyRope(q.data, rows, H, D, tables);
      applyRope(newKeys.data, rows, c.kvHeads, D, tables);
    }
    const k = reuse && p > 0 ? joined(reuse.keys[layer], newKeys, p, KV) : newKeys;
    const v = reuse && p > 0 ? joined(reuse.values[layer], newValues, p, KV) : newValues;
    if (options.keep) { keys.push(k.data); values.push(v.data); }
    const capturing = options.capture?.layer === layer;
    const weights = new Float32Array(H * rows * n);
    const recorded = capturing ? new Float64Array(H * rows * n) : undefined;
    const mixed = attend(c, attentionOf(c, layer), q, k, v, p, weights, recorded);
    attention.push(reuse && p > 0 ? joinedAttention(reuse.attention[layer], reuse.ids.length, weights, H, n, p) : weights);
    if (capturing) {
      captured = { residual: x.data.slice(), x: h.data, q: q.data, k: k.data, v: v.data, weights: recorded! };
      if (options.capture?.stop) return { attention, logits: new Float64Array(0), captured, reused: 0 };
    }
    let out = product(c, mixed, w.f64(l.o));
    if (c.block.bias.o) addBias(out.data, w.f32(l.oBias!));
    if (l.postAttnNorm) out = norm(c, out, w, l.postAttnNorm, undefined);
    addInto(x.data, out.data);
    let fed = mlp(c, w, l, norm(c, x, w, l.norm2, l.norm2Bias));
    if (l.postMlpNorm) fed = norm(c, fed, w, l.postMlpNorm, undefined);
    addInto(x.data, fed.data);
    options.onLayer?.(layer);
  }
  const last = norm(c, { rows: 1, cols: E, data: x.data.subarray((rows - 1) * E) }, w, names.finalNorm, names.finalNormBias);
  const logits = headLogits(names.head === names.embed ? table : w.f32(names.head), last.data, c.vocab, E);
  if (c.softcap?.final !== undefined) softcapInto(logits, c.softcap.final);
  return {
    attention, logits, reused: p,
    ...(captured ? { captured } : {}),
    ...(options.keep ? { kept: { ids: [...ids], keys, values, attention } } : {}),
  };
}

/** q and k each RMS-normed per head over headDim where the layer names q and k norms; else as they are. */
function headNormed(c: ModelConfig, w: Weights, l: LayerNames, m: { q: Matrix; k: Matrix; v: Matrix }): { q: Matrix; k: Matrix; v: Matrix } {
  if (!l.qNorm || !l.kNorm) return m;
  const D = c.headDim, offset = c.block.norm.offset;
  return {
    q: { ...m.q, data: rmsNorm(m.q.data, D, w.f32(l.qNorm), c.eps, offset) },
    k: { ...m.k, data: rmsNorm(m.k.data, D, w.f32(l.kNorm), c.eps, offset) },
    v: m.v,
  };
}

/**
 * RoPE's tables for positions from…n − 1, by layer: one table for every layer, or, where layers
 * differ (layerRope), one per distinct base and scaling, made once.
 */
function ropeFor(c: ModelConfig, n: number, from: number): (layer: number) => { cos: Float64Array; sin: Float64Array } {
  if (!c.layerRope) {
    const tables = ropeTables(n, c.headDim, c.ropeTheta, from);
    return () => tables;
  }
  const made = new Map<string, { cos: Float64Array; sin: Float64Array }>();
  return (layer) => {
    const { theta, linear = 1 } = c.layerRope![layer];
    const key = `${theta} ${linear}`;
    let tables = made.get(key);
    if (!tables) made.set(key, tables = ropeTables(n, c.headDim, theta, from, linear));
    return tables;
  };
}

/** The first `count` rows of `kept` (width `width`) followed by `fresh`'s. */
function joined(kept: Float64Array, fresh: Matrix, count: number, width: number): Matrix {
  const out = new Float64Array((count + fresh.rows) * width);
  out.set(kept.subarray(0, count * width));
  out.set(fresh.data, count * width);
  return { rows: count + fresh.rows, cols: width, data: out };
}

/**
 * A layer's [heads, n, n] attention: query rows 0…p − 1 copied from the kept run's (of `keptN`
 * tokens; those rows' weights fall on keys 0…p − 1 only), rows p…n − 1 from `fresh` ([heads, n − p, n]).
 */
function joinedAttention(kept: Float32Array, keptN: number, fresh: Float32Array, heads: number, n: number, p: number): Float32Array {
  const out = new Float32Array(heads * n * n);
  for (let head = 0; head < heads; head++) {
    for (let i = 0; i < p; i++) out.set(kept.subarray(head * keptN * keptN + i * keptN, head * keptN * keptN + i * keptN + p), head * n * n + i * n);
    const from = head * (n - p) * n;
    for (let i = p; i < n; i++) out.set(fresh.subarray(from + (i - p) * n, from + (i - p + 1) * n), head * n * n + i * n);
  }
  return out;
}

/**
 * Each id's row of the embedding matrix (plus its position's row where positions are learned; times
 * the scale where the description scales it), for positions from…n − 1: [n − from, dModel].
 */
function embed(c: ModelConfig, names: ModelNames, w: Weights, table: Float32Array, ids: readonly number[], from: number): Matrix {
  const E = c.dModel;
  const positions = c.block.position === 'learned' ? w.f32(names.positions!) : undefined;
  // √dModel as the model's code holds it: in the embedding's own dtype.
  const scale = c.block.embedScale === 'sqrt-d-model' ? roundedTo(Math.sqrt(E), w.dtype(names.embed)) : undefined;
  const x = new Float64Array((ids.length - from) * E);
  for (let i = from; i < ids.length; i++) {
    const id = ids[i], at = (i - from) * E;
    if (!Number.isInteger(id) || id < 0 || id >= c.vocab) throw new ModelError(`token id ${id} is outside the model's vocabulary of ${c.vocab} (config.json's vocab_size)`);
    if (scale !== undefined) for (let j = 0; j < E; j++) x[at + j] = table[id * E + j] * scale + (positions ? positions[i * E + j] : 0);
    else for (let j = 0; j < E; j++) x[at + j] = table[id * E + j] + (positions ? positions[i * E + j] : 0);
  }
  return { rows: ids.length - from, cols: E, data: x };
}

/** The family's norm over each row (LayerNorm reads its bias tensor; RMSNorm has none). */
function norm(c: ModelConfig, x: Matrix, w: Weights, weight: string, bias: string | undefined): Matrix {
  const data = c.block.norm.kind === 'layernorm' ? layerNorm(x.data, c.dModel, w.f32(weight), w.f32(bias!), c.eps) : rmsNorm(x.data, c.dModel, w.f32(weight), c.eps, c.block.norm.offset);
  return { rows: x.rows, cols: x.cols, data };
}

/** x times a weight matrix in the family's layout: x · W for [in, out] (Conv1D), x · Wᵀ for [out, in] (nn.Linear). */
function product(c: ModelConfig, x: Matrix, weight: Float64Array): Matrix {
  const out = weight.length / x.cols;
  return c.block.matrices === 'conv1d'
    ? matmul(x, { rows: x.cols, cols: out, data: weight })
    : matmulTransposed(x, { rows: out, cols: x.cols, data: weight });
}

/** q [rows, heads · D], k and v [rows, kvHeads · D], biases added, before RoPE. */
function projections(c: ModelConfig, w: Weights, l: LayerNames, h: Matrix): { q: Matrix; k: Matrix; v: Matrix } {
  const Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  if (c.block.qkv === 'fused') {
    const qkv = product(c, h, w.f64(l.qkv!));
    if (c.block.bias.qkv) addBias(qkv.data, w.f32(l.qkvBias!));
    return { q: columnsOf(qkv, 0, Q), k: columnsOf(qkv, Q, KV), v: columnsOf(qkv, Q + KV, KV) };
  }
  const q = product(c, h, w.f64(l.q!)), k = product(c, h, w.f64(l.k!)), v = product(c, h, w.f64(l.v!));
  if (c.block.bias.qkv) {
    addBias(q.data, w.f32(l.qBias!));
    addBias(k.data, w.f32(l.kBias!));
    addBias(v.data, w.f32(l.vBias!));
  }
  return { q, k, v };
}

/**
 * Every query head's attention for queries first…n − 1 (q [n − first, heads · D] holds their rows;
 * k and v [n, kvHeads · D] hold all n positions), by the core's one attention op (attention/attend.ts)
 * under the layer's attention kind (causal, or a sliding window), grouped-query heads reading their
 * key/value head: each head's weights go into `layer` ([heads, n − first, n], float32, what the run
 * keeps) and, when recorded, into `recorded` (float64) as the op hands the head over, so a layer holds
 * one head's float64 weights at once, not every head's (100 MB at 1,024 tokens and 12 heads); the
 * heads' outputs come back side by side [n − first, heads · D].
 */
function attend(c: ModelConfig, kind: AttentionKind, q: Matrix, k: Matrix, v: Matrix, first: number, layer: Float32Array, recorded?: Float64Array): Matrix {
  const mask: KeyMask = kind.kind === 'sliding' ? { window: kind.window } : 'causal';
  const size = q.rows * k.rows;
  return attendEach({
    q, k, v, heads: c.heads, kvHeads: c.kvHeads, divisor: c.scoreDivisor ?? Math.sqrt(c.headDim), mask, first,
    ...(c.softcap?.attention !== undefined ? { softcap: c.softcap.attention } : {}),
    onHead: (head, { weights }) => {
      layer.set(weights.data, head * size);
      recorded?.set(weights.data, head * size);
    },
  });
}

/** The family's MLP: gelu_new(x · W_fc + b) · W_proj + b, down(silu(gate(x)) · up(x)), or down(gelu_tanh(gate(x)) · up(x)). */
function mlp(c: ModelConfig, w: Weights, l: LayerNames, h: Matrix): Matrix {
  if (c.block.mlp === 'gelu-new') {
    const hidden = product(c, h, w.f64(l.fc!));
    if (c.block.bias.mlp) addBias(hidden.data, w.f32(l.fcBias!));
    geluNew(hidden.data);
    const out = product(c, hidden, w.f64(l.proj!));
    if (c.block.bias.mlp) addBias(out.data, w.f32(l.projBias!));
    return out;
  }
  const gate = product(c, h, w.f64(l.gate!));
  (c.block.mlp === 'geglu' ? gegluTanh : swiglu)(gate.data, product(c, h, w.f64(l.up!)).data);
  return product(c, gate, w.f64(l.down!));
}

/**
 * The head's [vocab, dModel] matrix times one normed vector: the logits. Four vocabulary rows at a
 * time, each its own sum in the order j = 0, 1, 2, … (the same numbers as one row at a time; four
 * independent sums keep the processor busy).
 */
function headLogits(head: Float32Array, x: Float64Array, vocab: number, E: number): Float64Array {
  const logits = new Float64Array(vocab);
  let t = 0;
  for (; t + 4 <= vocab; t += 4) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const a0 = t * E, a1 = a0 + E, a2 = a1 + E, a3 = a2 + E;
    for (let j = 0; j < E; j++) {
      const v = x[j];
      s0 += head[a0 + j] * v;
      s1 += head[a1 + j] * v;
      s2 += head[a2 + j] * v;
      s3 += head[a3 + j] * v;
    }
    logits[t] = s0; logits[t + 1] = s1; logits[t + 2] = s2; logits[t + 3] = s3;
  }
  for (; t < vocab; t++) {
    let s = 0;
    const at = t * E;
    for (let j = 0; j < E; j++) s += head[at + j] * x[j];
    logits[t] = s;
  }
  return logits;
}
