// A run head's sinks (tensors/map/sinks.ts's rule: the first token, and keys taking more than
// SINK_SHARE of most sampled rows) from the run's kept queries and keys: the SINK_SAMPLE_ROWS rows
// computed at once, one product of those queries with every key and each weight rowWeight's
// expression from the row's kept softmax max and sum (the dense run's float32 bits, as qkWindow's),
// rather than each row read alone (64 reads of the keys from a file store: 218 ms measured at 8,192
// tokens). The same rows and the same votes as findSinks over the run's source, so the same sinks.
import { keyRange, rowWeight } from '../attention/attend32.js';
import { gemm32 } from '../kernels/gemm32.js';
import { checkRows } from '../tensors/attention-source.js';
import { sinkSampleRows, SinkVote } from '../tensors/map/sinks.js';
import { qkRows, type QkRun } from './qk-source.js';

/** The sinks of a run's head, sorted (key 0 always among them). */
export function qkSinks(run: QkRun, layer: number, head: number): number[] {
  const { store, divisor, softcap } = run, { n, layers, heads, kvHeads, headDim } = store.shape;
  checkRows(layers, heads, n, layer, head, 0, 0);
  const sampled = sinkSampleRows(n), vote = new SinkVote(n), row = new Float64Array(n);
  const scales = run.scales?.[layer * heads + head];
  if (!scales) {
    for (const i of sampled) { row.set(qkRows(run, layer, head, i, 1)); vote.addRow(row); }
    return vote.result();
  }
  const q = new Float32Array(sampled.length * headDim);
  sampled.forEach((i, r) => q.set(store.read(layer, 'q', head, i, 1), r * headDim));
  const keys = store.read(layer, 'k', Math.floor(head / (heads / kvHeads)), 0, n);
  const scores = gemm32(q, sampled.length, headDim, keys, n, true);
  sampled.forEach((i, r) => {
    const { from, to } = keyRange(i, i + 1, n, run.masks[layer]);
    const max = scales[2 * i], sum = scales[2 * i + 1];
    row.fill(0);
    for (let j = from; j < to; j++) row[j] = Math.fround(rowWeight(scores[r * n + j], divisor, softcap, max, sum));
    vote.addRow(row);
  });
  return vote.result();
}
