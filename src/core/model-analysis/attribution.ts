// Direct logit attribution at the last position: the residual stream there is a sum of parts (the
// embeddings with their positions, each head's output through its rows of W_O, each attention
// layer's output bias, each MLP's output), and with the final norm's scale frozen at the value the
// run computed, the norm is linear, so each part's share of the target's logit (minus the contrast's)
// is a dot product, and the parts add up to the logit difference. LayerNorm: each part centred, then
// divided by the run's scale, times the norm's weight; its bias is a part of its own. RMSNorm:
// divided by the run's scale, times (offset + weight). A family that norms each sublayer's output
// before adding it (Gemma 2 and 3's sandwich) has that norm's scale frozen from the run too. An
// output head's bias (where there is one) is a part; a final softcap is not linear, so the parts add
// up to the difference before it.
import type { ModelConfig } from '../checkpoint/config.js';
import type { ModelNames } from '../checkpoint/families/shared/family.js';
import type { ForwardProbe } from '../checkpoint/probe.js';
import type { Rows } from '../checkpoint/precision.js';
import { widenInto, type StoredMatrix } from '../kernels/stored.js';
import type { Weights } from '../checkpoint/weights.js';
import type { Attribution } from './types.js';

export interface AttributionProbe {
  probe: ForwardProbe;
  finish(target: number, contrast: number | null): Attribution;
}

/** Row `row` of x, as float64. */
const rowOf = (x: Rows, row: number) => Float64Array.from(x.data.subarray(row * x.cols, (row + 1) * x.cols));

export function attributionProbe(c: ModelConfig, names: ModelNames, w: Weights): AttributionProbe {
  const L = c.layers, E = c.dModel;
  let embedded: Float64Array | undefined, final: Float64Array | undefined;
  const z: Float64Array[] = [], attention: Float64Array[] = [], mlps: Float64Array[] = [];
  return {
    probe: {
      layerInput(layer, x) {
        if (layer === 0) embedded = rowOf(x, x.rows - 1);
        if (layer === L) final = rowOf(x, x.rows - 1);
      },
      headOutputs(layer, out) { z[layer] = rowOf(out, out.rows - 1); },
      attentionOutput(layer, out) { attention[layer] = rowOf(out, out.rows - 1); },
      mlpOutput(layer, out) { mlps[layer] = rowOf(out, out.rows - 1); },
    },
    finish(target, contrast) {
      const direction = unembedding(w, names, E, target, contrast);
      const dot = finalNormFrozen(c, w, names, final!, direction);
      const heads: number[][] = [], attentionBias: number[] = [], mlpParts: number[] = [];
      for (let layer = 0; layer < L; layer++) {
        const l = names.layers[layer];
        const post = (v: Float64Array) => (l.postAttnNorm ? sublayerNormFrozen(c, w, l.postAttnNorm, attention[layer], v) : v);
        heads.push(headWrites(c, w.matrix(l.o), z[layer]).map((v) => dot(post(v))));
        attentionBias.push(c.block.bias.o ? dot(post(Float64Array.from(w.f32(l.oBias!)))) : 0);
        mlpParts.push(dot(l.postMlpNorm ? sublayerNormFrozen(c, w, l.postMlpNorm, mlps[layer], mlps[layer]) : mlps[layer]));
      }
      const embed = dot(embedded!);
      let normBias = 0;
      if (names.finalNormBias !== undefined) {
        const b = w.f32(names.finalNormBias);
        for (let e = 0; e < E; e++) normBias += b[e] * direction[e];
      }
      let headBias: number | undefined;
      if (names.headBias !== undefined) {
        const b = w.f32(names.headBias);
        headBias = b[target] - (contrast === null ? 0 : b[contrast]);
      }
      let total = embed + normBias + (headBias ?? 0);
      for (let layer = 0; layer < L; layer++) {
        for (const v of heads[layer]) total += v;
        total += attentionBias[layer] + mlpParts[layer];
      }
      return { target, contrast, heads, attentionBias, mlps: mlpParts, embed, normBias, ...(headBias !== undefined ? { headBias } : {}), total };
    },
  };
}

/**
 * What each head writes into the residual stream at one position, z_h · W_O^h ([heads][dModel], float64),
 * read from the stored W_O a row at a time (never widened whole: a 70B model's is 8,192²).
 */
