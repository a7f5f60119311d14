// The training loss of one head and its exact gradient with respect to W_Q, W_K and W_V.
//
//   L = (1/K) Σ_attention targets −ln weights[q][k]  +  (1/M) Σ_output targets ½‖output[q] − y‖²
//
// (a term is dropped when its count is 0), with the head's own scale and mask. Row-vector
// convention as in the seeds: Q = X·W_Q, K = X·W_K, V = X·W_V, S = Q·Kᵀ ÷ c, A = softmax(S) by
// rows, O = A·V. Backward, per input that has targets:
//   dO = (O − y)/M on target rows;  dA = dO·Vᵀ;  dV = Aᵀ·dO
//   dS[i][j] = A[i][j]·(dA[i][j] − Σ_l A[i][l]·dA[i][l])      (softmax)
//   for an attention target: dS[q][j] += (A[q][j] − [j = k]) / K  (−ln softmax, written so that a
//   weight that underflows to 0 gives a finite gradient)
//   dQ = dS·K / c;  dK = dSᵀ·Q / c;  dW_Q = Xᵀ·dQ;  dW_K = Xᵀ·dK;  dW_V = Xᵀ·dV.
import { buildMask, embeddingMatrix, scaleDivisor } from '../attention/attention.js';
import { matmul, matmulTransposed, transpose, zeros, type Matrix } from '../linalg/matrix.js';
import { softmaxInto } from '../attention/softmax.js';
import type { Spec, TrainSpec } from '../spec/spec.js';

export interface HeadWeights {
  wq: Matrix;
  wk: Matrix;
  wv: Matrix;
}

export interface LossAndGradient {
  loss: number;
  gradient: HeadWeights;
  /**
   * How far each target is, in the spec's order: an attention target's weight weights[query][key]
   * (training raises it toward 1), an output target's distance ‖output[query] − y‖ (toward 0).
   */
  progress: number[];
  /** Each target's own term of the loss, in the spec's order: the one that is not finite is the target to name when the loss overflows. */
  terms: number[];
}

/** Xᵀ·B for X (n×d) and B (n×m): (d×m). */
function transposedTimes(x: Matrix, b: Matrix): Matrix {
  return matmul(transpose(x), b);
}

/** The loss of the training head with these weights, and (when asked) its gradient. */
export function lossAndGradient(spec: Spec, train: TrainSpec, w: HeadWeights, withGradient = true): LossAndGradient {
  const K = train.targets.filter((t) => t.kind === 'attention').length;
  const M = train.targets.length - K;
  const dk = w.wq.cols;
  const c = scaleDivisor(spec.scale, dk);
  const gradient: HeadWeights = { wq: zeros(w.wq.rows, w.wq.cols), wk: zeros(w.wk.rows, w.wk.cols), wv: zeros(w.wv.rows, w.wv.cols) };
  let loss = 0;
  const progress = new Array<number>(train.targets.length).fill(NaN);
  const terms = new Array<number>(train.targets.length).fill(NaN);
  const inputs = [...new Set(train.targets.map((t) => t.input))].sort((a, b) => a - b);
  for (const inputIndex of inputs) {
    const input = spec.inputs[inputIndex];
    const n = input.tokens.length;
    const x = embeddingMatrix(input, spec.dModel);
    const masked = buildMask(spec, input);
    const q = matmul(x, w.wq), k = matmul(x, w.wk), v = matmul(x, w.wv);
    const s = matmulTransposed(q, k);
    const a = zeros(n, n);
    const logSum = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      logSum[i] = softmaxInto(s.data, i * n, n, a.data, i * n, c, masked);
      // Overflowed scores (a NaN sum): the row's weights are 0 here, not NaN; its loss is NaN all the same.
      if (Number.isNaN(logSum[i])) a.data.fill(0, i * n, (i + 1) * n);
    }
    const o = matmul(a, v);
    const dO = zeros(n, v.cols);
    const dS = zeros(n, n);
    train.targets.forEach((t, g) => {
      if (t.input !== inputIndex) return;
      if (t.kind === 'attention') {
        progress[g] = a.data[t.query * n + t.key];
        // −ln A[q][k] = ln Σ_j e^(s_j) − s_k, from the log-sum-exp: finite even when A underflows.
        terms[g] = (logSum[t.query] - s.data[t.query * n + t.key] / c) / K;
        loss += terms[g];
        for (let j = 0; j < n; j++) dS.data[t.query * n + j] += (a.data[t.query * n + j] - (j === t.key ? 1 : 0)) / K;
      } else {
        let sq = 0;
        for (let j = 0; j < v.cols; j++) {
          const diff = o.data[t.query * v.cols + j] - t.output[j];
          sq += diff * diff;
          dO.data[t.query * v.cols + j] += diff / M;
        }
        terms[g] = (0.5 * sq) / M;
        loss += terms[g];
        progress[g] = Math.sqrt(sq);
      }
    });
    if (!withGradient) continue;
    if (M > 0) {
      const dA = matmulTransposed(dO, v); // dO · Vᵀ
      for (let i = 0; i < n; i++) {
        let dot = 0;
        for (let j = 0; j < n; j++) dot += a.data[i * n + j] * dA.data[i * n + j];
        for (let j = 0; j < n; j++) dS.data[i * n + j] += a.data[i * n + j] * (dA.data[i * n + j] - dot);
      }
      addInto(gradient.wv, transposedTimes(x, matmul(transpose(a), dO)));
    }
    for (let i = 0; i < dS.data.length; i++) dS.data[i] /= c;
    addInto(gradient.wq, transposedTimes(x, matmul(dS, k)));
    addInto(gradient.wk, transposedTimes(x, matmul(transpose(dS), q)));
  }
  return { loss, gradient, progress, terms };
}

function addInto(target: Matrix, m: Matrix): void {
  for (let i = 0; i < target.data.length; i++) target.data[i] += m.data[i];
}

/** The head's matrices as explicit, independent copies ("identity" becomes the identity written out). */
export function startingWeights(spec: Spec, head: number): HeadWeights {
  const h = spec.heads[head];
  const copy = (m: Matrix): Matrix => ({ rows: m.rows, cols: m.cols, data: Float64Array.from(m.data) });
  return { wq: copy(h.wq.matrix), wk: copy(h.wk.matrix), wv: copy(h.wv.matrix) };
}
