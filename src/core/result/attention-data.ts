// The result model every reader of a computed spec shares: the panel's views, the editor's hovers
// (held by the host's analysis cache), the linear-algebra numbers, `attn render` and the exporters.
// Numbers stay in typed arrays (Matrix: rows × cols on a Float64Array) and are read through the
// accessors below, never as arrays of rows: a 1,024-token head is two 8 MB buffers, not a million
// JavaScript numbers in a million-element tree. Its other forms are made from it and are nothing
// more: the compute's working result (core/attention, which it shares), its serialisation between
// threads (wire.ts: a header and one buffer) and the arrays of rows of `attn compute --json`
// (result-json.ts).
import { buildMask, computeAttention, type AttentionResult, type ComputeWarning, type HeadResult } from '../attention/attention.js';
import { get, row, type Matrix } from '../linalg/matrix.js';
import { softmaxInto } from '../attention/softmax.js';
import type { ParameterCount } from '../attention/parameters.js';
import type { Spec } from '../spec/spec.js';
import { trainingJson, type TrainingJson } from '../train/frames.js';
import type { LinalgJson } from './linalg-json.js';
import { HEAD_ROLES, type Role } from '../vocabulary.js';

export type { Matrix } from '../linalg/matrix.js';
export { get as at, row } from '../linalg/matrix.js';

/**
 * One head of one input: the compute's own head (core/attention), shared, not copied, without its
 * scaled scores (scores ÷ divisor where not masked: read them through scaledAt and scaledRow).
 */
export type HeadData = Omit<HeadResult, 'scaled'>;

export interface InputData {
  readonly name: string;
  readonly tokens: readonly string[];
  /** Each token's embedding (n × d_model). */
  readonly embeddings: Matrix;
  readonly masked: Uint8Array;
  readonly heads: readonly HeadData[];
  /** The heads' outputs side by side (n × heads·d_v). */
  readonly concat: Matrix;
  /** concat · W_O, or concat itself without W_O. */
  readonly output: Matrix;
}

export type WeightRole = Role;

/** A weight matrix of the spec. An identity is a flag, never d_model² numbers written out. */
export interface WeightData {
  readonly role: WeightRole;
  readonly head?: number;
  readonly rows: number;
  readonly cols: number;
  readonly identity: boolean;
  /** The matrix; absent for an identity (read it through weightAt / weightRow). */
  readonly values?: Matrix;
}

export interface QuadrantAxisData {
  readonly label: string;
  readonly direction: readonly number[];
  readonly ends?: readonly [string, string];
}

export interface QuadrantData {
  readonly x: QuadrantAxisData;
  readonly y: QuadrantAxisData;
  readonly quadrants?: readonly [string, string, string, string];
}

/** A fully masked query, as the compute reported it. */
export type ComputeWarningData = ComputeWarning;

export interface AttentionData {
  readonly title?: string;
  readonly features: readonly string[];
  readonly dModel: number;
  /** 'sqrt_dk', 'none' or the spec's number, as text. */
  readonly scale: string;
  readonly mask: string;
  readonly inputs: readonly InputData[];
  /** Every weight matrix of the spec: W_Q, W_K, W_V per head, then W_O if any. */
  readonly matrices: readonly WeightData[];
  readonly views: { readonly quadrant?: QuadrantData };
  readonly parameters: ParameterCount;
  readonly warnings: readonly ComputeWarningData[];
  /** The run of the spec's "train" section, for the Training view (small by construction). */
  readonly training?: TrainingJson;
  /** The numbers of the linear-algebra views (spectra, head overlap, covariance, init lab), when asked for. */
  readonly linalg?: LinalgJson;
}

function scaleName(spec: Spec): string {
  return spec.scale.kind === 'number' ? String(spec.scale.value) : spec.scale.kind;
}

function weight(role: WeightRole, head: number | undefined, w: { matrix: Matrix; identity: boolean }): WeightData {
  return {
    role, ...(head !== undefined ? { head } : {}), rows: w.matrix.rows, cols: w.matrix.cols, identity: w.identity,
    ...(w.identity ? {} : { values: w.matrix }),
  };
}

