// The linear algebra of a spec's heads (the third seed): singular values of W_Q, W_K, W_V and of the
// QK circuit W_Q·W_Kᵀ, the eigenvalues of the OV circuit W_V·W_O^h with its copying score, how much
// the heads' subspaces overlap, and the covariance of each input's embeddings. This is the
// `attn analyze --json` contract. SVD and the (non-symmetric) eigendecomposition come from ml-matrix,
// a maintained port of JAMA, rather than our own: they are the hard, well-trodden part.
import { EigenvalueDecomposition, Matrix as MlMatrix, QrDecomposition } from 'ml-matrix';
import { svd } from './svd.js';
import type { Matrix } from './matrix.js';
import { matmul, matmulTransposed, transpose } from './matrix.js';
import type { Spec } from '../spec/spec.js';
import type { HeadsHelper } from '../attention/attention.js';
import type { Problem } from '../json/problems.js';
import { HEAD_ROLES } from '../vocabulary.js';
import { featureStatsWork } from './covariance.js';
import { inputFeatures, spectrumJson, type InputFeaturesJson, type SpectrumJson } from './analyze-extras.js';

/** The contract's keys first; the keys after them (analyze-extras.ts) are additions, never changes. */
export interface AnalyzeJson {
  heads: {
    name: string;
    wq: SpectrumJson;
    wk: SpectrumJson;
    wv: SpectrumJson;
    /** conditionNumber and effectiveRank of the min(d_model, d_k) values listed. */
    qk: SpectrumJson;
    ov: { eigenvalues: [number, number][]; copyingScore: number } | null;
  }[];
  headOverlap: { wq: number[][]; wk: number[][]; wv: number[][] };
  inputs: ({ name: string; covariance: number[][] | null } & InputFeaturesJson)[];
}

const toMl = (m: Matrix) => new MlMatrix(Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols))));

/** Singular values, largest first: min(rows, cols) of them. */
export function singularValues(m: Matrix): number[] {
  if (m.rows === 0 || m.cols === 0) return [];
  return mlSingularValues(toMl(m));
}

function mlSingularValues(m: MlMatrix): number[] {
  const s = svd(m).diagonal;
  return s.map((v) => Math.max(0, v)).sort((a, b) => b - a).slice(0, Math.min(m.rows, m.columns));
}

/**
 * The first min(d_model, d_k) singular values of the QK circuit W_Q·W_Kᵀ (d_model × d_model). When
 * d_k < d_model the d_model² product is never formed: with thin QR factors W_Q = Q_a·R_a and
 * W_K = Q_b·R_b (orthonormal columns), W_Q·W_Kᵀ = Q_a·(R_a·R_bᵀ)·Q_bᵀ has the singular values of the
 * d_k × d_k matrix R_a·R_bᵀ. At 512 × 64 that is about 2·10⁷ multiply-adds instead of 10⁹.
 */
export function qkSingularValues(wq: Matrix, wk: Matrix): number[] {
  const d = wq.rows, dk = wq.cols;
  if (dk >= d) return singularValues(matmul(wq, transpose(wk))).slice(0, Math.min(d, dk));
  const ra = new QrDecomposition(toMl(wq)).upperTriangularMatrix;
  const rb = new QrDecomposition(toMl(wk)).upperTriangularMatrix;
  return mlSingularValues(ra.mmul(rb.transpose())).slice(0, Math.min(d, dk));
}

/** An ml-matrix as our row-major Matrix. */
const fromMl = (m: MlMatrix): Matrix => ({ rows: m.rows, cols: m.columns, data: Float64Array.from(m.to1DArray()) });

/**
 * An orthonormal basis of the column space, one basis vector per ROW (k × m.rows): the columns of U
 * whose singular value is above numpy's rank tolerance (σ_max · max(m, n) · ε). For a tall matrix
 * (d_model × d_k) U comes the way LAPACK gets it, through a thin QR first: m = Q·R, R = U_R·Σ·V_Rᵀ,
 * U = Q·U_R, so the SVD is of the small d_k × d_k R.
 */
