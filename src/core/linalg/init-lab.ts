// The initialisation lab (the third seed: Var(W x) = Var(W)·Var(x), so Var(W) = 1/d_in keeps the
// signal steady). Three experiments, each from a seed so every picture and test is reproducible:
// 1. layerStack: push random inputs through L random d × d layers (linear, or ReLU after each) drawn
//    with a variance rule, and measure the variance layer by layer, beside what theory predicts.
// 2. weightSpectrum: the singular values of one random W, and the Marchenko–Pastur edges they fill.
// 3. scoreScaling: Var(q · k) for random unit-variance q and k grows as d_k, so without ÷ √d_k the
//    softmax saturates (its largest weight tends to 1); with it, Var = 1 at every d_k.
// Row-vector convention: h_l = x_{l−1} · W_l. Plain typed results, no DOM.
import { Matrix as MlMatrix } from 'ml-matrix';
import { svd } from './svd.js';
import { matmul, zeros, type Matrix } from './matrix.js';
import { createRandom, fillGaussian, type Random } from './random.js';
import { initVariance } from '../spec/read/init.js';
import { softmaxRow } from '../attention/softmax.js';
import type { InitRule } from '../spec/spec.js';

/** A named rule or a fixed variance. */
export type VarianceRule = InitRule | { readonly variance: number };
export type Activation = 'linear' | 'relu';

/** Multiply-adds one experiment may spend (a few tenths of a second): past this it is refused, before any work. */
export const MAX_LAB_WORK = 3e8;
/** Past these the variance is reported as blown up or died out, and the layers after it are not computed. */
const TOO_LARGE = 1e200, TOO_SMALL = 1e-200;

export function ruleVariance(rule: VarianceRule, dIn: number, dOut: number): number {
  return typeof rule === 'string' ? initVariance(rule, dIn, dOut) : rule.variance;
}

function checkCount(value: number, what: string, max: number): void {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) throw new RangeError(`${what} must be a whole number from 1 to ${max}, got ${value}`);
}

function checkRule(rule: VarianceRule): void {
  if (typeof rule !== 'string' && !(Number.isFinite(rule.variance) && rule.variance >= 0)) throw new RangeError(`a variance must be finite and ≥ 0, got ${rule.variance}`);
}

function gaussianMatrix(rows: number, cols: number, random: Random, variance: number): Matrix {
  const m = zeros(rows, cols);
  fillGaussian(m.data, random, variance);
  return m;
}

export interface LayerStackOptions {
  readonly rule: VarianceRule;
  /** d: every layer is d × d. */
  readonly width: number;
  /** L. */
  readonly layers: number;
  readonly activation: Activation;
  readonly seed: number;
  /** Random inputs pushed through together (rows of x₀); default 64. */
  readonly samples?: number;
}

export interface LayerStack {
  readonly weightVariance: number;
  /**
   * Entry 0: the input's variance (mean of x₀², about 1); entry l: the variance of layer l's
   * pre-activation h_l = x_{l−1}·W_l, as the mean of h_l² over samples and units (its mean is 0 by
   * symmetry). Shorter than L + 1 when it blew up or died out (see `stopped`): nothing infinite is kept.
   */
  readonly variance: readonly number[];
  /** Theory: 1, then linear (d·v)^l; ReLU d·v·(d·v/2)^(l−1) (ReLU keeps half of E[h²]). As long as `variance`. */
  readonly expected: readonly number[];
  readonly stopped?: { readonly layer: number; readonly why: 'overflow' | 'underflow' };
}

export function layerStackWork(o: Pick<LayerStackOptions, 'width' | 'layers' | 'samples'>): number {
  return o.layers * (o.samples ?? 64) * o.width * o.width + o.layers * o.width * o.width;
}

/** The inputs and weights layerStack uses for these options: x₀ first, then W₁ … W_L, from one stream. */
export function drawLayerStack(o: LayerStackOptions): { x0: Matrix; weights: Matrix[]; weightVariance: number } {
  const samples = o.samples ?? 64;
  checkCount(o.width, 'the width', 4096);
  checkCount(o.layers, 'the number of layers', 1000);
  checkCount(samples, 'the number of samples', 4096);
  checkRule(o.rule);
  const work = layerStackWork(o);
  if (work > MAX_LAB_WORK) throw new RangeError(`${o.layers} layers of ${o.width} × ${o.width} on ${samples} samples need ${(work / 1e6).toFixed(0)} million multiply-adds, over the ${MAX_LAB_WORK / 1e6} million limit`);
  const random = createRandom(o.seed);
  const v = ruleVariance(o.rule, o.width, o.width);
  const x0 = gaussianMatrix(samples, o.width, random, 1);
  const weights = Array.from({ length: o.layers }, () => gaussianMatrix(o.width, o.width, random, v));
  return { x0, weights, weightVariance: v };
}

