// Small fake HeadLenses for the tests of the lens on a real head: random x and weights, q = x·W_Q + b
// (rotated by position, as RoPE does, for a rotary head), and the weights a causal softmax of
// q·kᵀ ÷ √d_head makes, in float64, as a forward pass would hand them over.
import type { HeadLens } from '../../src/core/checkpoint/types.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

function matmul(a: Float64Array, b: Float64Array, n: number, k: number, m: number, bias?: Float64Array): Float64Array {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) {
    let s = bias ? bias[j] : 0;
    for (let t = 0; t < k; t++) s += a[i * k + t] * b[t * m + j];
    out[i * m + j] = s;
  }
  return out;
}

/** RoPE as Hugging Face applies it (rotate_half): pairs (i, i + hd/2) turned by pos · base^(−2i/hd). */
function rotate(x: Float64Array, n: number, hd: number): Float64Array {
  const out = new Float64Array(x.length), half = hd / 2;
  for (let p = 0; p < n; p++) for (let i = 0; i < half; i++) {
    const angle = p * 10000 ** (-2 * i / hd), c = Math.cos(angle), s = Math.sin(angle);
    const a = x[p * hd + i], b = x[p * hd + i + half];
    out[p * hd + i] = a * c - b * s;
    out[p * hd + i + half] = b * c + a * s;
  }
  return out;
}

export function fakeHeadLens(options: { n: number; dModel: number; headDim: number; rotary: boolean; biases: boolean; seed?: number; tokens?: string[] }): HeadLens {
  const { n, dModel: d, headDim: hd, rotary, biases } = options;
  const r = random(options.seed ?? 7);
  const fill = (len: number, scale = 1) => Float64Array.from({ length: len }, () => r() * 2 * scale);
  const residual = fill(n * d, 2);
  const x = fill(n * d);
  const wq = fill(d * hd), wk = fill(d * hd), wv = fill(d * hd), wo = fill(hd * d);
  const bq = biases ? fill(hd) : undefined, bk = biases ? fill(hd) : undefined, bv = biases ? fill(hd) : undefined;
  let q = matmul(x, wq, n, d, hd, bq), k = matmul(x, wk, n, d, hd, bk);
  const v = matmul(x, wv, n, d, hd, bv);
  if (rotary) { q = rotate(q, n, hd); k = rotate(k, n, hd); }
  const scale = Math.sqrt(hd);
  const weights = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    const row = new Float64Array(i + 1);
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let t = 0; t < hd; t++) s += q[i * hd + t] * k[j * hd + t];
      row[j] = s / scale;
      if (row[j] > max) max = row[j];
    }
    let sum = 0;
    for (let j = 0; j <= i; j++) { row[j] = Math.exp(row[j] - max); sum += row[j]; }
    for (let j = 0; j <= i; j++) weights[i * n + j] = row[j] / sum;
  }
  const tokens = options.tokens ?? Array.from({ length: n }, (_, i) => ['The', ' cat', ' sat', ' on', ' the', ' mat', '.'][i % 7]);
  return {
    layer: 1, head: 2, kvHead: rotary ? 0 : 2, tokens, residual, x, wq, wk, wv, ...(bq ? { bq, bk, bv } : {}), wo, q, k, v,
    rotary, scale, weights, dModel: d, headDim: hd,
  };
}
