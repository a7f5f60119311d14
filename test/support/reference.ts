// A deliberately plain attention, arrays of arrays and textbook formulas, to check the
// optimised core against. Slow and obvious on purpose.
type M = number[][];

const matmul = (a: M, b: M): M => a.map((r) => b[0].map((_, j) => r.reduce((s, v, t) => s + v * b[t][j], 0)));
const transpose = (a: M): M => a[0].map((_, j) => a.map((r) => r[j]));

export function referenceAttention(x: M, wq: M, wk: M, wv: M, divisor: number, causal: boolean) {
  const q = matmul(x, wq), k = matmul(x, wk), v = matmul(x, wv);
  const scores = matmul(q, transpose(k));
  const weights = scores.map((r, i) => {
    const visible = r.map((_, j) => !causal || j <= i);
    const ex = r.map((s, j) => (visible[j] ? Math.exp(s / divisor) : 0));
    const sum = ex.reduce((a, b) => a + b, 0);
    return ex.map((e) => e / sum);
  });
  return { q, k, v, scores, weights, output: matmul(weights, v) };
}

/**
 * Value-weighted attention written out: head h's rows of W_O are those after the earlier heads' d_v
 * (`from`); ‖v_j W_O^h‖ = √Σ_e (Σ_t v_jt W_O[from + t][e])², and norms_ij = α_ij times it.
 */
export function referenceValueNorms(v: M, wo: M, from: number, weights: M) {
  const rows = wo.slice(from, from + v[0].length);
  const valueNorms = matmul(v, rows).map((r) => Math.sqrt(r.reduce((s, x) => s + x * x, 0)));
  return { valueNorms, norms: weights.map((r) => r.map((a, j) => a * valueNorms[j])) };
}
