// One forward pass over a list of token ids, in float64, keeping what the views show: every layer's
// attention weights for every query head ([heads, n, n] as float32), and the logits at the last
// position only (the head's vocab × d_model product is needed nowhere else). One generic block,
// driven by the family's description (families/shared/family.ts) and never by the family's name:
// x += attention(norm1(x)); x += mlp(norm2(x)) (sequential; sandwich norms: each sublayer's output
// normed again before the add), or x += attention(norm1(x)) + mlp(norm2(x)) with both norms of the
// same x (parallel), with the norm kind (RMSNorm's weight offset), the positions (learned rows, or
// RoPE on the whole head or its first rotaryDims, its frequencies per layer from the layer's base and
// the config's scaling: rope-frequencies.ts), the embeddings' scale, the layout of every matrix (y =
// x · W for a Conv1D's [in, out], x · Wᵀ for an nn.Linear's [out, in]), fused or separate q/k/v, the
// biases, a per-head RMSNorm on q and k before RoPE where the description has one, the attention
// kind of each layer (causal, or a sliding window; grouped-query when kvHeads < heads: query head h
// reads key/value head ⌊h / (heads / kvHeads)⌋), the scores' divisor and softcap, the MLP (gelu_new,
// exact GELU, SwiGLU, GeGLU) and the final logits' softcap as it says. An encoder's description
// (BERT) asks for post norms (x = norm1(x + attention(x)); x = norm2(x + mlp(x))), every key seen
// (bidirectional), token type 0's row and a LayerNorm on the embeddings, and an MLM head whose logits
// are computed at the positions the caller asks for (logitsAt: the mask tokens). A kind the block
// does not compute (sandwich LayerNorms, a parallel block whose norms are not pre) is refused by
// readModelConfig (config.ts), before any tensor is loaded. The
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
// softmax works row by row. The last position is always computed (its logits are not kept). A
// dynamic RoPE's frequencies depend on the run's length: a kept run rotated by others is not reused.
// A bidirectional model neither reuses nor keeps: there every position reads every other, so an edit
// at the end changes every row.
import { attendEach, type KeyMask } from '../attention/attend.js';
import { columnsOf, matmul, matmulTransposed, type Matrix } from '../linalg/matrix.js';
import type { ModelConfig } from './config.js';
import { ModelError } from './error.js';
import { attentionOf, type LayerNames, type ModelNames } from './families/shared/family.js';
import { frequencyProblem, ropeFrequencies, sameFrequencies } from './rope-frequencies.js';
import type { Weights } from './weights.js';
import { addBias, addInto, applyRope, gegluTanh, gelu, geluNew, layerNorm, rmsNorm, roundedTo, ropeTables, softcapInto, swiglu } from './ops.js';