function columnBasis(m: Matrix): Matrix {
  const tall = m.rows > m.cols;
  const qr = tall ? new QrDecomposition(toMl(m)) : undefined;
  const d = svd(qr ? qr.upperTriangularMatrix : toMl(m), { left: true });
  const s = d.diagonal;
  const tol = Math.max(0, s[0] ?? 0) * Math.max(m.rows, m.cols) * Number.EPSILON;
  const keep: number[] = [];
  s.forEach((v, k) => { if (v > tol) keep.push(k); });
  const u = d.leftSingularVectors;
  // Kept columns of U as rows: k × (rows of U).
  const keptT: Matrix = { rows: keep.length, cols: u.rows, data: new Float64Array(keep.length * u.rows) };
  keep.forEach((k, r) => { for (let i = 0; i < u.rows; i++) keptT.data[r * u.rows + i] = u.get(i, k); });
  if (!qr) return keptT;
  // (Q·U_kept)ᵀ = U_keptᵀ·Qᵀ: each basis row is U_kept's column dotted with Q's rows.
  return matmulTransposed(keptT, fromMl(qr.orthogonalMatrix));
}

/** From two bases (rows orthonormal): the cosines of the principal angles are the singular values of Ua·Ubᵀ. */
function basesOverlap(ua: Matrix, ub: Matrix): number {
  const r = Math.min(ua.rows, ub.rows);
  if (r === 0) return 0;
  const cos = svd(toMl(matmulTransposed(ua, ub))).diagonal;
  const top = cos.sort((x, y) => y - x).slice(0, r);
  return top.reduce((s, c) => s + Math.min(1, c) ** 2, 0) / r;
}

/** x · 2^e without overflowing the factor (2^1074 alone is Infinity): in two halves. */
const timesPow2 = (x: number, e: number) => x * 2 ** Math.trunc(e / 2) * 2 ** (e - Math.trunc(e / 2));

/**
 * Eigenvalues of a square matrix as [re, im], largest in size first (then by real, then imaginary part).
 * The matrix is scaled by a power of two (exact) so that its largest entry is about 1: on entries
 * of 1e-313 the QR iteration's test for a negligible entry (relative to the norm) underflowed and it
 * never ended. A matrix holding NaN or ±Infinity (a circuit that overflowed) has NaN eigenvalues,
 * which every caller refuses, rather than an endless iteration.
 */
export function eigenvalues(m: Matrix): [number, number][] {
  let top = 0;
  for (const v of m.data) { const a = Math.abs(v); if (!(a <= top)) top = a; }
  if (!Number.isFinite(top)) return Array.from({ length: m.rows }, (): [number, number] => [NaN, NaN]);
  const shift = top > 0 ? -Math.floor(Math.log2(top)) : 0;
  const scaled: Matrix = { rows: m.rows, cols: m.cols, data: m.data.map((v) => timesPow2(v, shift)) };
  const e = new EigenvalueDecomposition(toMl(scaled));
  const re = e.realEigenvalues, im = e.imaginaryEigenvalues;
  return re.map((r, k): [number, number] => [timesPow2(r, -shift), timesPow2(im[k], -shift)])
    .sort((x, y) => Math.hypot(y[0], y[1]) - Math.hypot(x[0], x[1]) || y[0] - x[0] || y[1] - x[1]);
}

/**
 * Eigenvalues of the OV circuit W_V·W_O^h (d_model × d_model, rank ≤ d_v). When d_v < d_model they
 * come from W_O^h·W_V (d_v × d_v): A·B and B·A have the same non-zero eigenvalues, and the other
 * d_model − d_v are exactly 0 (listed last, as the smallest). At d_model 512 and d_v 64 that is 10⁷
 * multiply-adds instead of 10⁹ per head, and numpy's eig of the full product agrees to 1e-8.
 */
export function ovEigenvalues(wv: Matrix, woh: Matrix): [number, number][] {
  const d = wv.rows, dv = wv.cols;
  if (dv >= d) return eigenvalues(matmul(wv, woh));
  return [...eigenvalues(matmul(woh, wv)), ...Array.from({ length: d - dv }, (): [number, number] => [0, 0])];
}

/** Sample covariance (divide by n − 1) of the rows of x, features as variables; null for fewer than 2 rows. */
export function covariance(x: Matrix): number[][] | null {
  const n = x.rows, d = x.cols;
  if (n < 2) return null;
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += x.data[i * d + j] / n;
  const c = Array.from({ length: d }, () => new Array<number>(d).fill(0));
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < d; a++) {
      const da = x.data[i * d + a] - mean[a];
      for (let b = a; b < d; b++) c[a][b] += (da * (x.data[i * d + b] - mean[b])) / (n - 1);
    }
  }
  for (let a = 0; a < d; a++) for (let b = 0; b < a; b++) c[a][b] = c[b][a];
  return c;
}

