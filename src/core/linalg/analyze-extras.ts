// The keys the linear-algebra lens adds to `attn analyze --json`, beside the contract's (which stay as they are):
// each singular-value list gains its condition number and effective rank, and each input gains
// the correlation, redundant feature pairs and variance explained of its embeddings X, and the
// same statistics for every head's Q, K, V and output and for the final output (from the core's
// own attention, so the numbers are those every view shows).
import { computeAttention, type HeadsHelper } from '../attention/attention.js';
import type { Spec } from '../spec/spec.js';
import { conditionNumber, effectiveRank } from './spectrum.js';
import { featureStats, featureStatsWork, squareRows, type FeatureStats } from './covariance.js';

export interface SpectrumJson {
  singularValues: number[];
  /** σ_max / σ_min of the values listed; null when singular (σ_min at or below numpy's rank tolerance). */
  conditionNumber: number | null;
  /** exp of the entropy of σ_i / Σσ. */
  effectiveRank: number;
}

export interface FeatureStatsJson {
  covariance: number[][];
  correlation: number[][];
  /** Feature pairs with |correlation| ≥ 0.9, strongest first (0-based feature indices). */
  redundantPairs: { a: number; b: number; correlation: number }[];
  /** The covariance's eigenvalues over their sum, largest first. */
  varianceExplained: number[];
}

export interface InputFeaturesJson {
  correlation: number[][] | null;
  redundantPairs: FeatureStatsJson['redundantPairs'];
  varianceExplained: number[] | null;
  heads: { name: string; q: FeatureStatsJson | null; k: FeatureStatsJson | null; v: FeatureStatsJson | null; output: FeatureStatsJson | null }[];
  output: FeatureStatsJson | null;
}

export function spectrumJson(singularValues: number[], rows: number, cols: number): SpectrumJson {
  return { singularValues, conditionNumber: conditionNumber(singularValues, rows, cols), effectiveRank: effectiveRank(singularValues) };
}

export function statsJson(s: FeatureStats | null): FeatureStatsJson | null {
  if (!s) return null;
  return {
    covariance: squareRows(s.covariance, s.d),
    correlation: squareRows(s.correlation, s.d),
    redundantPairs: s.redundant.map((p) => ({ ...p })),
    varianceExplained: Array.from(s.explained),
  };
}

/** Multiply-adds of inputFeatures, from the shapes. */
export function inputFeaturesWork(spec: Spec): number {
  let work = 0;
  const outWidth = spec.wo ? spec.wo.matrix.cols : spec.heads.reduce((s, h) => s + h.wv.matrix.cols, 0);
  for (const input of spec.inputs) {
    const n = input.tokens.length;
    work += featureStatsWork(n, spec.dModel) + featureStatsWork(n, outWidth);
    for (const h of spec.heads) work += 3 * featureStatsWork(n, h.wq.matrix.cols) + featureStatsWork(n, h.wv.matrix.cols) * 2;
  }
  return work;
}

/** The Covariance view's numbers: feature statistics of X, each head's Q, K, V and output, and the output, per input. */
export interface InputFeatureStats {
  readonly name: string;
  readonly x: FeatureStats | null;
  readonly heads: readonly { readonly name: string; readonly q: FeatureStats | null; readonly k: FeatureStats | null; readonly v: FeatureStats | null; readonly output: FeatureStats | null }[];
  /** After W_O, or the heads' outputs side by side without one. */
  readonly output: FeatureStats | null;
}

/** `helper`: a second thread for half the heads, where the caller has one (the CLI). */
export function inputFeatureStats(spec: Spec, helper?: HeadsHelper): InputFeatureStats[] {
  return computeAttention(spec, { helper }).inputs.map((input) => ({
    name: input.name,
    x: featureStats(input.x),
    heads: input.heads.map((h) => ({ name: h.name, q: featureStats(h.q), k: featureStats(h.k), v: featureStats(h.v), output: featureStats(h.output) })),
    output: featureStats(input.output),
  }));
}

export function inputFeatures(spec: Spec, helper?: HeadsHelper): InputFeaturesJson[] {
  return inputFeatureStats(spec, helper).map((input) => {
    const x = statsJson(input.x);
    return {
      correlation: x?.correlation ?? null,
      redundantPairs: x?.redundantPairs ?? [],
      varianceExplained: x?.varianceExplained ?? null,
      heads: input.heads.map((h) => ({ name: h.name, q: statsJson(h.q), k: statsJson(h.k), v: statsJson(h.v), output: statsJson(h.output) })),
      output: statsJson(input.output),
    };
  });
}
