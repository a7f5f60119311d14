// The numbers of the linear-algebra views (Spectrum, Heads, Covariance, Initialisation), made
// in the core from the spec and its result model so the views only draw, and sent as plain JSON
// (linalg-json.ts; a few kilobytes for a teaching spec) when a view asks for them. Costs are
// estimated from the shapes first: past PANEL_LINALG_WORK the views say to run `attn analyze`,
// so an edit never waits on SVDs.
import type { Spec } from '../spec/spec.js';
import { analyzeTerms, analyzeWork, dominantCause, headOverlap } from '../linalg/analyze.js';
import { featureStats, featureStatsWork, type FeatureStats } from '../linalg/covariance.js';
import { compareRules, scoreScaling, weightSpectrum } from '../linalg/init-lab.js';
import { headSpectrum, headSpectrumWork, type MatrixSpectrum } from '../linalg/spectrum-data.js';
import type { PlanePicture, Vec2 } from '../linalg/spectrum.js';
import type { Matrix } from '../linalg/matrix.js';
import { HEAD_ROLES } from '../vocabulary.js';
import type { AttentionData } from './attention-data.js';
import type { FeatureSpaceJson, InitLabJson, LinalgJson, PictureJson, SpectrumMatrixJson } from './linalg-json.js';

/** Multiply-adds the panel spends on these numbers per edit: about 0.1 s in the worker. */
export const PANEL_LINALG_WORK = 1e8;
/** Past this many features a correlation matrix is not drawn cell by cell (the view lists the redundant pairs and the variance explained). */
export const MAX_CORRELATION_FEATURES = 48;
/** Heads whose spectra the panel computes: the rest say to pick fewer heads or run attn analyze. */
export const MAX_SPECTRUM_HEADS = 16;

const arr = (a: Float64Array | readonly number[]) => Array.from(a);

function picture(p: PlanePicture): PictureJson {
  return {
    matrix: [[p.matrix[0][0], p.matrix[0][1]], [p.matrix[1][0], p.matrix[1][1]]],
    circle: arr(p.circle), image: arr(p.image),
    singular: p.singular.map((s) => ({ sigma: s.sigma, input: [s.input[0], s.input[1]], output: [s.output[0], s.output[1]] })),
    eigenvalues: p.eigenvalues.map((e) => [e[0], e[1]] as Vec2),
    eigenDirections: p.eigenDirections.map((e) => ({ lambda: e.lambda, direction: [e.direction[0], e.direction[1]] as Vec2 })),
    finite: p.finite,
  };
}

function spectrumJson(m: MatrixSpectrum): SpectrumMatrixJson {
  return {
    name: m.name, label: m.label, rows: m.rows, cols: m.cols, singularValues: arr(m.singularValues),
    conditionNumber: m.conditionNumber, effectiveRank: m.effectiveRank, stableRank: m.stableRank,
    eigenvalues: m.eigenvalues ? m.eigenvalues.map((e) => [e[0], e[1]] as Vec2) : null, zeroEigenvalues: m.zeroEigenvalues,
    ...(m.copyingScore !== undefined ? { copyingScore: m.copyingScore } : {}),
    restricted: m.restricted ? { rows: m.restricted.rows, cols: m.restricted.cols, picture: picture(m.restricted.picture) } : null,
    strongest: m.strongest && m.strongest.picture.finite ? picture(m.strongest.picture) : null,
  };
}

/** Every number the Spectrum view prints of one matrix is finite (its pictures say so themselves, with `finite`). */
function finiteSpectrum(m: SpectrumMatrixJson): boolean {
  const scalars = [...m.singularValues, m.conditionNumber ?? 0, m.effectiveRank, m.stableRank, m.copyingScore ?? 0, ...(m.eigenvalues ?? []).flat()];
  return scalars.every(Number.isFinite);
}

function space(label: string, m: Matrix): FeatureSpaceJson {
  const s: FeatureStats | null = featureStats(m);
  if (!s) return { label, n: m.rows, d: m.cols, correlation: null, constant: [], redundant: [], explained: [], eigenvalues: [] };
  return {
    label, n: s.n, d: s.d,
    correlation: s.d <= MAX_CORRELATION_FEATURES ? arr(s.correlation) : null,
    constant: [...s.constant],
    redundant: s.redundant.slice(0, 20).map((p) => ({ a: p.a, b: p.b, correlation: p.correlation })),
    explained: arr(s.explained), eigenvalues: arr(s.eigenvalues),
  };
}

