// What one head does, in numbers a reader can sort by. For a head's weights A (row i = query i,
// summing to 1), each statistic is a mean over the queries i = 0 … n − 1 unless said:
//   entropy        −Σ_j A_ij ln A_ij (0 ln 0 = 0)      how spread the row is (Clark et al. 2019)
//   confidence     max_j A_ij                            how much goes to the strongest key (Voita et al. 2019)
//   distance       Σ_j A_ij |i − j|                      how far back (or ahead) it looks
//   previousToken  A_i,i−1, over i ≥ 1                   TransformerLens' previous-token pattern
//   sink           A_i,0                                 weight parked on the first token (Xiao et al. 2023)
// and over the queries whose token occurred before, J_i = { j < i : token_j = token_i } not empty
// (null when no query has one):
//   duplicateToken Σ_{j∈J_i} A_ij                        attends to earlier copies of itself
//   induction      Σ_{j∈J_i} A_i,j+1                     attends to the token after an earlier copy

export interface HeadStats {
  layer: number;
  head: number;
  entropy: number;
  confidence: number;
  distance: number;
  previousToken: number | null;
  duplicateToken: number | null;
  induction: number | null;
  sink: number;
}

export const STAT_NAMES = ['entropy', 'confidence', 'distance', 'previousToken', 'duplicateToken', 'induction', 'sink'] as const;
export type StatName = typeof STAT_NAMES[number];

/**
 * For each position i, the previous position holding the same token, or −1: following the chain from
 * i lists J_i, in O(n) memory however often a token repeats. All −1 without tokens.
 */
export function earlierCopies(tokens: readonly string[] | undefined, n: number): Int32Array {
  const previous = new Int32Array(n).fill(-1);
  if (!tokens) return previous;
  const last = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const j = last.get(tokens[i]);
    if (j !== undefined) previous[i] = j;
    last.set(tokens[i], i);
  }
  return previous;
}

/** The statistics of one head's n × n weights `a` (row-major). `copies` comes from earlierCopies. */
export function headStats(layer: number, head: number, a: Float64Array, n: number, copies: Int32Array): HeadStats {
  let entropy = 0, confidence = 0, distance = 0, previous = 0, sink = 0, duplicate = 0, induction = 0, withCopies = 0;
  for (let i = 0; i < n; i++) {
    const row = i * n;
    let h = 0, max = -Infinity, d = 0;
    for (let j = 0; j < n; j++) {
      const w = a[row + j];
      if (w > 0) h -= w * Math.log(w);
      if (w > max) max = w;
      d += w * Math.abs(i - j);
    }
    entropy += h;
    confidence += max;
    distance += d;
    sink += a[row];
    if (i >= 1) previous += a[row + i - 1];
    if (copies[i] >= 0) {
      withCopies++;
      for (let j = copies[i]; j >= 0; j = copies[j]) {
        duplicate += a[row + j];
        induction += a[row + j + 1];
      }
    }
  }
  return {
    layer, head,
    entropy: entropy / n,
    confidence: confidence / n,
    distance: distance / n,
    previousToken: n > 1 ? previous / (n - 1) : null,
    duplicateToken: withCopies > 0 ? duplicate / withCopies : null,
    induction: withCopies > 0 ? induction / withCopies : null,
    sink: sink / n,
  };
}
