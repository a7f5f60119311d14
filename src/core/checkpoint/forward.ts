// One forward pass over a list of token ids, in float32 (the default) or float64 (precision.ts: the
// same code over either numeric form), keeping what the views show: every layer's
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
// weights are read as stored (weights.ts) and every product is the numeric form's (precision.ts),
// which gives the same bits whatever the number of rows. Attention itself is the core's one float64
// attention op (attention/attend.ts) in both forms: the float32 form's q, k and v are widened to it
// (exactly) and its output rounded back, so the weights the views show come from one op.
// With `capture`, the pass records one layer: its residual stream and normed input, its q, k and v as
// the scores use them (after RoPE), and its weights (the lens reads these rather than recomputing).
//
// With `reuse`, the last run's keys and values (after RoPE) and attention: for ids that begin with
// the same p ids as that run's, only positions p…n − 1 are computed (their queries against every
// key; their keys and values appended to the kept ones), and attention rows 0…p − 1 are copied. This
// is exact for a causal model, bit for bit: a position's residual stream depends only on the tokens
// at and before it, positions are absolute (learned rows, RoPE by position), and every product here
// sums each cell in the same order whatever the number of rows (precision.ts), every norm and
// softmax works row by row. The last position is always computed (its logits are not kept). A
// dynamic RoPE's frequencies depend on the run's length: a kept run rotated by others is not reused,
// nor one computed in the other precision. A bidirectional model neither reuses nor keeps: there
// every position reads every other, so an edit at the end changes every row.
//
// With attention 'qk' (a long text: model.ts runPlan), no head's n × n is kept: each layer's q (after
// any q norm and RoPE) and k go to a store (memory, or a file the caller injects), each head is
// computed a block of rows at a time (attend32.ts) and every row is fed to the head's HeadPass
// (stats, thumbnail, picture) and dropped, so the run returns the pass and what qk-source.ts needs to
// recompute any row, the same bits. The MLP's intermediate is a block of rows at a time in any mode.
import { attendEach, type KeyMask } from '../attention/attend.js';
import { attendEach32 } from '../attention/attend32.js';
import { gemmStored } from '../kernels/gemm32.js';
import { widenInto, type StoredMatrix } from '../kernels/stored.js';
import type { ModelConfig } from './config.js';
import { ModelError } from './error.js';
import { attentionOf, type LayerNames, type ModelNames } from './families/shared/family.js';
import { allFinite } from './finite.js';
import { frequencyProblem, ropeFrequencies, sameFrequencies } from './rope-frequencies.js';
import type { ForwardProbe } from './probe.js';
import type { Weights } from './weights.js';
import { emptyPass, HeadPass, passShape, type PassResult } from '../tensors/pass.js';
import { earlierCopies } from '../tensors/head-stats.js';
import { entropyTerm } from '../tensors/rows.js';
import { memoryQkStore, type QkStore, type QkStoreFactory } from '../model-attention/qk-store.js';
import { runPictureSide, type QkRun } from '../model-attention/qk-source.js';
import { thumbOf } from '../model-attention/scan.js';
import { addBias, addInto, applyRope, gegluTanh, gelu, geluNew, layerNorm, rmsNorm, roundedTo, ropeTables, softcapInto, swiglu } from './ops.js';
import { headLogits, numeric, wide, type Floats, type Numeric, type Precision, type Rows } from './precision.js';

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
  /** With attention 'qk': what the attention is made of (qk-source.ts reads any rows from it) and the pass over every head. */
  qk?: QkOutput;
}

/** A run that kept q and k instead of its heads: the source's makings and the pass the forward made as it went. */
export interface QkOutput {
  run: QkRun;
  /** Every head's statistics, thumbnail (and picture), as passOverHeads over the dense attention gives them. */
  pass: PassResult;
  /** The thumbnails' side and the pictures' (0: none). */
  thumb: number;
  picture: number;
}