/** The lab's fixed setting: the same for every spec (its lesson does not depend on the spec), computed once. */
export const INIT_LAB = { width: 64, layers: 24, seed: 7, dks: [1, 4, 16, 64, 256], tokens: 16, samples: 400 } as const;
let initLab: InitLabJson | undefined;

export function initLabData(): InitLabJson {
  if (initLab) return initLab;
  const { width, layers, seed } = INIT_LAB;
  const curves: InitLabJson['curves'] = [];
  for (const activation of ['linear', 'relu'] as const) {
    for (const c of compareRules({ width, layers, activation, seed, samples: 64 })) {
      curves.push({
        label: c.label, activation, variance: [...c.stack.variance], expected: [...c.stack.expected], weightVariance: c.stack.weightVariance,
        ...(c.stack.stopped ? { stopped: { layer: c.stack.stopped.layer, why: c.stack.stopped.why } } : {}),
      });
    }
  }
  const spectra = (['lecun', 'kaiming'] as const).map((rule) => {
    const s = weightSpectrum(rule, width, width, seed);
    return { label: rule === 'lecun' ? 'LeCun 1/d_in' : 'Kaiming 2/d_in', singularValues: arr(s.singularValues), edges: [s.edges[0], s.edges[1]] as [number, number] };
  });
  const scores = scoreScaling({ dks: INIT_LAB.dks, tokens: INIT_LAB.tokens, samples: INIT_LAB.samples, seed }).map((r) => ({ ...r }));
  initLab = { width, layers, curves, spectra, scores, tokens: INIT_LAB.tokens };
  return initLab;
}

/** What the four views need, or a sentence saying why the spec is too large for the panel. */
export function linalgData(spec: Spec, data: AttentionData): LinalgJson {
  try {
    return linalgDataOrThrow(spec, data);
  } catch (err) {
    // A decomposition that fails on extreme numbers must not take the attention down with it.
    const why = err instanceof Error ? err.message : String(err);
    return { tooBig: `these matrices could not be decomposed (${why.slice(0, 200)}): try smaller or less extreme numbers`, spectra: [], overlap: null, covariance: [], init: initLabData() };
  }
}

function linalgDataOrThrow(spec: Spec, data: AttentionData): LinalgJson {
  const init = initLabData();
  const featureWork = data.inputs.reduce((s, input) => s + featureStatsWork(input.tokens.length, spec.dModel) * (2 + 4 * input.heads.length), 0);
  const spectrumWork = spec.heads.slice(0, MAX_SPECTRUM_HEADS).reduce((s, _, h) => s + headSpectrumWork(spec, h), 0);
  const work = analyzeWork(spec) + featureWork + spectrumWork;
  if (work > PANEL_LINALG_WORK) {
    return {
      tooBig: `this spec needs about ${(work / 1e6).toFixed(0)} million multiply-adds for its spectra, head overlaps and covariances (mostly for its ${dominantCause(analyzeTerms(spec))?.name ?? `d_model ${spec.dModel}`}), over the ${PANEL_LINALG_WORK / 1e6} million the panel spends per edit: run attn analyze on it`,
      spectra: [], overlap: null, covariance: [], init,
    };
  }
  const spectra = spec.heads.slice(0, MAX_SPECTRUM_HEADS).map((_, h) => headSpectrum(spec, h).map(spectrumJson));
  const overlap = spec.heads.length > 1 ? headOverlap(spec) : null;
  // Weights near 1e200 make a circuit (W_Q·W_Kᵀ) overflow though the attention is finite: its singular
  // values come out NaN, which the views would print. Refused as attn analyze refuses it.
  if (!spectra.every((head) => head.every(finiteSpectrum)) || !(overlap ? HEAD_ROLES.every((r) => overlap[r].every((row) => row.every(Number.isFinite))) : true)) {
    return { tooBig: 'these matrices\' numbers grow past the largest double (a circuit such as W_Q·W_Kᵀ overflows), so their spectra cannot be shown: use smaller weights', spectra: [], overlap: null, covariance: [], init };
  }
  return {
    spectra,
    overlap,
    covariance: data.inputs.map((input) => ({
      name: input.name,
      spaces: [
        space('X (the embeddings)', input.embeddings),
        ...input.heads.flatMap((h) => [space(`Q of head "${h.name}"`, h.q), space(`K of head "${h.name}"`, h.k), space(`V of head "${h.name}"`, h.v), space(`output of head "${h.name}"`, h.output)]),
        ...(input.heads.length > 1 || spec.wo ? [space(spec.wo ? 'output (after W_O)' : 'output (heads side by side)', input.output)] : []),
      ],
    })),
    init,
  };
}
