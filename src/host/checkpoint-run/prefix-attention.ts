// The views' window on a run with generated tokens: its first m positions only. Attention is causal,
// so the top-left m × m of every head is exactly what a run of those m tokens alone gives: stepping
// through the generation needs no pass again. Each head's m × m is cut out of the run's [heads, n, n]
// the first time the views read it (a scan reads each head once) and kept while the step is shown.
import { arrayAttention, layersAttention, type AttentionSource } from '../../core/tensors/attention-source.js';

/** The run's attention (per layer [heads, n, n] float32) as its first `m` positions; the whole run when m is n. */
export function prefixAttention(file: string, attention: readonly Float32Array[], heads: number, n: number, m: number, tokens?: string[]): AttentionSource {
  if (!(Number.isInteger(m) && m >= 1 && m <= n)) throw new RangeError(`${file}: a step of ${m} tokens is outside the run's 1 … ${n}`);
  if (m === n) return layersAttention(file, attention, heads, n, tokens);
  const cut = new Map<number, Float32Array>();
  return arrayAttention({
    file, layers: attention.length, heads, n: m, ...(tokens ? { tokens: tokens.slice(0, m) } : {}),
    weights: (layer, head) => {
      const key = layer * heads + head;
      let w = cut.get(key);
      if (!w) {
        w = new Float32Array(m * m);
        const from = head * n * n;
        for (let i = 0; i < m; i++) w.set(attention[layer].subarray(from + i * n, from + i * n + m), i * m);
        cut.set(key, w);
      }
      return w;
    },
  });
}