/** What a 'qk' run's pass is told: the name and tokens a source of the run would have, and the sides (defaults: thumbOf, runPictureSide). */
export interface QkOptions {
  file?: string;
  tokens?: string[];
  thumb?: number;
  picture?: number;
  /** Where q and k go (default: memory). */
  store?: QkStoreFactory;
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
  /** [heads, n, n]: the attention weights ([n, n] of one head when the capture named it). */
  weights: Float64Array;
}

/** A run's keys and values, kept for the next run over a text that begins the same. */
export interface KeptRun {
  ids: readonly number[];
  /** The precision they were computed in (a run in the other is not reused). */
  precision: Precision;
  /** Per layer, [n, kvHeads · headDim] row-major, after RoPE, in the run's precision. */
  keys: Floats[];
  values: Floats[];
  /** Per layer, [heads, n, n]: the run's attention (shared with its result; never written). */
  attention: Float32Array[];
  /** Per layer, RoPE's frequencies the keys were rotated by (a dynamic RoPE's change with the run's length). */
  frequencies?: Float64Array[];
}

export interface ForwardOptions {
  /** Keep this layer's inputs; with `stop`, end the pass there (no logits: an empty array). Computes every position. */
  /** Record a layer (the lens's form, float64); `head`: only that query head's weights (one n × n, not the layer's H). */
  capture?: { layer: number; stop?: boolean; head?: number };
  /** Called after each layer (progress, and a chance for a caller to stop by throwing). */
  onLayer?: (layer: number) => void;
  /** The last run's keys and values: positions its ids share with these are not computed again. */
  reuse?: KeptRun;
  /** Return this run's keys and values (`kept`) for the next run; not with `probe` or `start` (their keys are not a plain run's). */
  keep?: boolean;
  /** The numeric form: 'f32' (the default) or 'f64' (the exact mode). */
  precision?: Precision;
  /** Looks at (and may rewrite the heads' outputs of) the pass as it goes: probe.ts. Computes every position. */
  probe?: ForwardProbe;
  /**
   * Begin at this layer from this residual stream ([n, dModel], copied), the layers before it not
   * computed: a run that differs from an earlier one only from this layer on (an ablated or patched
   * head) starts where they part. Computes every position.
   */
  start?: { layer: number; residual: Floats };
  /**
   * false: keep no attention (empty arrays), for a run read only for its logits; its kept run (with
   * `keep`) then holds none either and serves as `reuse` only to a run that keeps none.
   */
  keepAttention?: boolean;
  /**
   * 'dense' (the default): every head's n × n kept (`attention`). 'qk': none kept (empty arrays);
   * each layer's q and k are kept instead (`qk`), every head's rows are computed in blocks and fed to
   * its pass, then dropped. Float32 only; it neither reuses nor keeps a run.
   */
  attention?: 'dense' | 'qk';
  qk?: QkOptions;
}

/** How many leading ids a and b share. */
export function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  return p;
}

/** Bytes a kept run of n tokens holds: every layer's keys and values (in the run's precision), and its attention (float32). */
export function keptBytes(c: ModelConfig, n: number, precision: Precision = 'f32'): number {
  return c.layers * (n * c.kvHeads * c.headDim * 2 * numeric(precision).bytes + c.heads * n * n * 4);
}

export function forward(c: ModelConfig, names: ModelNames, w: Weights, ids: readonly number[], options: ForwardOptions = {}): ForwardOutput {
  if (ids.length === 0) throw new ModelError('the text has no tokens to run');
  if (options.attention !== 'qk') return run(c, names, w, ids, options, undefined);
  if ((options.precision ?? 'f32') !== 'f32') throw new ModelError('a run that keeps no n × n attention is computed in float32; the exact (float64) mode keeps every head whole');
  if (options.start) throw new ModelError('a run that keeps no n × n attention computes every layer: it cannot start part way');
  // The store is let go if the pass fails or stops part way (a file store deletes its file).
  const qk = qkPass(c, ids.length, options.qk ?? {});
  try {
    return run(c, names, w, ids, options, qk);
  } catch (e) {
    qk.store.close();
    throw e;
  }
}

