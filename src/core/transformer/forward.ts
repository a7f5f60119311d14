// One forward pass over a list of token ids, in float64, keeping what the views show: every layer's
// attention weights for every query head ([heads, n, n] as float32), and the logits at the last
// position only (the head's vocab × d_model product is needed nowhere else). Pre-norm blocks:
// x += attention(norm1(x)); x += mlp(norm2(x)).
//   gpt2:  LayerNorm, q/k/v from one Conv1D (y = x · W + b, W is [in, out]), learned positions, gelu_new.
//   llama: RMSNorm, nn.Linear (y = x · Wᵀ, W is [out, in]), RoPE on q and k, grouped-query attention
//          (query head h reads key/value head ⌊h / (heads / kvHeads)⌋), SwiGLU.
//   qwen2: llama with biases on q, k and v.
// With `capture`, the pass also keeps one layer's residual stream and normed input (for the lens).
//
// With `reuse`, the last run's keys and values (after RoPE) and attention: for ids that begin with
// the same p ids as that run's, only positions p…n − 1 are computed (their queries against every
// key; their keys and values appended to the kept ones), and attention rows 0…p − 1 are copied. This
// is exact for a causal model, bit for bit: a position's residual stream depends only on the tokens
// at and before it, positions are absolute (learned rows, RoPE by position), and every product here
// sums each cell in the same order whatever the number of rows (kernels/gemm.ts), every norm and
// softmax works row by row. The last position is always computed (its logits are not kept).
import { ModelError, type ModelConfig } from './config.js';
import type { ModelNames, Weights } from './weights.js';
import { addBias, addInto, applyRope, causalSoftmax, columns, geluNew, layerNorm, matmul, rmsNorm, ropeTables, swiglu } from './ops.js';

export interface ForwardOutput {
  /** Per layer, [heads, n, n] row-major. */
  attention: Float32Array[];
  /** The logits of the next token after the last position, [vocab]. */
  logits: Float64Array;
  /** The captured layer's residual stream (its input) and what its attention reads (after the norm), [n, dModel] each. */
  captured?: { residual: Float64Array; x: Float64Array; weights: Float64Array };
  /** With `keep`: what a later run may reuse. */
  kept?: KeptRun;
  /** Positions taken from `reuse` rather than computed (0 without it). */
  reused: number;
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
  const rope = c.type === 'gpt2' ? undefined : ropeTables(n, D, c.ropeTheta, p);
  const attention: Float32Array[] = [];
  const keys: Float64Array[] = [], values: Float64Array[] = [];
  let captured: ForwardOutput['captured'];
  for (let layer = 0; layer < c.layers; layer++) {
    const l = names.layers[layer];
    const h = norm(c, x, w, l.norm1, l.norm1Bias);
    const { q, k: newKeys, v: newValues } = projections(c, w, l, h, rows);
    if (rope) {
      applyRope(q, rows, H, D, rope);
      applyRope(newKeys, rows, c.kvHeads, D, rope);
    }
    const k = reuse && p > 0 ? joined(reuse.keys[layer], newKeys, p * KV) : newKeys;
    const v = reuse && p > 0 ? joined(reuse.values[layer], newValues, p * KV) : newValues;
    if (options.keep) { keys.push(k); values.push(v); }
    const { weights, mixed } = attend(c, q, k, v, n, p);
    attention.push(reuse && p > 0 ? joinedAttention(reuse.attention[layer], reuse.ids.length, weights, H, n, p) : Float32Array.from(weights));
    if (options.capture?.layer === layer) {
      captured = { residual: x.slice(), x: h, weights };
      if (options.capture.stop) return { attention, logits: new Float64Array(0), captured, reused: 0 };
    }
    const out = c.type === 'gpt2' ? matmul(mixed, rows, E, w.f64(l.o), E, false) : matmul(mixed, rows, H * D, w.f64(l.o), E, true);
    if (l.oBias) addBias(out, w.f32(l.oBias));
    addInto(x, out);
    addInto(x, mlp(c, w, l, norm(c, x, w, l.norm2, l.norm2Bias), rows));
    options.onLayer?.(layer);
  }
  const last = norm(c, x.subarray((rows - 1) * E), w, names.finalNorm, names.finalNormBias);
  return {
    attention, logits: headLogits(names.head === names.embed ? table : w.f32(names.head), last, c.vocab, E), reused: p,
    ...(captured ? { captured } : {}),
    ...(options.keep ? { kept: { ids: [...ids], keys, values, attention } } : {}),
  };
}

/** The first `count` numbers of `kept` followed by `fresh`. */
function joined(kept: Float64Array, fresh: Float64Array, count: number): Float64Array {
  const out = new Float64Array(count + fresh.length);
  out.set(kept.subarray(0, count));
  out.set(fresh, count);
  return out;
}

/**
 * A layer's [heads, n, n] attention: query rows 0…p − 1 copied from the kept run's (of `keptN`
 * tokens; those rows' weights fall on keys 0…p − 1 only), rows p…n − 1 from `fresh` ([heads, n − p, n]).
 */