/** The model of a computed spec. Shares the result's arrays: nothing is copied. */
export function attentionData(spec: Spec, result: AttentionResult = computeAttention(spec)): AttentionData {
  const matrices: WeightData[] = [];
  spec.heads.forEach((h, head) => {
    for (const role of HEAD_ROLES) matrices.push(weight(role, head, h[role]));
  });
  if (spec.wo) matrices.push(weight('wo', undefined, spec.wo));
  const q = spec.views.quadrant;
  const axis = (a: NonNullable<typeof q>['x']): QuadrantAxisData => ({
    label: a.label, direction: Array.from(a.direction), ...(a.ends ? { ends: [a.ends[0], a.ends[1]] as const } : {}),
  });
  const training = spec.train ? trainingJson(spec) : undefined;
  return {
    ...(spec.title !== undefined ? { title: spec.title } : {}),
    features: [...spec.features],
    dModel: spec.dModel,
    scale: scaleName(spec),
    mask: spec.mask,
    inputs: result.inputs.map((input, i) => {
      const masked = input.heads[0]?.masked ?? buildMask(spec, spec.inputs[i]);
      return {
        name: input.name,
        tokens: [...input.tokens],
        embeddings: input.x,
        masked,
        heads: input.heads.map((h): HeadData => ({
          name: h.name, dk: h.dk, dv: h.dv, divisor: h.divisor,
          q: h.q, k: h.k, v: h.v, scores: h.scores, masked: h.masked, weights: h.weights, output: h.output,
          ...(h.valueNorms && h.norms ? { valueNorms: h.valueNorms, norms: h.norms } : {}),
        })),
        concat: input.concat,
        output: input.output,
      };
    }),
    matrices,
    views: q ? { quadrant: { x: axis(q.x), y: axis(q.y), ...(q.quadrants ? { quadrants: [...q.quadrants] as [string, string, string, string] } : {}) } } : {},
    parameters: result.parameters,
    warnings: [...result.warnings],
    ...(training ? { training } : {}),
  };
}

// ---- accessors ----

/** Whether query i may not see key j. */
export function isMasked(head: HeadData, i: number, j: number): boolean {
  return head.masked[i * head.scores.cols + j] === 1;
}

/** scores ÷ divisor, or null where the mask hides the key (the core's -Infinity). */
export function scaledAt(head: HeadData, i: number, j: number): number | null {
  return isMasked(head, i, j) ? null : get(head.scores, i, j) / head.divisor;
}

/** One row of the scaled scores, masked entries as null. */
export function scaledRow(head: HeadData, i: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let j = 0; j < head.scores.cols; j++) out.push(scaledAt(head, i, j));
  return out;
}

/**
 * Query i's row of attention weights, made from q_i and K alone (n · d_k multiply-adds) when the
 * head's n × n weights were not needed yet: the same sums in the same order as the core's Q·Kᵀ and
 * the core's own row softmax (softmaxInto), so the same bits (hovers on the host read one row, not every head).
 */
export function weightsRowOf(head: HeadData, i: number): Float64Array {
  const n = head.k.rows, dk = head.k.cols;
  const q = head.q.data, k = head.k.data, masked = head.masked;
  const scores = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    if (masked[i * n + j]) continue;
    let dot = 0;
    for (let t = 0; t < dk; t++) dot += q[i * dk + t] * k[j * dk + t];
    scores[j] = dot;
  }
  const out = new Float64Array(n);
  softmaxInto(scores, 0, n, out, 0, head.divisor, masked, i * n);
  return out;
}

/** A weight matrix's entry; an identity answers 1 on its diagonal. */
export function weightAt(w: WeightData, i: number, j: number): number {
  if (w.values) return get(w.values, i, j);
  return i === j ? 1 : 0;
}

/** A weight matrix's row, made for an identity (one row, not the whole matrix). */
export function weightRow(w: WeightData, i: number): Float64Array {
  if (w.values) return row(w.values, i);
  const out = new Float64Array(w.cols);
  if (i >= 0 && i < w.cols) out[i] = 1;
  return out;
}

/** A weight matrix's column t (what one output dimension takes from each input dimension). */
export function weightColumn(w: WeightData, t: number): Float64Array {
  const out = new Float64Array(w.rows);
  for (let i = 0; i < w.rows; i++) out[i] = weightAt(w, i, t);
  return out;
}

/** Column t of a matrix (the t-th value dimension over all keys, for instance). */
export function column(m: Matrix, t: number): Float64Array {
  const out = new Float64Array(m.rows);
  for (let i = 0; i < m.rows; i++) out[i] = m.data[i * m.cols + t];
  return out;
}