/** Rows [from, to) of m: the part of W_O that takes one head's output. */
function rowsOf(m: Matrix, from: number, to: number): Matrix {
  return { rows: to - from, cols: m.cols, data: m.data.slice(from * m.cols, to * m.cols) };
}

/**
 * Numbers all the inputs' covariances may hold (d_model² per input of 2 tokens or more): 4,194,304
 * is one 2,048-wide input or 64 at d_model 256, 32 MB of float64 and about 60 MB printed.
 */
export const MAX_COVARIANCE_NUMBERS = 4 * 1024 * 1024;

/** Numbers the covariances of the spec's inputs hold, from the shapes. */
export function covarianceNumbers(spec: Spec): number {
  return spec.inputs.reduce((s, input) => s + (input.tokens.length >= 2 ? spec.dModel ** 2 : 0), 0);
}

/** Multiply-adds the analysis may cost (an SVD or eigendecomposition is about 10·m·n·min(m, n)); past this it is refused. */
export const MAX_ANALYZE_WORK = 4e9;

const svdWork = (m: number, n: number) => 10 * m * n * Math.min(m, n);

/** A dimension of a spec, named as a message names it ('d_k 4096 of head "h"'), with its size. */
export interface Dimension { readonly name: string; readonly size: number; readonly fix: string }

/** Part of a cost, and the dimension that makes it large: of a term's two sides, the larger (it is linear in it, quadratic in the other, but the other is the one already small). */
export interface CostTerm { readonly work: number; readonly cause: Dimension }

const larger = (a: Dimension, b: Dimension) => (b.size > a.size ? b : a);

/**
 * Of the terms of a cost, the dimension behind the most work (terms with the same cause added up):
 * the one a message should name. d_model 300 with a d_k of 10⁶ is d_k's doing, not d_model's.
 */
export function dominantCause(terms: readonly CostTerm[]): Dimension | undefined {
  const byName = new Map<string, { cause: Dimension; work: number }>();
  for (const t of terms) {
    const b = byName.get(t.cause.name);
    if (b) b.work += t.work; else byName.set(t.cause.name, { cause: t.cause, work: t.work });
  }
  let best: { cause: Dimension; work: number } | undefined;
  for (const b of byName.values()) if (!best || b.work > best.work) best = b;
  return best?.cause;
}

/** The dimensions of one head as messages name them. */
export function headDimensions(spec: Spec, h: Spec['heads'][number]): { d: Dimension; dk: Dimension; dv: Dimension } {
  const name = JSON.stringify(h.name);
  return {
    d: { name: `d_model ${spec.dModel}`, size: spec.dModel, fix: 'a smaller d_model' },
    dk: { name: `d_k ${h.wq.matrix.cols} of head ${name}`, size: h.wq.matrix.cols, fix: `a smaller d_k (fewer columns of W_Q and W_K) in head ${name}` },
    dv: { name: `d_v ${h.wv.matrix.cols} of head ${name}`, size: h.wv.matrix.cols, fix: `a smaller d_v (fewer columns of W_V) in head ${name}` },
  };
}

/** One head's share of the analysis, term by term: its SVDs, its circuits, its overlap bases and its pairs with every head. */
function headTerms(spec: Spec, h: Spec['heads'][number]): CostTerm[] {
  const d = spec.dModel;
  const dk = h.wq.matrix.cols, dv = h.wv.matrix.cols;
  const dim = headDimensions(spec, h);
  const byK = larger(dim.d, dim.dk), byV = larger(dim.d, dim.dv);
  const terms: CostTerm[] = [
    { work: svdWork(d, dk) * 2, cause: byK }, { work: svdWork(d, dv), cause: byV },
    { work: dk >= d ? d * d * dk + svdWork(d, d) : 4 * d * dk * dk + svdWork(dk, dk), cause: byK }, // the QK circuit
  ];
  if (spec.wo) terms.push({ work: dv < d ? d * dv * dv + svdWork(dv, dv) : d * dv * d + svdWork(d, d), cause: byV }); // the OV circuit's eigenvalues
  terms.push({ work: svdWork(d, dk) * 2 * 2, cause: byK }, { work: svdWork(d, dv) * 2, cause: byV }); // column bases for the head overlap
  // Pairs of bases: a k_i × k_j product of d-long columns, then its SVD (k ≤ the heads' widths, at most d).
  const heads: Dimension = { name: `${spec.heads.length} heads`, size: spec.heads.length, fix: 'fewer heads' };
  for (const role of HEAD_ROLES) {
    for (const b of spec.heads) {
      const ka = Math.min(d, h[role].matrix.cols), kb = Math.min(d, b[role].matrix.cols);
      terms.push({ work: d * ka * kb + svdWork(ka, kb), cause: spec.heads.length > 1 ? heads : role === 'wv' ? byV : byK });
    }
  }
  return terms;
}

