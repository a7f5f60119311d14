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

import { entropyTerm } from './rows.js';

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

/** Numbers a row adds to a head's sums (HeadStatsSum.rowTerms). */
export const ROW_TERMS = 7;

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

/**
 * One head's statistics, summed a row at a time (the passes over a file read rows, not whole heads).
 * `terms[j]` is w · ln w of row i's weight j (0 for w ≤ 0), from rows.ts; the sums are made in the
 * same order as a loop over the whole head would make them.
 */
export class HeadStatsSum {
  private entropy = 0; private confidence = 0; private distance = 0; private previous = 0;
  private sink = 0; private duplicate = 0; private induction = 0; private withCopies = 0;
  private readonly scratch = new Float64Array(ROW_TERMS);
  constructor(private readonly n: number, private readonly copies: Int32Array) {}

  /** Weights below 0 seen so far, and the first weight that is not finite (its row and key), if any. */
  negatives = 0;
  firstNegative: { i: number; j: number; w: number } | undefined;
  notFinite: { i: number; j: number; w: number } | undefined;

  /**
   * Adds query i's row; returns the row's sum. The same loop notes negative and non-finite weights
   * (the pass's checks), so a row is read once for all of it.
   */
  addRow(i: number, row: Float64Array, terms: Float64Array, lo = 0, hi = this.n): number {
    const sum = this.rowTerms(i, row, terms, this.scratch, 0, lo, hi);
    this.addTerms(i, this.scratch, 0);
    return sum;
  }

  /**
   * Query i's part of each sum (ROW_TERMS numbers into `out` at `at`: entropy, confidence, distance,
   * sink, previous token, duplicate token, induction), without adding it: a band of rows read by
   * another worker hands these over, and adding them in row order (addTerms) gives the very bits a
   * pass over every row gives. Notes negative and non-finite weights as addRow does.
   */
  rowTerms(i: number, row: Float64Array, terms: Float64Array, out: Float64Array, at: number, lo = 0, hi = this.n): number {
    const { n, copies } = this;
    // Keys outside lo … hi − 1 hold +0 (a causal or windowed run's row, as its caller knows): each
    // would add exactly 0 to every sum and leave a maximum ≥ 0 as it is, so the loop skips them and
    // starts the maximum at 0 instead; the bits are the whole row's.
    let h = 0, max = lo > 0 || hi < n ? 0 : -Infinity, d = 0, sum = 0, bad = 0;
    // The maximum and the check as conditional moves: a branch per weight here cost about as much
    // as the rest of the loop (measured).
    for (let j = lo; j < hi; j++) {
      const w = row[j];
      // NaN, −Infinity and negatives fail w >= 0; +Infinity passes it, so it is named too.
      bad |= w >= 0 && w !== Infinity ? 0 : 1;
      sum += w;
      h -= terms[j];
      max = w > max ? w : max;
      d += w * (i > j ? i - j : j - i);
    }
    if (bad) for (let j = lo; j < hi; j++) if (!(row[j] >= 0) || row[j] === Infinity) this.unusual(i, j, row[j]);
    let duplicate = 0, induction = 0;
    // j + 1 ≤ i: the token after an earlier copy is in the row.
    for (let j = copies[i]; j >= 0; j = copies[j]) {
      duplicate += row[j];
      induction += row[j + 1];
    }
    out[at] = h; out[at + 1] = max; out[at + 2] = d; out[at + 3] = row[0];
    out[at + 4] = i >= 1 ? row[i - 1] : 0; out[at + 5] = duplicate; out[at + 6] = induction;
    return sum;
  }

  /** Adds query i's terms (from rowTerms), rows in order. */
  addTerms(i: number, t: Float64Array, at: number): void {
    this.entropy += t[at];
    this.confidence += t[at + 1];
    this.distance += t[at + 2];
    this.sink += t[at + 3];
    if (i >= 1) this.previous += t[at + 4];
    if (this.copies[i] >= 0) {
      this.withCopies++;
      this.duplicate += t[at + 5];
      this.induction += t[at + 6];
    }
  }

  private unusual(i: number, j: number, w: number): void {
    if (!Number.isFinite(w)) this.notFinite ??= { i, j, w };
    else if (this.negatives++ === 0) this.firstNegative = { i, j, w };
  }

  result(layer: number, head: number): HeadStats {
    const { n, withCopies } = this;
    return {
      layer, head,
      entropy: this.entropy / n,
      confidence: this.confidence / n,
      distance: this.distance / n,
      previousToken: n > 1 ? this.previous / (n - 1) : null,
      duplicateToken: withCopies > 0 ? this.duplicate / withCopies : null,
      induction: withCopies > 0 ? this.induction / withCopies : null,
      sink: this.sink / n,
    };
  }
}

/** The statistics of one head's n × n weights `a` (row-major). `copies` comes from earlierCopies. */
export function headStats(layer: number, head: number, a: Float64Array, n: number, copies: Int32Array): HeadStats {
  const sum = new HeadStatsSum(n, copies);
  const terms = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = a.subarray(i * n, (i + 1) * n);
    for (let j = 0; j < n; j++) terms[j] = entropyTerm(row[j]);
    sum.addRow(i, row, terms);
  }
  return sum.result(layer, head);
}
