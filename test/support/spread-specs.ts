// Specs whose weights have singular values anywhere from 1e-320 to 1e300 (and exact zeros), for the
// property tests of what attn analyze and the Spectrum view print: each weight is a rotation of a
// diagonal of such values, so its singular values are known to be spread that far.
import { between } from './random.js';

/** 10^e for e drawn in [-320, 300], or 0 one time in 12. */
export function spreadValue(rand: () => number): number {
  if (rand() < 1 / 12) return 0;
  return 10 ** (-320 + rand() * 620);
}

/**
 * A d × d weight: a Givens rotation in the plane of its first two features times diag(σ). Half of them spread across the whole range (singular), half within a factor of 10 around one 10^e
 * (well conditioned, even at 1e-300).
 */
export function spreadWeight(rand: () => number, d: number): number[][] {
  const around = rand() < 0.5 ? spreadValue(rand) : undefined;
  const sigma = Array.from({ length: d }, () => (around === undefined ? spreadValue(rand) : around * (1 + 9 * rand())));
  const t = rand() * Math.PI;
  const c = Math.cos(t), s = Math.sin(t);
  return sigma.map((_, i) => sigma.map((__, j) => {
    // Row i of R·diag(σ): R is the identity outside the first two rows and columns.
    const r = i < 2 && j < 2 ? (i === j ? c : i === 0 ? -s : s) : i === j ? 1 : 0;
    return r * sigma[j];
  }));
}

/** A spec of one or two heads of d_model 2 to 4 with spread W_Q, W_K, W_V and small embeddings. */
export function spreadSpec(rand: () => number): Record<string, unknown> {
  const d = between(rand, 2, 4);
  const features = Array.from({ length: d }, (_, i) => `f${i}`);
  const embeddings = Object.fromEntries(['a', 'b', 'c'].map((t) => [t, features.map(() => between(rand, -3, 3) / 2)]));
  const heads = Array.from({ length: between(rand, 1, 2) }, (_, h) => ({ name: `h${h}`, wq: spreadWeight(rand, d), wk: spreadWeight(rand, d), wv: spreadWeight(rand, d) }));
  return { features, embeddings, inputs: [{ name: 'in', tokens: ['a', 'b', 'c'] }], heads };
}