const sumOf = (terms: readonly CostTerm[]) => terms.reduce((s, t) => s + t.work, 0);

/** One head's share of the analysis. */
function headWork(spec: Spec, h: Spec['heads'][number]): number {
  return sumOf(headTerms(spec, h));
}

/** The analysis's multiply-adds term by term, from the shapes alone. */
export function analyzeTerms(spec: Spec): CostTerm[] {
  const d = spec.dModel;
  const terms: CostTerm[] = [];
  for (const h of spec.heads) terms.push(...headTerms(spec, h));
  const model: Dimension = { name: `d_model ${d}`, size: d, fix: 'a smaller d_model' };
  const outWidth = spec.wo ? spec.wo.matrix.cols : spec.heads.reduce((s, h) => s + h.wv.matrix.cols, 0);
  const output: Dimension = spec.heads.length === 1 && !spec.wo ? headDimensions(spec, spec.heads[0]).dv
    : { name: `output width ${outWidth}`, size: outWidth, fix: spec.wo ? 'fewer columns of W_O' : 'heads of a smaller d_v' };
  spec.inputs.forEach((input) => {
    const n = input.tokens.length;
    const tokens: Dimension = { name: `${n} tokens of input ${JSON.stringify(input.name)}`, size: n, fix: 'fewer tokens' };
    terms.push({ work: n * d * d, cause: larger(model, tokens) });
    // The feature statistics (inputFeaturesWork, term by term): of X, of the output, of each head's Q, K, V and output.
    terms.push({ work: featureStatsWork(n, d), cause: larger(model, tokens) }, { work: featureStatsWork(n, outWidth), cause: larger(output, tokens) });
    for (const h of spec.heads) {
      const dim = headDimensions(spec, h);
      terms.push({ work: 3 * featureStatsWork(n, h.wq.matrix.cols), cause: larger(dim.dk, tokens) }, { work: 2 * featureStatsWork(n, h.wv.matrix.cols), cause: larger(dim.dv, tokens) });
    }
  });
  return terms;
}

/** The analysis's multiply-adds, estimated from the shapes alone, before any work. */
export function analyzeWork(spec: Spec): number {
  return sumOf(analyzeTerms(spec));
}

/** Why the spec is too big to analyse, or undefined. Estimated from the shapes, before any work; it names the dimension behind most of the work. */
export function analyzeOverLimit(spec: Spec): string | undefined {
  const terms = analyzeTerms(spec);
  const work = sumOf(terms);
  if (work <= MAX_ANALYZE_WORK) {
    // The covariances are d_model² numbers per input, held and printed: a width the work allows
    // (2,261 features × 5 inputs) printed 413 MB in 36 s at 2.9 GB.
    const held = covarianceNumbers(spec);
    if (held > MAX_COVARIANCE_NUMBERS) {
      const inputs = spec.inputs.filter((i) => i.tokens.length >= 2).length;
      return `the covariances of ${inputs} input(s) at d_model ${spec.dModel} hold ${held.toLocaleString('en-US')} numbers (d_model² each), over the ${MAX_COVARIANCE_NUMBERS.toLocaleString('en-US')} limit: ` +
        `use a smaller d_model${inputs > 1 ? ' or fewer inputs' : ''}`;
    }
    return undefined;
  }
  const cause = dominantCause(terms);
  return `analysing ${spec.heads.length} head(s) at d_model ${spec.dModel} needs about ${(work / 1e9).toFixed(0)} billion multiply-adds, over the ${MAX_ANALYZE_WORK / 1e9} billion limit${costliestHead(spec)}, ` +
    `mostly for its ${cause?.name ?? `d_model ${spec.dModel}`}: use ${cause?.fix ?? 'a smaller d_model'}`;
}

