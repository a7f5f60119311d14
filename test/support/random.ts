// A seeded generator for the property and fuzz tests: every run sees the same cases, and a failing
// case names its seed and index so it can be run again alone.
import { zeros, type Matrix } from '../../src/core/linalg/matrix.js';

/** A generator of numbers in [0, 1) from a 32-bit seed (mulberry32). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A whole number in [lo, hi]. */
export const between = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

/**
 * A rows × cols matrix of numbers in [-0.15, 0.15) from a linear congruential sequence: the same
 * matrix for the same seed on every machine, for the kernel tests that compare exact bits.
 */
export function lcgMatrix(rows: number, cols: number, seed: number): Matrix {
  const m = zeros(rows, cols);
  let s = seed;
  for (let i = 0; i < m.data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    m.data[i] = (s / 2 ** 32 - 0.5) * 0.3;
  }
  return m;
}