export interface ForwardOutput {
  /** Per layer, [heads, n, n] row-major. */
  attention: Float32Array[];
  /** The logits of the next token after the last position, [vocab] (empty for an encoder, or a model saved without its head). */
  logits: Float64Array;
  /**
   * The head's logits at a computed position (an MLM head's guess at a mask token), computed when
   * asked: a text of many mask tokens holds one vocabulary's logits at a time, not one per mask.
   * Absent when the pass stopped early (capture's stop).
   */
  logitsAt?: (position: number) => Float64Array;
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
  /** Per layer, RoPE's frequencies the keys were rotated by (a dynamic RoPE's change with the run's length). */
  frequencies?: Float64Array[];
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
  // Learned positions have no row past the context; RoPE rotates any position (Hugging Face runs it).
  if (n > c.contextLength && c.block.position === 'learned') throw new ModelError(`${n} tokens are more than the model's context length of ${c.contextLength}`);
  // RoPE turns the first rotaryDims of each head (all of it unless the config says a share), its
  // rotaryDims / 2 frequencies computed over those dims as Hugging Face's partial rotary does.
  const rotary = c.rotaryDims ?? D;
  const frequencies = c.block.position === 'rope' ? layerFrequencies(c, rotary, n) : undefined;
  for (const [layer, f] of (frequencies ?? []).entries()) {
    const overflow = frequencies!.indexOf(f) === layer ? frequencyProblem(f, n) : undefined;
    const theta = c.layerRope?.[layer].theta ?? c.ropeTheta;
    if (overflow) throw new ModelError(`config.json: ${overflow} (rope_theta ${theta}${c.ropeScaling ? `, rope_scaling ${c.ropeScaling.kind}` : ''})`);
  }
  // Kept keys are reusable only if rotated by the same frequencies (a dynamic RoPE's depend on n).
  const bidirectional = c.attention.kind === 'bidirectional';
  const reuse = options.capture || bidirectional || !sameLayerFrequencies(options.reuse?.frequencies, frequencies) ? undefined : options.reuse;
  const keep = options.keep && !bidirectional;
  // The first position computed: after the shared prefix, and never past the last position.
  const p = reuse ? Math.min(sharedPrefix(reuse.ids, ids), n - 1) : 0;
  const rows = n - p;
  // Held for the whole pass (the budget counts it): a tied head reads it again at the end.
  const table = w.f32(names.embed);
  const x = embed(c, names, w, table, ids, p);
  // One table per distinct frequency array (a layer's base and scaling), made when first read.
  const made = new Map<Float64Array, { cos: Float64Array; sin: Float64Array }>();
  const ropeOf = (layer: number) => {
    const f = frequencies![layer];
    let tables = made.get(f);
    if (!tables) made.set(f, tables = ropeTables(n, rotary, f, p));
    return tables;
  };
  const attention: Float32Array[] = [];
  const keys: Float64Array[] = [], values: Float64Array[] = [];
  let captured: LayerRecording | undefined;
  for (let layer = 0; layer < c.layers; layer++) {
    const l = names.layers[layer];
    const post = c.block.norm.placement === 'post';
    const h = post ? x : norm(c, x, w, l.norm1, l.norm1Bias);
    const { q, k: newKeys, v: newValues } = projections(c, w, l, h);
    // The layer's names say it (a description with qkNorm names both norms of every layer).
    if (l.qNorm !== undefined && l.kNorm !== undefined) {
      headNorm(c, q.data, w.f32(l.qNorm));
      headNorm(c, newKeys.data, w.f32(l.kNorm));
    }
    if (frequencies) {
      const tables = ropeOf(layer);
      applyRope(q.data, rows, H, D, tables, rotary);
      applyRope(newKeys.data, rows, c.kvHeads, D, tables, rotary);
    }
    const k = reuse && p > 0 ? joined(reuse.keys[layer], newKeys, p, KV) : newKeys;
    const v = reuse && p > 0 ? joined(reuse.values[layer], newValues, p, KV) : newValues;
    if (keep) { keys.push(k.data); values.push(v.data); }
    const capturing = options.capture?.layer === layer;
    const weights = new Float32Array(H * rows * n);
    const recorded = capturing ? new Float64Array(H * rows * n) : undefined;
    const mixed = attend(c, layer, q, k, v, p, weights, recorded);
    attention.push(reuse && p > 0 ? joinedAttention(reuse.attention[layer], reuse.ids.length, weights, H, n, p) : weights);
    if (capturing) {
      captured = { residual: x.data.slice(), x: post ? h.data.slice() : h.data, q: q.data, k: k.data, v: v.data, weights: recorded! };
      if (options.capture?.stop) return { attention, logits: new Float64Array(0), captured, reused: 0 };
    }
    let out = product(c, mixed, w.f64(l.o));
    if (c.block.bias.o) addBias(out.data, w.f32(l.oBias!));
    // Sandwich: the attention's output normed before it is added.
    if (l.postAttnNorm) out = norm(c, out, w, l.postAttnNorm, undefined);
    // Parallel: the MLP reads the layer's input, before the attention's output is added to it.
    const parallel = c.block.kind === 'parallel' ? mlp(c, w, l, norm(c, x, w, l.norm2, l.norm2Bias)) : undefined;
    addInto(x.data, out.data);
    if (post) {
      x.data.set(norm(c, x, w, l.norm1, l.norm1Bias).data);
      addInto(x.data, mlp(c, w, l, x).data);
      x.data.set(norm(c, x, w, l.norm2, l.norm2Bias).data);
    } else {
      let fed = parallel ?? mlp(c, w, l, norm(c, x, w, l.norm2, l.norm2Bias));
      if (l.postMlpNorm) fed = norm(c, fed, w, l.postMlpNorm, undefined);
      addInto(x.data, fed.data);
    }
    options.onLayer?.(layer);
  }
  const logitsOf = (row: number) => outputLogits(c, names, w, table, x.data.slice(row * E, (row + 1) * E));
  return {
    // An MLM head guesses at the positions asked for (logitsAt), not after the last.
    attention, logits: c.block.head === 'mlm' ? new Float64Array(0) : logitsOf(rows - 1), reused: p,
    logitsAt: (i: number) => logitsOf(positionIn(i, p, n)),
    ...(captured ? { captured } : {}),
    ...(keep ? { kept: { ids: [...ids], keys, values, attention, ...(frequencies ? { frequencies } : {}) } } : {}),
  };
}