const meanSquare = (m: Matrix) => {
  let s = 0;
  for (const v of m.data) s += v * v;
  return s / m.data.length;
};

/** The measured variances of given inputs through given layers (the deterministic half of layerStack). */
export function layerVariances(x0: Matrix, weights: readonly Matrix[], activation: Activation): Pick<LayerStack, 'variance' | 'stopped'> {
  const variance = [meanSquare(x0)];
  let x = x0;
  for (let l = 0; l < weights.length; l++) {
    const h = matmul(x, weights[l]);
    const v = meanSquare(h);
    if (!(v <= TOO_LARGE)) return { variance, stopped: { layer: l + 1, why: 'overflow' } };
    if (v < TOO_SMALL) return { variance, stopped: { layer: l + 1, why: 'underflow' } };
    variance.push(v);
    if (activation === 'relu') for (let i = 0; i < h.data.length; i++) if (h.data[i] < 0) h.data[i] = 0;
    x = h;
  }
  return { variance };
}

export function layerStack(o: LayerStackOptions): LayerStack {
  const { x0, weights, weightVariance } = drawLayerStack(o);
  const measured = layerVariances(x0, weights, o.activation);
  const gain = o.width * weightVariance;
  const expected = measured.variance.map((_, l) => (l === 0 ? 1 : o.activation === 'linear' ? gain ** l : gain * (gain / 2) ** (l - 1)));
  return { weightVariance, ...measured, expected };
}

export interface WeightSpectrum {
  readonly rows: number;
  readonly cols: number;
  readonly variance: number;
  /** Descending, min(rows, cols) of them. */
  readonly singularValues: Float64Array;
  /**
   * Where random theory (Marchenko–Pastur) puts them for large shapes: √v·(√max(m, n) ± √min(m, n)).
   * A square W spreads from about 0 to 2√(d·v): its smallest directions are nearly lost.
   */
  readonly edges: readonly [number, number];
}

export function weightSpectrumWork(rows: number, cols: number): number {
  return 10 * rows * cols * Math.min(rows, cols);
}

/** The singular values of one random rows × cols W drawn with the rule (d_in = rows, d_out = cols). */
export function weightSpectrum(rule: VarianceRule, rows: number, cols: number, seed: number): WeightSpectrum {
  checkCount(rows, 'the rows', 4096);
  checkCount(cols, 'the columns', 4096);
  checkRule(rule);
  const work = weightSpectrumWork(rows, cols);
  if (work > MAX_LAB_WORK * 10) throw new RangeError(`the singular values of a ${rows} × ${cols} matrix need about ${(work / 1e9).toFixed(1)} billion multiply-adds, over the ${MAX_LAB_WORK * 10 / 1e9} billion limit`);
  const v = ruleVariance(rule, rows, cols);
  const w = gaussianMatrix(rows, cols, createRandom(seed), v);
  const ml = new MlMatrix(Array.from({ length: rows }, (_, i) => Array.from(w.data.subarray(i * cols, (i + 1) * cols))));
  const s = svd(ml).diagonal;
  const singularValues = Float64Array.from(s.map((x) => Math.max(0, x)).sort((a, b) => b - a).slice(0, Math.min(rows, cols)));
  const big = Math.sqrt(Math.max(rows, cols)), small = Math.sqrt(Math.min(rows, cols));
  return { rows, cols, variance: v, singularValues, edges: [Math.sqrt(v) * (big - small), Math.sqrt(v) * (big + small)] };
}

export interface ScoreScalingOptions {
  /** The d_k values to try, e.g. [1, 4, 16, 64, 256]. */
  readonly dks: readonly number[];
  /** Keys each query is scored against (the softmax's length); default 16. */
  readonly tokens?: number;
  /** Queries drawn per d_k; default 1,000. */
  readonly samples?: number;
  readonly seed: number;
}

export interface ScoreScalingRow {
  readonly dk: number;
  /** Var(q · k) over all query–key pairs: d_k in theory. */
  readonly dotVariance: number;
  /** Var(q · k / √d_k): 1 in theory. */
  readonly scaledVariance: number;
  /** The mean over queries of the largest softmax weight, without and with ÷ √d_k (1/tokens is uniform, 1 is one-hot). */
  readonly maxWeight: number;
  readonly maxWeightScaled: number;
}

