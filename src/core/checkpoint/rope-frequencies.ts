// RoPE's inverse frequencies for a run of n tokens, as Hugging Face's modeling_rope_utils computes
// them per rope_type (attention factor 1 for all three here), in float64:
//   default  1 / θ^(2i/d) for i < d/2 (d = head_dim)
//   linear   default / factor
//   dynamic  default with the base θ · ((factor · n / L0) − (factor − 1))^(d / (d − 2)) when n > L0
//            (L0 = max_position_embeddings), else default: the frequencies depend on the run's length
//   llama3   per frequency, its wavelength 2π / f: under L0 / high_freq_factor kept, over
//            L0 / low_freq_factor divided by factor, between blended with s = (L0 / wavelength −
//            low) / (high − low): (1 − s) · f / factor + s · f
import type { RopeScaling } from './families/shared/family.js';

/** The default frequencies, each computed as the block always has (a run without scaling keeps its bits). */
function plain(theta: number, headDim: number): Float64Array {
  const out = new Float64Array(headDim / 2);
  for (let i = 0; i < out.length; i++) out[i] = 1 / theta ** ((2 * i) / headDim);
  return out;
}

/** The headDim / 2 inverse frequencies a run of n tokens rotates by. */
export function ropeFrequencies(theta: number, headDim: number, scaling: RopeScaling | undefined, n: number): Float64Array {
  if (!scaling) return plain(theta, headDim);
  switch (scaling.kind) {
    case 'linear':
      return plain(theta, headDim).map((f) => f / scaling.factor);
    case 'dynamic': {
      if (n <= scaling.original) return plain(theta, headDim);
      const base = theta * ((scaling.factor * n) / scaling.original - (scaling.factor - 1)) ** (headDim / (headDim - 2));
      return plain(base, headDim);
    }
    case 'llama3': {
      const { factor, lowFreqFactor: low, highFreqFactor: high, original } = scaling;
      const shortest = original / high, longest = original / low;
      return plain(theta, headDim).map((f) => {
        const wavelength = (2 * Math.PI) / f;
        if (wavelength < shortest) return f;
        if (wavelength > longest) return f / factor;
        const s = (original / wavelength - low) / (high - low);
        return ((1 - s) * f) / factor + s * f;
      });
    }
  }
}

/**
 * Why a run of n tokens cannot rotate by these frequencies (one of them, or its angle at the last
 * position, is not a finite number: its cos and sin would be NaN in every weight), or undefined.
 */
export function frequencyProblem(frequencies: Float64Array, n: number): string | undefined {
  for (const f of frequencies) {
    if (!Number.isFinite(f) || !Number.isFinite(f * Math.max(1, n - 1))) return `RoPE's angle position × frequency is not a finite number at ${n} positions`;
  }
  return undefined;
}

/**
 * Why RoPE's default angles position / θ^(2i/d) cannot all be computed at `contextLength` positions
 * (a θ so small that the largest is not a finite number: its cos and sin would be NaN in every
 * weight), or undefined. θ ≥ 1 never overflows: every frequency is at most 1.
 */
export function thetaOverflow(theta: number, headDim: number, contextLength: number): string | undefined {
  if (!frequencyProblem(plain(theta, headDim), contextLength)) return undefined;
  return `RoPE's angle position / rope_theta^(2i/head_dim) overflows at head_dim ${headDim} and ${contextLength} positions`;
}

/** Whether two runs rotate every position alike (a kept run's keys are reusable only then). */
export function sameFrequencies(a: Float64Array | undefined, b: Float64Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}