/**
 * A 'qk' run's attention side: the store its q and k go to, each head's pass fed from the row
 * blocks as attend32 makes them (float32 widened exactly to a float64 row with its entropy terms, as
 * rows.ts decodes a file's F32 rows), and the QkRun a source recomputes rows from.
 */
interface QkPassing {
  store: QkStore;
  layer(layer: number): QkHooks;
  output(): QkOutput;
}

/** What attend hands a 'qk' run: each head's inputs to keep and each row block to pass. */
interface QkHooks {
  onHeadInputs(head: number, q: Float32Array, keys: Float32Array | undefined): void;
  onBlock(head: number, r0: number, rows: number, from: number, to: number, weights: Float32Array, scales?: Float64Array): void;
}

function qkPass(c: ModelConfig, n: number, o: QkOptions): QkPassing {
  const H = c.heads, group = c.heads / c.kvHeads;
  const shape = { layers: c.layers, heads: H, kvHeads: c.kvHeads, headDim: c.headDim, n };
  const thumb = o.thumb ?? thumbOf({ layers: c.layers, heads: H, n }).thumb;
  const picture = o.picture ?? runPictureSide(c.layers, H, n);
  const store = (o.store ?? memoryQkStore)(shape);
  const file = o.file ?? 'the run';
  const passing = passShape({ file, dtype: 'F32', n, ...(o.tokens ? { tokens: o.tokens } : {}) }, { thumb, picture, columnMax: true });
  const copies = earlierCopies(o.tokens, n);
  const result = emptyPass(c.layers * H, thumb, picture);
  const row = new Float64Array(n), terms = new Float64Array(n);
  const masks = Array.from({ length: c.layers }, (_, layer) => maskOf(c, layer));
  // Each row's softmax max and sum (16 bytes a row: 67 MB at 8,192 tokens of 512 heads), so a window of keys is exact alone.
  const scales = Array.from({ length: c.layers * H }, () => new Float64Array(2 * n));
  const run: QkRun = { store, masks, scales, divisor: c.scoreDivisor ?? Math.sqrt(c.headDim), ...(c.softcap?.attention !== undefined ? { softcap: c.softcap.attention } : {}) };
  return {
    store,
    layer(layer) {
      let pass: HeadPass | undefined;
      return {
        onHeadInputs(head, q, keys) {
          store.write(layer, 'q', head, q);
          if (keys) store.write(layer, 'k', Math.floor(head / group), keys);
          pass = new HeadPass(passing, layer, head, result, (layer * H + head) * thumb * thumb, copies);
        },
        onBlock(head, r0, rows, from, to, weights, rowScales) {
          const width = to - from;
          scales[layer * H + head].set(rowScales!, 2 * r0);
          // row and terms are all zeros outside the block's keys: each row sets them and clears them.
          for (let r = 0; r < rows; r++) {
            for (let j = 0, at = r * width; j < width; j++) {
              const v = weights[at + j];
              row[from + j] = v;
              terms[from + j] = entropyTerm(v);
            }
            pass!.addRow(r0 + r, row, terms, from, to);
            row.fill(0, from, to);
            terms.fill(0, from, to);
          }
          if (r0 + rows === n) pass!.finish();
        },
      };
    },
    output: () => ({ run, pass: result, thumb, picture }),
  };
}

/** The layer's key mask: causal, a sliding window, or none (bidirectional). */
function maskOf(c: ModelConfig, layer: number): KeyMask {
  const kind = attentionOf(c, layer);
  return kind.kind === 'sliding' ? { window: kind.window } : kind.kind === 'bidirectional' ? 'none' : 'causal';
}