/** ', of which head "h" (its shapes) takes N billion': the head to make smaller and the widths that make it costly. */
function costliestHead(spec: Spec): string {
  let best: { h: Spec['heads'][number]; work: number } | undefined;
  for (const h of spec.heads) {
    const work = headWork(spec, h);
    if (!best || work > best.work) best = { h, work };
  }
  if (!best) return '';
  const d = spec.dModel, dk = best.h.wq.matrix.cols, dv = best.h.wv.matrix.cols;
  const part = best.work >= 1e9 ? `${(best.work / 1e9).toFixed(best.work >= 1e10 ? 0 : 1)} billion` : `${(best.work / 1e6).toFixed(0)} million`;
  return `, of which head ${JSON.stringify(best.h.name)} (W_Q and W_K d_model ${d} × d_k ${dk}, W_V ${d} × d_v ${dv}) takes ${part}`;
}

/**
 * The same refusal as a positioned problem, for an editor: on the head that costs the most (the one
 * to make smaller), or on the spec's first character when the heads are the default identity head.
 */
export function analyzeLimitProblem(spec: Spec): Problem | undefined {
  const message = analyzeOverLimit(spec);
  if (!message) return undefined;
  let worst = 0, worstWork = -1;
  spec.heads.forEach((h, i) => {
    const w = headWork(spec, h);
    if (w > worstWork) { worst = i; worstWork = w; }
  });
  const span = spec.headsGiven ? spec.heads[worst].span : undefined;
  return { severity: 'error', path: span ? `heads[${worst}]` : '', span: span ?? { offset: 0, length: 1 }, message };
}

/**
 * The Heads view's matrices: heads × heads subspace overlap of W_Q, W_K and W_V (1 on the diagonal).
 * One basis per head and role (an SVD each), then one small SVD per pair.
 */
export function headOverlap(spec: Spec): AnalyzeJson['headOverlap'] {
  // The overlap is symmetric (the singular values of Ua·Ubᵀ are those of Ub·Uaᵀ): each pair once.
  const overlap = (role: 'wq' | 'wk' | 'wv') => {
    const bases = spec.heads.map((h) => columnBasis(h[role].matrix));
    const out = bases.map(() => new Array<number>(bases.length).fill(1));
    for (let i = 0; i < bases.length; i++) for (let j = i + 1; j < bases.length; j++) out[i][j] = out[j][i] = basesOverlap(bases[i], bases[j]);
    return out;
  };
  return { wq: overlap('wq'), wk: overlap('wk'), wv: overlap('wv') };
}

/** `helper`: a second thread for half the heads of the covariance's compute, where the caller has one. */
export function analyzeSpec(spec: Spec, helper?: HeadsHelper): AnalyzeJson {
  const d = spec.dModel;
  let offset = 0;
  const heads = spec.heads.map((h) => {
    const dv = h.wv.matrix.cols;
    let ov: AnalyzeJson['heads'][number]['ov'] = null;
    if (spec.wo && spec.wo.matrix.cols === spec.dModel) {
      const eig = ovEigenvalues(h.wv.matrix, rowsOf(spec.wo.matrix, offset, offset + dv));
      const total = eig.reduce((s, [re, im]) => s + Math.hypot(re, im), 0);
      const trace = eig.reduce((s, [re]) => s + re, 0);
      ov = { eigenvalues: eig, copyingScore: total > 0 ? trace / total : 0 };
    }
    offset += dv;
    return {
      name: h.name,
      wq: spectrumJson(singularValues(h.wq.matrix), d, h.wq.matrix.cols),
      wk: spectrumJson(singularValues(h.wk.matrix), d, h.wk.matrix.cols),
      wv: spectrumJson(singularValues(h.wv.matrix), d, dv),
      qk: spectrumJson(qkSingularValues(h.wq.matrix, h.wk.matrix), d, d),
      ov,
    };
  });
  const features = inputFeatures(spec, helper);
  return {
    heads,
    headOverlap: headOverlap(spec),
    inputs: spec.inputs.map((input, k) => {
      const x: Matrix = { rows: input.tokens.length, cols: spec.dModel, data: new Float64Array(input.tokens.length * spec.dModel) };
      input.tokens.forEach((t, i) => x.data.set(t.embedding, i * spec.dModel));
      return { name: input.name, covariance: covariance(x), ...features[k] };
    }),
  };
}
