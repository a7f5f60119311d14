// What the result model derives instead of keeping: a head's scores (Q·Kᵀ) and its softmax weights,
// made from Q, K, the divisor and the mask when first read, bit for bit what the compute made. The
// model read back from its serialisation (wire.ts) is built this way, so nothing n × n travels; the
// analysis worker keeps its last results this way (leanData), so nothing n × n stays in memory.
import { matmulTransposed, type Matrix } from '../linalg/matrix.js';
import { softmaxInto } from '../attention/softmax.js';
import { valueWeighted } from '../attention/value-norms.js';
import type { AttentionData, HeadData, InputData } from './attention-data.js';

/**
 * softmax(scores ÷ divisor) row by row, masked keys left out: the core's own row kernel
 * (softmaxInto, as the attention op calls it), so the weights come out bit for bit the same; flat
 * arrays and a Uint8Array mask, as a decode of 4 million cells is on the webview's critical path.
 */
export function weightsFromScores(scores: Matrix, divisor: number, masked: Uint8Array): Matrix {
  const n = scores.rows, m = scores.cols;
  const weights = new Float64Array(n * m);
  for (let i = 0; i < n; i++) softmaxInto(scores.data, i * m, m, weights, i * m, divisor, masked);
  return { rows: n, cols: m, data: weights };
}

/** A head without its n × n arrays: what it keeps (its value norms, n numbers, included). */
export type KeptHead = Omit<HeadData, 'scores' | 'weights' | 'norms'>;

/**
 * The head whose scores, weights and value-weighted norms are made when first read, not before: a
 * view of one head (or a hover, on the host) pays for that head only, never for n × n of every head.
 * The norms are the weights times the kept ‖v_j W_O^h‖ (valueWeighted), as the compute made them.
 */
export function derivedHead(kept: KeptHead): HeadData {
  const { q, k, divisor, masked, valueNorms: vn } = kept;
  let scores: Matrix | undefined, weights: Matrix | undefined, norms: Matrix | undefined;
  const head: HeadData = {
    name: kept.name, dk: kept.dk, dv: kept.dv, divisor, q, k, v: kept.v, masked, output: kept.output,
    get scores() { return (scores ??= matmulTransposed(q, k)); },
    get weights() { return (weights ??= weightsFromScores(this.scores, divisor, masked)); },
  };
  if (!vn) return head;
  return Object.defineProperties(head, {
    valueNorms: { value: vn, enumerable: true },
    norms: { get() { return (norms ??= valueWeighted(head.weights, vn)); }, enumerable: true },
  });
}

/** The same model, its heads' scores and weights let go (made again if read): for keeping a result in memory. */
export function leanData(data: AttentionData): AttentionData {
  const input = (x: InputData): InputData => ({ ...x, heads: x.heads.map((h) => derivedHead(h)) });
  return { ...data, inputs: data.inputs.map(input) };
}
