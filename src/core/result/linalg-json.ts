// The numbers of the linear-algebra views (Spectrum, Heads, Covariance, Initialisation) as the
// views read them: plain JSON, a few kilobytes for a teaching spec. The types alone, so the result
// model (attention-data.ts) can carry them while linalg-data.ts, which makes them, reads the model.
import type { Activation } from '../linalg/init-lab.js';
import type { Vec2 } from '../linalg/spectrum.js';

export interface PictureJson {
  matrix: [[number, number], [number, number]];
  circle: number[];
  image: number[];
  singular: { sigma: number; input: Vec2; output: Vec2 }[];
  eigenvalues: Vec2[];
  eigenDirections: { lambda: number; direction: Vec2 }[];
  finite: boolean;
}

export interface SpectrumMatrixJson {
  name: string;
  label: string;
  rows: number;
  cols: number;
  singularValues: number[];
  conditionNumber: number | null;
  effectiveRank: number;
  stableRank: number;
  eigenvalues: Vec2[] | null;
  zeroEigenvalues: number;
  copyingScore?: number;
  /** The 2 × 2 block of two features; rows/cols are feature indices. */
  restricted: { rows: Vec2; cols: Vec2; picture: PictureJson } | null;
  strongest: PictureJson | null;
}

export interface FeatureSpaceJson {
  /** "X", "Q of head 1"... */
  label: string;
  n: number;
  d: number;
  /** d × d row-major, only up to MAX_CORRELATION_FEATURES features. */
  correlation: number[] | null;
  constant: boolean[];
  redundant: { a: number; b: number; correlation: number }[];
  /** Share of the variance along each principal component, largest first. */
  explained: number[];
  eigenvalues: number[];
}

export interface InitLabJson {
  width: number;
  layers: number;
  curves: { label: string; activation: Activation; variance: number[]; expected: number[]; weightVariance: number; stopped?: { layer: number; why: string } }[];
  spectra: { label: string; singularValues: number[]; edges: [number, number] }[];
  scores: { dk: number; dotVariance: number; scaledVariance: number; maxWeight: number; maxWeightScaled: number }[];
  tokens: number;
}

export interface LinalgJson {
  /** Why the numbers are not shown: too large for the panel, or a decomposition that failed. */
  tooBig?: string;
  /** Per head (up to MAX_SPECTRUM_HEADS), its matrices' spectra; null for a head past the limit. */
  spectra: (SpectrumMatrixJson[] | null)[];
  overlap: { wq: number[][]; wk: number[][]; wv: number[][] } | null;
  /** Per input: X, then each head's Q, K, V and output, then the output. */
  covariance: { name: string; spaces: FeatureSpaceJson[] }[];
  init: InitLabJson;
}