/** Position i's row among the computed rows p…n − 1. */
function positionIn(i: number, p: number, n: number): number {
  if (!Number.isInteger(i) || i < p || i >= n) throw new ModelError(`position ${i} is not one of the ${n - p} positions this run computed`);
  return i - p;
}

/**
 * One position's output row through the head: an MLM head's transform (dense, GELU) first, then the
 * final norm and the head's [vocab, dModel] product (plus its bias). Empty without a head.
 */
function outputLogits(c: ModelConfig, names: ModelNames, w: Weights, table: Float32Array, row: Float64Array): Float64Array {
  if (names.head === undefined || names.finalNorm === undefined) return new Float64Array(0);
  let x: Matrix = { rows: 1, cols: c.dModel, data: row };
  if (names.headTransform !== undefined) {
    x = product(c, x, w.f64(names.headTransform));
    if (names.headTransformBias !== undefined) addBias(x.data, w.f32(names.headTransformBias));
    activate(c, x.data);
  }
  const last = norm(c, x, w, names.finalNorm, names.finalNormBias);
  const logits = headLogits(names.head === names.embed ? table : w.f32(names.head), last.data, c.vocab, c.dModel);
  if (names.headBias !== undefined) addBias(logits, w.f32(names.headBias));
  if (c.softcap?.final !== undefined) softcapInto(logits, c.softcap.final);
  return logits;
}

/**
 * RoPE's frequencies for each layer of a run of n tokens, over the `dims` each head rotates: the
 * model's (rope_theta and its scaling) for every layer, or, where layers differ (layerRope: a base
 * of their own, a linear factor), each distinct setting's, computed once and shared by its layers.
 */
function layerFrequencies(c: ModelConfig, dims: number, n: number): Float64Array[] {
  if (!c.layerRope) {
    const model = ropeFrequencies(c.ropeTheta, dims, c.ropeScaling, n);
    return Array.from({ length: c.layers }, () => model);
  }
  const made = new Map<string, Float64Array>();
  return c.layerRope.map(({ theta, linear }) => {
    const key = `${theta} ${linear}`;
    let f = made.get(key);
    if (!f) made.set(key, f = ropeFrequencies(theta, dims, linear === undefined ? undefined : { kind: 'linear', factor: linear }, n));
    return f;
  });
}