function run(c: ModelConfig, names: ModelNames, w: Weights, ids: readonly number[], options: ForwardOptions, qk: QkPassing | undefined): ForwardOutput {
  const n = ids.length, E = c.dModel, D = c.headDim, KV = c.kvHeads * D, H = c.heads;
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
  const num = numeric(options.precision ?? 'f32');
  const { probe, start } = options;
  const qkMode = qk !== undefined;
  if (start && (!Number.isInteger(start.layer) || start.layer < 0 || start.layer > c.layers || start.residual.length !== n * c.dModel)) throw new ModelError(`a run cannot start at layer ${start.layer} from ${start.residual.length} numbers`);
  if (start && options.capture && options.capture.layer < start.layer) throw new ModelError(`a run started at layer ${start.layer + 1} cannot capture layer ${options.capture.layer + 1}`);
  const keepAttention = options.keepAttention ?? true;
  // A kept run without its attention (keepAttention false) serves only a run that keeps none either:
  // joined with it, the shared rows would be empty.
  const attentionKept = !keepAttention || (options.reuse?.attention.every((a) => a.length > 0) ?? false);
  const reuse = qkMode || options.capture || probe || start || bidirectional || !attentionKept || options.reuse?.precision !== num.precision || !sameLayerFrequencies(options.reuse?.frequencies, frequencies) ? undefined : options.reuse;
  // Kept keys must be the plain run's of every layer: a started run has none before its layer, and a
  // probe may rewrite heads' outputs, which changes every later layer's keys and values.
  const keep = options.keep && !qkMode && !bidirectional && !probe && !start;
  // The first position computed: after the shared prefix, and never past the last position.
  const p = reuse ? Math.min(sharedPrefix(reuse.ids, ids), n - 1) : 0;
  const rows = n - p;
  // Held for the whole pass, as stored (the budget counts it): a tied head reads it again at the end.
  const table = w.matrix(names.embed);
  // Each stage's result is checked, not each weight as it is read (finite.ts): a weight that is NaN or
  // ±Infinity is named from the tensors the stage read.
  const stage = (data: Floats, tensors: readonly (string | undefined)[], where: string) => {
    if (!allFinite(data)) throw w.nonFinite(tensors, where);
  };
  let x: Rows;
  if (start) {
    const data = num.zeros(n * E);
    data.set(start.residual);
    x = { rows: n, cols: E, data };
  } else {
    x = embed(c, num, names, w, table, ids, p);
    stage(x.data, [names.embed, names.positions, names.tokenType, names.embedNorm, names.embedNormBias], 'in the embeddings');
  }
  // One table per distinct frequency array (a layer's base and scaling), made when first read.
  const made = new Map<Float64Array, { cos: Float64Array; sin: Float64Array }>();
  const ropeOf = (layer: number) => {
    const f = frequencies![layer];
    let tables = made.get(f);
    if (!tables) made.set(f, tables = ropeTables(n, rotary, f, p));
    return tables;
  };
  const attention: Float32Array[] = [];
  // A run started at a layer keeps no attention for the layers before it (the indices stay the layers').
  for (let layer = 0; layer < (start?.layer ?? 0); layer++) attention.push(new Float32Array(0));
  const keys: Floats[] = [], values: Floats[] = [];
  let captured: LayerRecording | undefined;
  for (let layer = start?.layer ?? 0; layer < c.layers; layer++) {
    const l = names.layers[layer];
    probe?.layerInput?.(layer, x);
    const post = c.block.norm.placement === 'post';
    const h = post ? x : norm(c, x, w, l.norm1, l.norm1Bias);
    const { q, k: newKeys, v: newValues } = projections(c, num, w, l, h);
    // Looked at here, not only in the residual stream: the softmax takes a row of NaN scores for a
    // row that sees no key (all weights 0), which would hide a bad q or k.
    for (const part of [q.data, newKeys.data, newValues.data]) stage(part, layerTensors(l), `in layer ${layer + 1}`);
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
    const weights = new Float32Array(!qk && keepAttention ? H * rows * n : 0);
    const only = options.capture?.head;
    const recorded = capturing ? new Float64Array((only === undefined ? H : 1) * rows * n) : undefined;
    const record = recorded ? (head: number, data: Floats) => {
      if (only === undefined) recorded.set(data, head * rows * n);
      else if (head === only) recorded.set(data);
    } : undefined;
    probe?.values?.(layer, v);
    const onHead = probe?.headWeights ? (head: number, data: Floats) => probe.headWeights!(layer, head, data) : undefined;
    const mixed = attend(c, layer, q, k, v, p, weights, record, onHead, qk?.layer(layer));
    // Without attention kept, the shared rows are not joined (H · n² copied a layer, each step of a generation).
    attention.push(reuse && p > 0 && keepAttention ? joinedAttention(reuse.attention[layer], reuse.ids.length, weights, H, n, p) : weights);
    probe?.headOutputs?.(layer, mixed);
    if (capturing) {
      // The recording is float64 whatever the precision (the lens's form), widened exactly.
      captured = { residual: Float64Array.from(x.data), x: Float64Array.from(h.data), q: wide(q).data, k: wide(k).data, v: wide(v).data, weights: recorded! };
      for (const part of [captured.x, captured.q, captured.k, captured.v, captured.weights]) stage(part, layerTensors(l), `in layer ${layer + 1}`);
      if (options.capture?.stop) {
        qk?.store.close();
        return { attention, logits: new Float64Array(0), captured, reused: 0 };
      }
    }
    let out = product(c, num, mixed, w.matrix(l.o));
    if (c.block.bias.o) addBias(out.data, w.f32(l.oBias!));
    probe?.attentionOutput?.(layer, out);
    // Sandwich: the attention's output normed before it is added.
    if (l.postAttnNorm) out = norm(c, out, w, l.postAttnNorm, undefined);
    // Parallel: the MLP reads the layer's input, before the attention's output is added to it.
    const parallel = c.block.kind === 'parallel' ? mlp(c, num, w, l, norm(c, x, w, l.norm2, l.norm2Bias)) : undefined;
    addInto(x.data, out.data);
    if (post) {
      x.data.set(norm(c, x, w, l.norm1, l.norm1Bias).data);
      const fed = mlp(c, num, w, l, x);
      probe?.mlpOutput?.(layer, fed);
      addInto(x.data, fed.data);
      x.data.set(norm(c, x, w, l.norm2, l.norm2Bias).data);
    } else {
      let fed = parallel ?? mlp(c, num, w, l, norm(c, x, w, l.norm2, l.norm2Bias));
      probe?.mlpOutput?.(layer, fed);
      if (l.postMlpNorm) fed = norm(c, fed, w, l.postMlpNorm, undefined);
      addInto(x.data, fed.data);
    }
    stage(x.data, layerTensors(l), `in layer ${layer + 1}`);
    options.onLayer?.(layer);
  }
  probe?.layerInput?.(c.layers, x);
  const logitsOf = (row: number) => {
    const logits = outputLogits(c, num, names, w, table, x.data.slice(row * E, (row + 1) * E));
    stage(logits, [names.head, names.headBias, names.headTransform, names.headTransformBias, names.finalNorm, names.finalNormBias], 'in the logits');
    return logits;
  };
  return {
    // An MLM head guesses at the positions asked for (logitsAt), not after the last.
    attention, logits: c.block.head === 'mlm' ? new Float64Array(0) : logitsOf(rows - 1), reused: p,
    logitsAt: (i: number) => logitsOf(positionIn(i, p, n)),
    ...(captured ? { captured } : {}),
    ...(qk ? { qk: qk.output() } : {}),
    ...(keep ? { kept: { ids: [...ids], precision: num.precision, keys, values, attention, ...(frequencies ? { frequencies } : {}) } } : {}),
  };
}