function headWrites(c: ModelConfig, wo: StoredMatrix, z: Float64Array): Float64Array[] {
  const H = c.heads, D = c.headDim, E = c.dModel, Z = H * D;
  const out = Array.from({ length: H }, () => new Float64Array(E));
  // A float64 weight is read as it is (widening it through float32 would round it).
  const rowOf = (from: number, count: number, buffer: Float32Array): Float32Array | Float64Array => {
    if (wo.dtype === 'F64') return (wo.data as Float64Array).subarray(from, from + count);
    widenInto(wo, from, count, buffer, 0);
    return buffer;
  };
  if (c.block.matrices === 'conv1d') {
    // [Z, E]: row h·D + d is what z's element there writes.
    const buffer = new Float32Array(E);
    for (let r = 0; r < Z; r++) {
      const zr = z[r];
      if (zr === 0) continue;
      const row = rowOf(r * E, E, buffer);
      const v = out[Math.floor(r / D)];
      for (let e = 0; e < E; e++) v[e] += zr * row[e];
    }
    return out;
  }
  // [E, Z] (an nn.Linear's): output e of head h is its z against row e's slice h·D … h·D + D − 1.
  const buffer = new Float32Array(Z);
  for (let e = 0; e < E; e++) {
    const row = rowOf(e * Z, Z, buffer);
    for (let h = 0; h < H; h++) {
      let s = 0;
      for (let d = h * D; d < (h + 1) * D; d++) s += z[d] * row[d];
      out[h][e] = s;
    }
  }
  return out;
}

/** W_U[target] − W_U[contrast] (W_U[target] alone without a contrast), as float64. */
function unembedding(w: Weights, names: ModelNames, E: number, target: number, contrast: number | null): Float64Array {
  // Each row as the run's head reads it (precision.ts's headLogits: widened through float32).
  const head = w.matrix(names.head!), row = new Float32Array(E), out = new Float64Array(E);
  widenInto(head, target * E, E, row, 0);
  for (let e = 0; e < E; e++) out[e] = row[e];
  if (contrast !== null) {
    widenInto(head, contrast * E, E, row, 0);
    for (let e = 0; e < E; e++) out[e] -= row[e];
  }
  return out;
}

/**
 * The final norm with its scale frozen at the run's (from the residual stream `r` it normed), then
 * dotted with `direction`: a linear map from a part of r to its share of the logit difference.
 */
function finalNormFrozen(c: ModelConfig, w: Weights, names: ModelNames, r: Float64Array, direction: Float64Array): (part: Float64Array) => number {
  const E = c.dModel, g = w.f32(names.finalNorm!);
  const scaled = new Float64Array(E);
  if (c.block.norm.kind === 'layernorm') {
    let mean = 0;
    for (let e = 0; e < E; e++) mean += r[e];
    mean /= E;
    let variance = 0;
    for (let e = 0; e < E; e++) variance += (r[e] - mean) ** 2;
    const inv = 1 / Math.sqrt(variance / E + c.eps);
    for (let e = 0; e < E; e++) scaled[e] = inv * g[e] * direction[e];
    return (part) => {
      let m = 0;
      for (let e = 0; e < E; e++) m += part[e];
      m /= E;
      let s = 0;
      for (let e = 0; e < E; e++) s += (part[e] - m) * scaled[e];
      return s;
    };
  }
  const offset = c.block.norm.offset ?? 0;
  let squares = 0;
  for (let e = 0; e < E; e++) squares += r[e] * r[e];
  const inv = 1 / Math.sqrt(squares / E + c.eps);
  for (let e = 0; e < E; e++) scaled[e] = inv * (offset + g[e]) * direction[e];
  return (part) => {
    let s = 0;
    for (let e = 0; e < E; e++) s += part[e] * scaled[e];
    return s;
  };
}

/** A sandwich norm (RMSNorm on a sublayer's output, before the add) with its scale frozen from `output`, applied to `part`. */
function sublayerNormFrozen(c: ModelConfig, w: Weights, weight: string, output: Float64Array, part: Float64Array): Float64Array {
  const E = c.dModel, g = w.f32(weight), offset = c.block.norm.offset ?? 0;
  let squares = 0;
  for (let e = 0; e < E; e++) squares += output[e] * output[e];
  const inv = 1 / Math.sqrt(squares / E + c.eps);
  const out = new Float64Array(E);
  for (let e = 0; e < E; e++) out[e] = part[e] * inv * (offset + g[e]);
  return out;
}