/** Whether two runs rotate every layer alike (a kept run's keys are reusable only then). */
function sameLayerFrequencies(a: readonly Float64Array[] | undefined, b: readonly Float64Array[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((f, i) => sameFrequencies(f, b[i]));
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
 * Each id's row of the embedding matrix (times the scale where the description scales it; plus its
 * position's row where positions are learned, and token type 0's where the description adds it), for
 * positions from…n − 1, LayerNormed where the description says: [n − from, dModel].
 */
function embed(c: ModelConfig, names: ModelNames, w: Weights, table: Float32Array, ids: readonly number[], from: number): Matrix {
  const E = c.dModel;
  const positions = c.block.position === 'learned' ? w.f32(names.positions!) : undefined;
  const type0 = c.block.embeddings?.tokenType ? w.f32(names.tokenType!).subarray(0, E) : undefined;
  const rowOf = positionRows(c, ids);
  // √dModel as the model's code holds it: in the embedding's own dtype.
  const scale = c.block.embedScale === 'sqrt-d-model' ? roundedTo(Math.sqrt(E), w.dtype(names.embed)) : undefined;
  const x = new Float64Array((ids.length - from) * E);
  for (let i = from; i < ids.length; i++) {
    const id = ids[i], at = (i - from) * E, pos = rowOf(i) * E;
    if (!Number.isInteger(id) || id < 0 || id >= c.vocab) throw new ModelError(`token id ${id} is outside the model's vocabulary of ${c.vocab} (config.json's vocab_size)`);
    if (scale !== undefined) for (let j = 0; j < E; j++) x[at + j] = table[id * E + j] * scale + (positions ? positions[pos + j] : 0);
    else for (let j = 0; j < E; j++) x[at + j] = table[id * E + j] + (positions ? positions[pos + j] : 0);
    if (type0) for (let j = 0; j < E; j++) x[at + j] += type0[j];
  }
  const m = { rows: ids.length - from, cols: E, data: x };
  return c.block.embeddings?.norm ? norm(c, m, w, names.embedNorm!, names.embedNormBias) : m;
}

/** Position i's row of the learned positions: i, or counted from paddingIdx + 1 over the ids that are not paddingIdx (RoBERTa). */
function positionRows(c: ModelConfig, ids: readonly number[]): (i: number) => number {
  const pad = c.paddingIdx;
  if (pad === undefined) return (i) => i;
  const rows: number[] = [];
  let count = 0;
  for (const id of ids) rows.push(id === pad ? pad : pad + ++count);
  return (i) => rows[i];
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
function attend(c: ModelConfig, index: number, q: Matrix, k: Matrix, v: Matrix, first: number, layer: Float32Array, recorded?: Float64Array): Matrix {
  const kind = attentionOf(c, index);
  const mask: KeyMask = kind.kind === 'sliding' ? { window: kind.window } : kind.kind === 'bidirectional' ? 'none' : 'causal';
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

/**
 * RMSNorm over each headDim-wide slice of every row of `x`, in place, with one weight for every head
 * (Qwen3's and Gemma 3's q_norm, k_norm), the weight offset by the model's norm offset (Gemma's 1 + w).
 */
function headNorm(c: ModelConfig, x: Float64Array, weight: Float32Array): void {
  x.set(rmsNorm(x, c.headDim, weight, c.eps, c.block.norm.offset));
}

/** The family's GELU (tanh approximation or exact), in place. */
function activate(c: ModelConfig, x: Float64Array): void {
  if (c.block.mlp === 'gelu') gelu(x);
  else geluNew(x);
}

/**
 * The family's MLP: gelu(x · W_fc + b) · W_proj + b (gelu_new or the exact GELU),
 * down(silu(gate(x)) · up(x)) (SwiGLU), or down(gelu_tanh(gate(x)) · up(x)) (GeGLU).
 */
function mlp(c: ModelConfig, w: Weights, l: LayerNames, h: Matrix): Matrix {
  if (c.block.mlp === 'gelu-new' || c.block.mlp === 'gelu') {
    const hidden = product(c, h, w.f64(l.fc!));
    if (c.block.bias.mlp) addBias(hidden.data, w.f32(l.fcBias!));
    activate(c, hidden.data);
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