/**
 * A decoder's logits at each row of a residual stream `x` ([rows, dModel], e.g. after some layer):
 * the final norm and the head as the pass's own last position gets them, every row in the same sums
 * (the float32 kernel's cells do not depend on how many rows it multiplies), handed to `each` one
 * row at a time so that no more than a block of rows' logits is held (a vocabulary of 150,000 is
 * 600 kB a row in float32). A row whose logits are not finite is refused, `where` saying whose.
 */
export function logitsOfRows(c: ModelConfig, num: Numeric, names: ModelNames, w: Weights, x: Rows, each: (row: number, logits: Float64Array) => void, where = 'in the logits'): void {
  if (c.block.head === 'mlm' || names.head === undefined) throw new ModelError(`this ${c.type} model has no next-token head`);
  const E = c.dModel, head = w.matrix(names.head);
  const normed = norm(c, x, w, names.finalNorm!, names.finalNormBias);
  const finish = (logits: Float64Array) => {
    if (names.headBias !== undefined) addBias(logits, w.f32(names.headBias));
    if (c.softcap?.final !== undefined) softcapInto(logits, c.softcap.final);
    // The run checked its own last row's logits; another row's (another position, an earlier
    // layer's stream) can still pass float32's range in the head's product.
    if (!allFinite(logits)) throw w.nonFinite([names.head, names.headBias, names.finalNorm, names.finalNormBias], where);
    return logits;
  };
  if (num.precision === 'f64') {
    for (let r = 0; r < x.rows; r++) each(r, finish(headLogits(num, head, normed.data.subarray(r * E, (r + 1) * E))));
    return;
  }
  const block = Math.max(1, Math.floor(2 ** 23 / head.rows));
  for (let from = 0; from < x.rows; from += block) {
    const count = Math.min(block, x.rows - from);
    const out = gemmStored((normed.data as Float32Array).subarray(from * E, (from + count) * E), count, head, 'out-in');
    for (let r = 0; r < count; r++) each(from + r, finish(new Float64Array(out.subarray(r * head.rows, (r + 1) * head.rows))));
  }
}

