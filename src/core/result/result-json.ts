// The plain-JSON form of a computed spec, and nothing else: what `attn compute --json` prints (and
// the readable report of `attn compute` tabulates), made from the result model (attention-data.ts).
// It is an output format for people and scripts, so it is written out here, field by field, rather
// than derived from the model's types: a change to the model does not silently change it. Matrices
// are arrays of rows; masked entries of "scaled" are null. No panel, hover or worker reads it: they
// read the model, and the model crosses threads in its own serialisation (wire.ts).
import { toRows } from '../linalg/matrix.js';
import { attentionData, scaledRow, weightRow, type AttentionData, type HeadData, type QuadrantAxisData } from './attention-data.js';
import type { AttentionResult, ComputeWarning } from '../attention/attention.js';
import type { ParameterCount } from '../attention/parameters.js';
import type { Spec } from '../spec/spec.js';
import type { TrainingJson } from '../train/frames.js';

export type Rows = number[][];

export interface HeadJson {
  name: string;
  dk: number;
  dv: number;
  /** What the scores were divided by (√d_k, 1 or the spec's number). */
  divisor: number;
  q: Rows;
  k: Rows;
  v: Rows;
  scores: Rows;
  scaled: (number | null)[][];
  weights: Rows;
  output: Rows;
  /** ‖v_j W_O^h‖₂ per key j, only when the spec has W_O: value-weighted attention is weights[i][j] times it (not printed twice). */
  valueNorms?: number[];
}

export interface InputJson {
  name: string;
  tokens: string[];
  /** Each token's embedding (n × d_model). */
  embeddings: Rows;
  heads: HeadJson[];
  concat: Rows;
  output: Rows;
}

export interface MatrixInfo {
  /** 'wq' | 'wk' | 'wv' per head, or 'wo'. */
  role: 'wq' | 'wk' | 'wv' | 'wo';
  head?: number;
  rows: number;
  cols: number;
  identity: boolean;
  /** The matrix itself; for identity, the explicit identity of size d_model. */
  values: Rows;
}

export interface QuadrantJson {
  x: { label: string; direction: number[]; ends?: [string, string] };
  y: { label: string; direction: number[]; ends?: [string, string] };
  quadrants?: [string, string, string, string];
}

export interface AttentionJson {
  title?: string;
  features: string[];
  dModel: number;
  scale: string;
  mask: string;
  inputs: InputJson[];
  /** Every weight matrix of the spec, for the projection diagram. */
  matrices: MatrixInfo[];
  views: { quadrant?: QuadrantJson };
  parameters: ParameterCount;
  warnings: ComputeWarning[];
  /** The run of the spec's "train" section, for the Training view. */
  training?: TrainingJson;
}

/** The rows of the scaled scores; masked entries are null, since JSON has no -Infinity. */
function scaledRows(head: HeadData): (number | null)[][] {
  return Array.from({ length: head.scores.rows }, (_, i) => scaledRow(head, i));
}

/** The arrays-of-rows form of the model: what `attn compute --json` prints. */
export function dataToJson(data: AttentionData): AttentionJson {
  const q = data.views.quadrant;
  const axis = (a: QuadrantAxisData) => ({ label: a.label, direction: [...a.direction], ...(a.ends ? { ends: [a.ends[0], a.ends[1]] as [string, string] } : {}) });
  return {
    ...(data.title !== undefined ? { title: data.title } : {}),
    features: [...data.features],
    dModel: data.dModel,
    scale: data.scale,
    mask: data.mask,
    inputs: data.inputs.map((input) => ({
      name: input.name,
      tokens: [...input.tokens],
      embeddings: toRows(input.embeddings),
      heads: input.heads.map((h) => ({
        name: h.name, dk: h.dk, dv: h.dv, divisor: h.divisor,
        q: toRows(h.q), k: toRows(h.k), v: toRows(h.v),
        scores: toRows(h.scores), scaled: scaledRows(h),
        weights: toRows(h.weights), output: toRows(h.output),
        ...(h.valueNorms ? { valueNorms: Array.from(h.valueNorms.data) } : {}),
      })),
      concat: toRows(input.concat),
      output: toRows(input.output),
    })),
    matrices: data.matrices.map((m) => ({
      role: m.role, ...(m.head !== undefined ? { head: m.head } : {}), rows: m.rows, cols: m.cols, identity: m.identity,
      values: Array.from({ length: m.rows }, (_, i) => Array.from(weightRow(m, i))),
    })),
    views: q ? { quadrant: { x: axis(q.x), y: axis(q.y), ...(q.quadrants ? { quadrants: [...q.quadrants] as [string, string, string, string] } : {}) } } : {},
    parameters: data.parameters,
    warnings: [...data.warnings],
    ...(data.training ? { training: data.training } : {}),
  };
}

/** The JSON of a spec computed by the caller (the benchmarks time it apart from the compute). */
export function toJson(spec: Spec, result: AttentionResult): AttentionJson {
  return dataToJson(attentionData(spec, result));
}
