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