/** Every tensor a layer reads (its names' values). */
function layerTensors(l: LayerNames): string[] {
  return Object.values(l).filter((v): v is string => typeof v === 'string');
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
function outputLogits(c: ModelConfig, num: Numeric, names: ModelNames, w: Weights, table: StoredMatrix, row: Floats): Float64Array {
  if (names.head === undefined || names.finalNorm === undefined) return new Float64Array(0);
  let x: Rows = { rows: 1, cols: c.dModel, data: row };
  if (names.headTransform !== undefined) {
    x = product(c, num, x, w.matrix(names.headTransform));
    if (names.headTransformBias !== undefined) addBias(x.data, w.f32(names.headTransformBias));
    activate(c, x.data);
  }
  const last = norm(c, x, w, names.finalNorm, names.finalNormBias);
  const logits = headLogits(num, names.head === names.embed ? table : w.matrix(names.head), last.data);
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
function joined(kept: Floats, fresh: Rows, count: number, width: number): Rows {
  const out = fresh.data instanceof Float32Array ? new Float32Array((count + fresh.rows) * width) : new Float64Array((count + fresh.rows) * width);
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
function embed(c: ModelConfig, num: Numeric, names: ModelNames, w: Weights, table: StoredMatrix, ids: readonly number[], from: number): Rows {
  const E = c.dModel;
  // Each row widened (exactly) as it is looked up: neither table is held wide.
  const token = new Float32Array(E), position = new Float32Array(E);
  // The position table read once for all rows (a weight not kept is read again at each lookup).
  const positions = c.block.position === 'learned' ? w.matrix(names.positions!) : undefined;
  const type0 = c.block.embeddings?.tokenType ? w.f32(names.tokenType!).subarray(0, E) : undefined;
  const rowOf = positionRows(c, ids);
  // √dModel as the model's code holds it: in the embedding's own dtype.
  const scale = c.block.embedScale === 'sqrt-d-model' ? roundedTo(Math.sqrt(E), w.dtype(names.embed)) : undefined;
  const x = num.zeros((ids.length - from) * E);
  for (let i = from; i < ids.length; i++) {
    const id = ids[i], at = (i - from) * E;
    if (!Number.isInteger(id) || id < 0 || id >= c.vocab) throw new ModelError(`token id ${id} is outside the model's vocabulary of ${c.vocab} (config.json's vocab_size)`);
    widenInto(table, id * E, E, token, 0);
    if (positions) widenInto(positions, rowOf(i) * positions.cols, positions.cols, position, 0);
    // In float64 arithmetic, then stored (the same sums as a float64 run's, rounded once).
    for (let j = 0; j < E; j++) {
      let v = (scale !== undefined ? token[j] * scale : token[j]) + (positions ? position[j] : 0);
      if (type0) v += type0[j];
      x[at + j] = v;
    }
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
export function norm(c: ModelConfig, x: Rows, w: Weights, weight: string, bias: string | undefined): Rows {
  const data = c.block.norm.kind === 'layernorm' ? layerNorm(x.data, c.dModel, w.f32(weight), w.f32(bias!), c.eps) : rmsNorm(x.data, c.dModel, w.f32(weight), c.eps, c.block.norm.offset);
  return { rows: x.rows, cols: x.cols, data };
}

/** x times a stored weight matrix in the family's layout: x · W for [in, out] (Conv1D), x · Wᵀ for [out, in] (nn.Linear). */
function product(c: ModelConfig, num: Numeric, x: Rows, weight: StoredMatrix): Rows {
  return num.product(x, weight, c.block.matrices === 'conv1d' ? 'in-out' : 'out-in');
}

/** Columns [from, from + width) of x, as a matrix of their own (x itself when they are all of it). */
function columnsOf(x: Rows, from: number, width: number): Rows {
  if (from === 0 && width === x.cols) return x;
  const data = x.data instanceof Float32Array ? new Float32Array(x.rows * width) : new Float64Array(x.rows * width);
  for (let i = 0; i < x.rows; i++) data.set(x.data.subarray(i * x.cols + from, i * x.cols + from + width), i * width);
  return { rows: x.rows, cols: width, data };
}

/** q [rows, heads · D], k and v [rows, kvHeads · D], biases added, before RoPE. */
function projections(c: ModelConfig, num: Numeric, w: Weights, l: LayerNames, h: Rows): { q: Rows; k: Rows; v: Rows } {
  const Q = c.heads * c.headDim, KV = c.kvHeads * c.headDim;
  if (c.block.qkv === 'fused') {
    const qkv = product(c, num, h, w.matrix(l.qkv!));
    if (c.block.bias.qkv) addBias(qkv.data, w.f32(l.qkvBias!));
    return { q: columnsOf(qkv, 0, Q), k: columnsOf(qkv, Q, KV), v: columnsOf(qkv, Q + KV, KV) };
  }
  const q = product(c, num, h, w.matrix(l.q!)), k = product(c, num, h, w.matrix(l.k!)), v = product(c, num, h, w.matrix(l.v!));
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
 * keeps) and, when recorded, to `record` (which widens it to float64) as the op hands the head over, so
 * a layer holds one head's float64 weights at once, not every head's (100 MB at 1,024 tokens and 12 heads); the
 * heads' outputs come back side by side [n − first, heads · D].
 */
function attend(c: ModelConfig, index: number, q: Rows, k: Rows, v: Rows, first: number, layer: Float32Array, record?: (head: number, weights: Floats) => void, onHead?: (head: number, weights: Floats) => void, qk?: QkHooks): Rows {
  const mask = maskOf(c, index);
  const size = q.rows * k.rows;
  const divisor = c.scoreDivisor ?? Math.sqrt(c.headDim);
  if (q.data instanceof Float32Array) {
    // Float32: its own op on the float32 kernel (attend32.ts); the recording widened exactly.
    const data = attendEach32({
      q: q.data, k: k.data as Float32Array, v: v.data as Float32Array, n: k.rows, first, heads: c.heads, kvHeads: c.kvHeads, headDim: c.headDim,
      divisor, mask, ...(c.softcap?.attention !== undefined ? { softcap: c.softcap.attention } : {}),
      // Whole heads only for a caller that keeps or reads them; else each head's rows in blocks alone.
      ...(layer.length > 0 || record || onHead ? {
        onHead: (head: number, weights: Float32Array) => {
          if (layer.length > 0) layer.set(weights, head * size);
          record?.(head, weights);
          onHead?.(head, weights);
        },
      } : {}),
      ...(qk ? { onHeadInputs: qk.onHeadInputs, onBlock: qk.onBlock, scales: true } : {}),
    });
    return { rows: q.rows, cols: c.heads * c.headDim, data };
  }
  // Float64: the core's one attention op.
  const mixed = attendEach({
    q: wide(q), k: wide(k), v: wide(v), heads: c.heads, kvHeads: c.kvHeads, divisor, mask, first,
    ...(c.softcap?.attention !== undefined ? { softcap: c.softcap.attention } : {}),
    onHead: (head, { weights }) => {
      if (layer.length > 0) layer.set(weights.data, head * size);
      record?.(head, weights.data);
      onHead?.(head, weights.data);
    },
  });
  return mixed;
}

/**
 * RMSNorm over each headDim-wide slice of every row of `x`, in place, with one weight for every head
 * (Qwen3's and Gemma 3's q_norm, k_norm), the weight offset by the model's norm offset (Gemma's 1 + w).
 */
function headNorm(c: ModelConfig, x: Floats, weight: Float32Array): void {
  x.set(rmsNorm(x, c.headDim, weight, c.eps, c.block.norm.offset));
}

/** The family's GELU (tanh approximation or exact), in place. */
function activate(c: ModelConfig, x: Floats): void {
  if (c.block.mlp === 'gelu') gelu(x);
  else geluNew(x);
}

/**
 * The family's MLP: gelu(x · W_fc + b) · W_proj + b (gelu_new or the exact GELU),
 * down(silu(gate(x)) · up(x)) (SwiGLU), or down(gelu_tanh(gate(x)) · up(x)) (GeGLU).
 */
function mlp(c: ModelConfig, num: Numeric, w: Weights, l: LayerNames, h: Rows): Rows {
  // A block of rows at a time where the intermediate is large (8,192 tokens of a Llama-1B's 8,192
  // wide gate and up are 256 MB each in float32): every product's cells and every activation are
  // row by row, so the blocks give the same bits as the whole.
  const step = mlpBlockRows(c);
  if (h.rows <= step) return mlpRows(c, num, w, l, h);
  const out = num.zeros(h.rows * c.dModel);
  for (let r0 = 0; r0 < h.rows; r0 += step) {
    const count = Math.min(step, h.rows - r0);
    const part = mlpRows(c, num, w, l, { rows: count, cols: h.cols, data: h.data.subarray(r0 * h.cols, (r0 + count) * h.cols) });
    out.set(part.data, r0 * c.dModel);
  }
  return { rows: h.rows, cols: c.dModel, data: out };
}

/** Most intermediate numbers of the MLP at once (per array: 32 MiB in float32). */
const MLP_CELLS = 2 ** 23;

/** Rows of the MLP computed at once: 1,024 at an intermediate of 8,192. */
export function mlpBlockRows(c: Pick<ModelConfig, 'ffn'>): number {
  return Math.max(1, Math.floor(MLP_CELLS / Math.max(1, c.ffn)));
}

function mlpRows(c: ModelConfig, num: Numeric, w: Weights, l: LayerNames, h: Rows): Rows {
  if (c.block.mlp === 'gelu-new' || c.block.mlp === 'gelu') {
    const hidden = product(c, num, h, w.matrix(l.fc!));
    if (c.block.bias.mlp) addBias(hidden.data, w.f32(l.fcBias!));
    activate(c, hidden.data);
    const out = product(c, num, hidden, w.matrix(l.proj!));
    if (c.block.bias.mlp) addBias(out.data, w.f32(l.projBias!));
    return out;
  }
  const gate = product(c, num, h, w.matrix(l.gate!));
  (c.block.mlp === 'geglu' ? gegluTanh : swiglu)(gate.data, product(c, num, h, w.matrix(l.up!)).data);
  return product(c, num, gate, w.matrix(l.down!));
}
