// The plain-JSON form of a computed spec: what `attn compute --json` prints and what the
// host posts to the webview. Matrices are arrays of rows; masked entries of "scaled" are null.
import { toRows, type Matrix } from './matrix.js';
import type { AttentionResult, ComputeWarning } from './attention.js';
import type { ParameterCount } from './parameters.js';
import type { Spec } from './spec.js';
import { trainingJson, type TrainingJson } from './train/frames.js';

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

/** Masked entries hold -Infinity in the core; JSON has no infinities, so they become null. (The core refuses any other non-finite number before this.) */
function scaledRows(m: Matrix): (number | null)[][] {
  return toRows(m).map((r) => r.map((v) => (Number.isFinite(v) ? v : null)));
}

function scaleName(spec: Spec): string {
  return spec.scale.kind === 'number' ? String(spec.scale.value) : spec.scale.kind;
}

export function toJson(spec: Spec, result: AttentionResult): AttentionJson {
  const matrices: MatrixInfo[] = [];
  spec.heads.forEach((h, head) => {
    for (const role of ['wq', 'wk', 'wv'] as const) {
      const w = h[role];
      matrices.push({ role, head, rows: w.matrix.rows, cols: w.matrix.cols, identity: w.identity, values: toRows(w.matrix) });
    }
  });
  if (spec.wo) {
    matrices.push({ role: 'wo', rows: spec.wo.matrix.rows, cols: spec.wo.matrix.cols, identity: spec.wo.identity, values: toRows(spec.wo.matrix) });
  }
  const q = spec.views.quadrant;
  const axis = (a: NonNullable<typeof q>['x']) => ({ label: a.label, direction: Array.from(a.direction), ...(a.ends ? { ends: [...a.ends] as [string, string] } : {}) });
  return {
    ...(spec.title !== undefined ? { title: spec.title } : {}),
    features: [...spec.features],
    dModel: spec.dModel,
    scale: scaleName(spec),
    mask: spec.mask,
    inputs: result.inputs.map((input) => ({
      name: input.name,
      tokens: [...input.tokens],
      embeddings: toRows(input.x),
      heads: input.heads.map((h) => ({
        name: h.name, dk: h.dk, dv: h.dv, divisor: h.divisor,
        q: toRows(h.q), k: toRows(h.k), v: toRows(h.v),
        scores: toRows(h.scores), scaled: scaledRows(h.scaled),
        weights: toRows(h.weights), output: toRows(h.output),
      })),
      concat: toRows(input.concat),
      output: toRows(input.output),
    })),
    matrices,
    views: q ? { quadrant: { x: axis(q.x), y: axis(q.y), ...(q.quadrants ? { quadrants: [...q.quadrants] as [string, string, string, string] } : {}) } } : {},
    parameters: result.parameters,
    warnings: [...result.warnings],
    ...(spec.train ? { training: trainingJson(spec) } : {}),
  };
}
