// The numbers the Spectrum view draws for one head, computed in the core so the view only draws:
// for W_Q, W_K, W_V, the head's rows of W_O, the QK circuit W_Q·W_Kᵀ and the OV circuit W_V·W_O^h,
// their singular values with condition number, effective and stable rank; the eigenvalues of the
// square ones (for the complex plane); and two 2-D pictures: the 2 × 2 restriction to two chosen
// features, and the plane of the two strongest singular directions.
// The circuits are d_model × d_model but of rank ≤ d_k (or d_v): their non-zero eigenvalues are
// those of the small product taken the other way round (eig(A·B) = eig(B·A) plus zeros), so
// W_Kᵀ·W_Q (d_k × d_k) and W_O^h·W_V (d_v × d_v) are decomposed instead of d_model² matrices.
import type { Matrix } from './matrix.js';
import { matmul, transpose } from './matrix.js';
import type { Spec } from '../spec/spec.js';
import { HEAD_ROLES, ROLE_SYMBOL } from '../vocabulary.js';
import { eigenvalues, headDimensions, qkSingularValues, singularValues } from './analyze.js';
import { conditionNumber, effectiveRank, planePicture, stableRank, topTwo, type PlanePicture, type TopTwo, type Vec2 } from './spectrum.js';

export type SpectrumMatrixName = 'wq' | 'wk' | 'wv' | 'wo' | 'qk' | 'ov';

export interface MatrixSpectrum {
  readonly name: SpectrumMatrixName;
  /** As the seeds write it: W_Q, W_Q·W_Kᵀ, W_V·W_O^h... */
  readonly label: string;
  readonly rows: number;
  readonly cols: number;
  /** Descending; for the circuits, the first min(d_model, d_k or d_v) (the rest are 0). */
  readonly singularValues: Float64Array;
  readonly conditionNumber: number | null;
  readonly effectiveRank: number;
  readonly stableRank: number;
  /** Square ones only, [re, im], largest in size first; for a circuit of rank r < d_model, r values plus `zeroEigenvalues` zeros. */
  readonly eigenvalues: readonly Vec2[] | null;
  readonly zeroEigenvalues: number;
  /** The OV circuit's trace / Σ|λ|: 1 copies, 0 rotates, −1 negates. */
  readonly copyingScore?: number;
  /** The 2 × 2 block from the two chosen features (rows) to the same two outputs, or the first two; null when a side has fewer than 2. */
  readonly restricted: { readonly rows: Vec2; readonly cols: Vec2; readonly picture: PlanePicture } | null;
  /** The plane of the two strongest singular directions; null for a circuit too large to form (d_model past 256). */
  readonly strongest: { readonly directions: TopTwo; readonly picture: PlanePicture } | null;
}

/** Past this d_model the circuits (d_model × d_model) are not formed for their top-two picture. */
export const MAX_FORMED_CIRCUIT = 256;

const { wq: WQ, wk: WK, wv: WV, wo: WO } = ROLE_SYMBOL;
const LABEL: Record<SpectrumMatrixName, string> = { wq: WQ, wk: WK, wv: WV, wo: `${WO}^h`, qk: `${WQ}·${WK}ᵀ`, ov: `${WV}·${WO}^h` };

interface Source {
  readonly rows: number;
  readonly cols: number;
  /** The matrix itself, when it is formed (always for W's; circuits up to d_model 256). */
  readonly matrix?: Matrix;
  /** Entry (i, j), for the restriction picture without forming the matrix. */
  readonly at: (i: number, j: number) => number;
}

function describe(name: SpectrumMatrixName, src: Source, sv: number[], eig: { values: Vec2[]; zeros: number } | null, features: Vec2, extra: { copyingScore?: number } = {}): MatrixSpectrum {
  const { rows, cols } = src;
  let restricted: MatrixSpectrum['restricted'] = null;
  if (rows >= 2 && cols >= 2) {
    const r: Vec2 = features[0] < rows && features[1] < rows && features[0] !== features[1] ? features : [0, 1];
    // A square matrix maps the two features to themselves (so its eigen-directions mean something); others to their first two outputs.
    const c: Vec2 = rows === cols ? r : [0, 1];
    restricted = { rows: r, cols: c, picture: planePicture([[src.at(r[0], c[0]), src.at(r[0], c[1])], [src.at(r[1], c[0]), src.at(r[1], c[1])]]) };
  }
  const strongest = src.matrix ? (() => { const t = topTwo(src.matrix!); return { directions: t, picture: planePicture(t.matrix) }; })() : null;
  return {
    name, label: LABEL[name], rows, cols,
    singularValues: Float64Array.from(sv),
    conditionNumber: conditionNumber(sv, rows, cols),
    effectiveRank: effectiveRank(sv),
    stableRank: stableRank(sv),
    eigenvalues: eig?.values ?? null,
    zeroEigenvalues: eig?.zeros ?? 0,
    ...extra,
    restricted,
    strongest,
  };
}

const whole = (m: Matrix): Source => ({ rows: m.rows, cols: m.cols, matrix: m, at: (i, j) => m.data[i * m.cols + j] });