export function scoreScalingWork(o: ScoreScalingOptions): number {
  let work = 0;
  for (const dk of o.dks) work += (o.samples ?? 1000) * (o.tokens ?? 16) * (dk + 4);
  return work;
}

/**
 * The deterministic half: queries (samples × d_k) each scored against its own `tokens` keys (rows
 * s·tokens … s·tokens + tokens − 1 of keys). Variances are about 0 (the mean of q · k is 0), as
 * the mean of squares over all pairs.
 */
export function scoreScalingFrom(queries: Matrix, keys: Matrix, tokens: number): ScoreScalingRow {
  const dk = queries.cols, samples = queries.rows;
  const root = Math.sqrt(dk);
  const dots = new Float64Array(tokens), scaled = new Float64Array(tokens), weights = new Float64Array(tokens);
  let sq = 0, maxSum = 0, maxScaledSum = 0;
  for (let s = 0; s < samples; s++) {
    for (let j = 0; j < tokens; j++) {
      let dot = 0;
      const qo = s * dk, ko = (s * tokens + j) * dk;
      for (let t = 0; t < dk; t++) dot += queries.data[qo + t] * keys.data[ko + t];
      dots[j] = dot;
      scaled[j] = dot / root;
      sq += dot * dot;
    }
    softmaxRow(dots, weights);
    let m = 0;
    for (const w of weights) if (w > m) m = w;
    maxSum += m;
    softmaxRow(scaled, weights);
    m = 0;
    for (const w of weights) if (w > m) m = w;
    maxScaledSum += m;
  }
  const pairs = samples * tokens;
  return { dk, dotVariance: sq / pairs, scaledVariance: sq / pairs / dk, maxWeight: maxSum / samples, maxWeightScaled: maxScaledSum / samples };
}

/** The random queries and keys for one d_k: standard normal entries, as after a LeCun projection of unit-variance inputs. */
export function drawScores(dk: number, tokens: number, samples: number, random: Random): { queries: Matrix; keys: Matrix } {
  return { queries: gaussianMatrix(samples, dk, random, 1), keys: gaussianMatrix(samples * tokens, dk, random, 1) };
}

export function scoreScaling(o: ScoreScalingOptions): ScoreScalingRow[] {
  const tokens = o.tokens ?? 16, samples = o.samples ?? 1000;
  checkCount(tokens, 'the number of tokens', 4096);
  checkCount(samples, 'the number of samples', 100_000);
  if (o.dks.length > 64) throw new RangeError(`at most 64 values of d_k, got ${o.dks.length}`);
  for (const dk of o.dks) checkCount(dk, 'd_k', 65_536);
  const work = scoreScalingWork(o);
  if (work > MAX_LAB_WORK) throw new RangeError(`these d_k need ${(work / 1e6).toFixed(0)} million multiply-adds, over the ${MAX_LAB_WORK / 1e6} million limit: use fewer samples`);
  const random = createRandom(o.seed);
  return o.dks.map((dk) => {
    const { queries, keys } = drawScores(dk, tokens, samples, random);
    return scoreScalingFrom(queries, keys, tokens);
  });
}

export interface RuleComparison {
  readonly label: string;
  readonly rule: VarianceRule;
  readonly stack: LayerStack;
}

/**
 * The lab's main picture: the same inputs (one seed) through stacks drawn with LeCun, Xavier,
 * Kaiming and, if given, a fixed variance, so the curves differ only by the rule. On square
 * layers Xavier's 2/(d + d) equals LeCun's 1/d: its curve lies on LeCun's, which is the lesson.
 */
export function compareRules(o: Omit<LayerStackOptions, 'rule'> & { readonly variance?: number }): RuleComparison[] {
  const rules: { label: string; rule: VarianceRule }[] = [
    { label: 'LeCun 1/d_in', rule: 'lecun' },
    { label: 'Xavier 2/(d_in + d_out)', rule: 'xavier' },
    { label: 'Kaiming 2/d_in', rule: 'kaiming' },
    ...(o.variance !== undefined ? [{ label: `Var(W) = ${o.variance}`, rule: { variance: o.variance } }] : []),
  ];
  return rules.map(({ label, rule }) => ({ label, rule, stack: layerStack({ ...o, rule }) }));
}
