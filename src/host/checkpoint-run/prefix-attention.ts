// The views' window on a run with generated tokens: its first m positions only. Attention is causal,
// so the top-left m × m of every head is exactly what a run of those m tokens alone gives: stepping
// through the generation needs no pass again. Each head's m × m is cut out of the run's [heads, n, n]
// the first time the views read it (a scan reads each head once) and kept while the step is shown.
// A run that kept q and k instead (qk-source.ts) steps without any copy of a head: its first m rows
// over the first m keys, cut from the rows it computes (a causal row block reaches only the keys its
// rows see, and each weight depends on its own query and those keys alone), are the same numbers.
import { arrayAttention, checkRows, type AttentionSource } from '../../core/tensors/attention-source.js';
import type { Floats } from '../../core/checkpoint/precision.js';
import { ITEM_SIZE } from '../../core/tensors/dtype.js';

/**
 * The run's attention (per layer [heads, n, n], float32, or float64 as a float64 run's value-weighted
 * norms are) as its first `m` positions; the whole run when m is n.
 */
export function prefixAttention(file: string, attention: readonly Floats[], heads: number, n: number, m: number, tokens?: string[]): AttentionSource {
  if (!(Number.isInteger(m) && m >= 1 && m <= n)) throw new RangeError(`${file}: a step of ${m} tokens is outside the run's 1 … ${n}`);
  if (attention.length === 0) throw new RangeError(`${file}: no layers`);
  if (m === n) return arrayAttention({ file, layers: attention.length, heads, n, ...(tokens ? { tokens } : {}), weights: (layer, head) => attention[layer].subarray(head * n * n, (head + 1) * n * n) });
  const cut = new Map<number, Floats>();
  return arrayAttention({
    file, layers: attention.length, heads, n: m, ...(tokens ? { tokens: tokens.slice(0, m) } : {}),
    weights: (layer, head) => {
      const key = layer * heads + head;
      let w = cut.get(key);
      if (!w) {
        w = attention[layer] instanceof Float64Array ? new Float64Array(m * m) : new Float32Array(m * m);
        const from = head * n * n;
        for (let i = 0; i < m; i++) w.set(attention[layer].subarray(from + i * n, from + i * n + m), i * m);
        cut.set(key, w);
      }
      return w;
    },
  });
}

/**
 * Any source's first `m` positions (a run that kept q and k: the rows computed when read): each row
 * asked of the source, cut to its first m keys. The source stays its owner's (closing the prefix
 * leaves it open).
 */
export function prefixRows(source: AttentionSource, m: number): AttentionSource {
  const { n, layers, heads } = source;
  if (!(Number.isInteger(m) && m >= 1 && m <= n)) throw new RangeError(`${source.file}: a step of ${m} tokens is outside the run's 1 … ${n}`);
  const item = ITEM_SIZE[source.dtype];
  const cut: AttentionSource = {
    ...source, n: m, ...(source.tokens ? { tokens: source.tokens.slice(0, m) } : {}),
    head(layer, head, out = new Float64Array(m * m)) {
      checkRows(layers, heads, m, layer, head, 0, m);
      const whole = source.head(layer, head);
      if (m === n) { out.set(whole); return out; }
      for (let i = 0; i < m; i++) out.set(whole.subarray(i * n, i * n + m), i * m);
      return out;
    },
    rowBytes(layer, head, first, rows) {
      checkRows(layers, heads, m, layer, head, first, rows);
      const bytes = source.rowBytes(layer, head, first, rows);
      if (m === n) return bytes;
      const out = new Uint8Array(rows * m * item);
      for (let r = 0; r < rows; r++) out.set(bytes.subarray(r * n * item, (r * n + m) * item), r * m * item);
      return out;
    },
    ...(source.columnBytes ? {
      columnBytes(layer: number, head: number, first: number, rows: number, j0: number, cols: number) {
        checkRows(layers, heads, m, layer, head, first, rows);
        if (!(Number.isInteger(j0) && Number.isInteger(cols) && j0 >= 0 && cols >= 0 && j0 + cols <= m)) throw new RangeError(`keys ${j0} … ${j0 + cols - 1} are outside the ${m} keys`);
        // A decoder's row i < m weighs keys ≤ i only: its first m keys are the same numbers in the whole run.
        return source.columnBytes!(layer, head, first, rows, j0, cols);
      },
    } : {}),
    close() { /* the source is its owner's */ },
  };
  return cut;
}