/**
 * A circuit a·bᵀ (d × d, of rank ≤ k) from a and b (both d × k): singular values from QR factors,
 * eigenvalues from bᵀ·a (k × k; eig(a·bᵀ) = eig(bᵀ·a) plus d − k zeros), entries as row dots.
 */
function circuit(name: 'qk' | 'ov', a: Matrix, b: Matrix, features: Vec2, small: boolean, extra: (eig: Vec2[]) => { copyingScore?: number } = () => ({})): MatrixSpectrum {
  const d = a.rows, k = a.cols;
  const eig = k >= d ? { values: eigenvalues(matmul(a, transpose(b))), zeros: 0 } : { values: eigenvalues(matmul(transpose(b), a)), zeros: d - k };
  const at = (i: number, j: number) => {
    let s = 0;
    for (let t = 0; t < k; t++) s += a.data[i * k + t] * b.data[j * k + t];
    return s;
  };
  const src: Source = { rows: d, cols: d, at, ...(small ? { matrix: matmul(a, transpose(b)) } : {}) };
  return describe(name, src, qkSingularValues(a, b), eig, features, extra(eig.values));
}

/** Multiply-adds one head's Spectrum numbers may cost before the view refuses (about a second). */
export const MAX_SPECTRUM_WORK = 2e9;

const svdWork = (m: number, n: number) => 10 * m * n * Math.min(m, n);

/** headSpectrum's multiply-adds, from the shapes alone: two SVDs per W (values, then vectors), the circuits' small products. */
export function headSpectrumWork(spec: Spec, head: number): number {
  const h = spec.heads[head];
  if (!h) return 0;
  const d = spec.dModel, dk = h.wq.matrix.cols, dv = h.wv.matrix.cols;
  let work = 2 * (2 * svdWork(d, dk) + svdWork(d, dv)) + 4 * d * dk * dk + 20 * dk ** 3;
  if (d <= MAX_FORMED_CIRCUIT) work += 2 * (d * d * dk + svdWork(d, d));
  if (spec.wo) work += 2 * svdWork(dv, spec.wo.matrix.cols) + 4 * d * dv * dv + 20 * dv ** 3 + (d <= MAX_FORMED_CIRCUIT ? 2 * (d * d * dv + svdWork(d, d)) : 0);
  return work;
}

/** Why one head's Spectrum numbers are too costly to compute, or undefined. Estimated before any work. */
export function spectrumOverLimit(spec: Spec, head: number): string | undefined {
  const work = headSpectrumWork(spec, head);
  if (work <= MAX_SPECTRUM_WORK) return undefined;
  // Every term is an SVD or product of d_model by d_k or d_v: the larger side is what to make smaller.
  const dim = headDimensions(spec, spec.heads[head]);
  const cause = [dim.dk, dim.dv].reduce((a, b) => (b.size > a.size ? b : a), dim.d);
  const why = cause === dim.d ? '' : `, mostly for its ${cause.name}: use ${cause.fix}`;
  return `the spectrum of head ${head + 1} at d_model ${spec.dModel} needs about ${(work / 1e9).toFixed(0)} billion multiply-adds, over the ${MAX_SPECTRUM_WORK / 1e9} billion limit${why}`;
}

/**
 * The Spectrum view's numbers for one head. `features` picks the two features of the restriction
 * picture (default the first two). Costs: SVDs of d_model × d_k; d_model² matrices only up to d_model 256.
 * Throws (a RangeError with the message of spectrumOverLimit) past MAX_SPECTRUM_WORK: check that first.
 */
export function headSpectrum(spec: Spec, head: number, features: Vec2 = [0, 1]): MatrixSpectrum[] {
  const h = spec.heads[head];
  if (!h) throw new RangeError(`headSpectrum: no head ${head}`);
  const tooBig = spectrumOverLimit(spec, head);
  if (tooBig) throw new RangeError(tooBig);
  const d = spec.dModel;
  const small = d <= MAX_FORMED_CIRCUIT;
  const square = (m: Matrix) => (m.rows === m.cols ? { values: eigenvalues(m), zeros: 0 } : null);
  const out: MatrixSpectrum[] = HEAD_ROLES.map((name) => describe(name, whole(h[name].matrix), singularValues(h[name].matrix), square(h[name].matrix), features));
  out.push(circuit('qk', h.wq.matrix, h.wk.matrix, features, small));
  if (spec.wo) {
    const offset = spec.heads.slice(0, head).reduce((s, x) => s + x.wv.matrix.cols, 0);
    const dv = h.wv.matrix.cols, cols = spec.wo.matrix.cols;
    const woh: Matrix = { rows: dv, cols, data: spec.wo.matrix.data.slice(offset * cols, (offset + dv) * cols) };
    out.push(describe('wo', whole(woh), singularValues(woh), square(woh), features));
    if (cols === d) {
      out.push(circuit('ov', h.wv.matrix, transpose(woh), features, small, (eig) => {
        const total = eig.reduce((s, [re, im]) => s + Math.hypot(re, im), 0);
        const trace = eig.reduce((s, [re]) => s + re, 0);
        return { copyingScore: total > 0 ? trace / total : 0 };
      }));
    }
  }
  return out;
}