function joinedAttention(kept: Float32Array, keptN: number, fresh: Float64Array, heads: number, n: number, p: number): Float32Array {
  const out = new Float32Array(heads * n * n);
  for (let head = 0; head < heads; head++) {
    for (let i = 0; i < p; i++) out.set(kept.subarray(head * keptN * keptN + i * keptN, head * keptN * keptN + i * keptN + p), head * n * n + i * n);
    const from = head * (n - p) * n;
    for (let i = p; i < n; i++) {
      const src = from + (i - p) * n, dst = head * n * n + i * n;
      for (let j = 0; j < n; j++) out[dst + j] = fresh[src + j];
    }
  }
  return out;
}

/** Each id's row of the embedding matrix (plus its position's row for gpt2), for positions from…n − 1: [n − from, dModel]. */
function embed(c: ModelConfig, names: ModelNames, w: Weights, table: Float32Array, ids: readonly number[], from: number): Float64Array {
  const E = c.dModel;
  const positions = names.positions ? w.f32(names.positions) : undefined;
  const x = new Float64Array((ids.length - from) * E);
  for (let i = from; i < ids.length; i++) {
    const id = ids[i], at = (i - from) * E;
    if (!Number.isInteger(id) || id < 0 || id >= c.vocab) throw new ModelError(`token id ${id} is outside the model's vocabulary of ${c.vocab} (config.json's vocab_size)`);
    for (let j = 0; j < E; j++) x[at + j] = table[id * E + j] + (positions ? positions[i * E + j] : 0);
  }
  return x;
}

function norm(c: ModelConfig, x: Float64Array, w: Weights, weight: string, bias: string | undefined): Float64Array {
  return c.type === 'gpt2' ? layerNorm(x, c.dModel, w.f32(weight), w.f32(bias!), c.eps) : rmsNorm(x, c.dModel, w.f32(weight), c.eps);
}

/** q [n, heads · D], k and v [n, kvHeads · D], biases added, before RoPE. */
export function projections(c: ModelConfig, w: Weights, l: ModelNames['layers'][number], h: Float64Array, n: number): { q: Float64Array; k: Float64Array; v: Float64Array } {
  const E = c.dModel;
  if (l.qkv) {
    const qkv = matmul(h, n, E, w.f64(l.qkv), 3 * E, false);
    addBias(qkv, w.f32(l.qkvBias!));
    return { q: columns(qkv, n, 3 * E, 0, E), k: columns(qkv, n, 3 * E, E, E), v: columns(qkv, n, 3 * E, 2 * E, E) };
  }
  const Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  const q = matmul(h, n, E, w.f64(l.q!), Q, true);
  const k = matmul(h, n, E, w.f64(l.k!), KV, true);
  const v = matmul(h, n, E, w.f64(l.v!), KV, true);
  if (l.qBias) addBias(q, w.f32(l.qBias));
  if (l.kBias) addBias(k, w.f32(l.kBias));
  if (l.vBias) addBias(v, w.f32(l.vBias));
  return { q, k, v };
}

/**
 * Every query head's causal attention for queries first…n − 1 (q holds their rows; k and v hold all
 * n positions): the weights [heads, n − first, n] and the heads' outputs side by side [n − first, heads · D].
 */
function attend(c: ModelConfig, q: Float64Array, k: Float64Array, v: Float64Array, n: number, first: number): { weights: Float64Array; mixed: Float64Array } {
  const D = c.headDim, H = c.heads, group = c.heads / c.kvHeads, rows = n - first;
  const weights = new Float64Array(H * rows * n), mixed = new Float64Array(rows * H * D);
  const scale = Math.sqrt(D);
  let keys: Float64Array | undefined, values: Float64Array | undefined, kvAt = -1;
  for (let head = 0; head < H; head++) {
    const kvHead = Math.floor(head / group);
    if (kvHead !== kvAt) {
      keys = columns(k, n, c.kvHeads * D, kvHead * D, D);
      values = columns(v, n, c.kvHeads * D, kvHead * D, D);
      kvAt = kvHead;
    }
    const scores = matmul(columns(q, rows, H * D, head * D, D), rows, D, keys!, n, true);
    causalSoftmax(scores, n, scale, first);
    weights.set(scores, head * rows * n);
    const out = matmul(scores, rows, n, values!, D, false);
    for (let i = 0; i < rows; i++) mixed.set(out.subarray(i * D, (i + 1) * D), i * H * D + head * D);
  }
  return { weights, mixed };
}

function mlp(c: ModelConfig, w: Weights, l: ModelNames['layers'][number], h: Float64Array, n: number): Float64Array {
  const E = c.dModel, F = c.ffn;
  if (l.fc) {
    const hidden = matmul(h, n, E, w.f64(l.fc), F, false);
    addBias(hidden, w.f32(l.fcBias!));
    geluNew(hidden);
    const out = matmul(hidden, n, F, w.f64(l.proj!), E, false);
    addBias(out, w.f32(l.projBias!));
    return out;
  }
  const gate = matmul(h, n, E, w.f64(l.gate!), F, true);
  swiglu(gate, matmul(h, n, E, w.f64(l.up!), F, true));
  return matmul(gate, n, F, w.f64(l.down!), E, true);
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
