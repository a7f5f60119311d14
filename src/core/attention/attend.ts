// The one attention op of the core: a spec's heads (attention.ts) and a checkpoint's layers both come
// here, so a head's weights are the same bits whichever of them asks. It takes the queries, keys and
// values already projected, as Matrix: flat [rows, heads · d] as a checkpoint lays them out, or one
// matrix per head as a spec's heads of different widths give them. Grouped-query heads read their
// key/value head without copying it per query head; with `first`, only the queries first…n − 1 are
// computed against all n keys (a run that reuses the keys and values of a shared prefix).
//
// A causal or windowed row is computed over its visible keys lo…hi only, in the order j = lo…hi, by
// the project's one row softmax (softmaxInto): the same sums, in the same order, as a causal softmax
// over keys 0…i, and half the work of a causal layer's softmax. The n × n scores are not kept unless
// recorded: the weights are computed in the scores' own buffer, so a layer of 4,096 tokens holds one
// rows × n array per head, not three.
//
// Two entry points over one loop: `attend` keeps every head (a spec's views read them all);
// `attendEach` hands each head to the caller as it is done and keeps only its output, in the heads'
// side-by-side matrix, so a checkpoint's layer holds one head's float64 weights at a time (1,024
// tokens × 12 heads of them are 100 MB).
import { columnsOf, concatColumns, matmul, matmulTransposed, zeros, type Matrix } from '../linalg/matrix.js';
import { softmaxInto } from './softmax.js';

/**
 * Which keys query i sees before the explicit mask: every key ('none'), keys 0…i ('causal'), or the
 * last `window` keys up to i ({ window: W }: i − W < j ≤ i).
 */
export type KeyMask = 'none' | 'causal' | { readonly window: number };

/** What the views show, kept when asked (true) and not made at all otherwise. */
export interface Recording {
  /** Each head's queries, keys and values (a grouped-query head's keys are its key/value head's, one object). */
  readonly q?: boolean;
  readonly k?: boolean;
  readonly v?: boolean;
  /** Each head's raw scores q_i · k_j, rows × n, masked cells included. */
  readonly scores?: boolean;
  /** Each head's scaled scores, rows × n, −∞ where a key is hidden. */
  readonly scaled?: boolean;
  /** The mask as bytes, rows × n, 1 where a key is hidden (one array for every head). */
  readonly mask?: boolean;
}

export interface AttendInput {
  /** Queries first…n − 1: [rows, heads · d_k] (with `heads`), or one [rows, d_k] matrix per head. */
  readonly q: Matrix | readonly Matrix[];
  /** Keys 0…n − 1: [n, kvHeads · d_k] (with `kvHeads`), or one [n, d_k] matrix per key/value head. */
  readonly k: Matrix | readonly Matrix[];
  /** Values 0…n − 1: [n, kvHeads · d_v], or one [n, d_v] matrix per key/value head. */
  readonly v: Matrix | readonly Matrix[];
  /** Query heads in a flat q (a list of matrices counts itself). */
  readonly heads?: number;
  /** Key/value heads in flat k and v; the query heads' count by default. Divides the query heads. */
  readonly kvHeads?: number;
  /** What the scores are divided by: one number, or one per query head. */
  readonly divisor: number | readonly number[];
  readonly mask?: KeyMask;
  /** c: each scaled score s becomes c · tanh(s / c) before the mask and the softmax (Gemma 2's softcapping); absent: none. */
  readonly softcap?: number;
  /** n × n bytes, 1 where query i may not see key j (row i is query i's, whatever `first` is), on top of `mask`. */
  readonly hidden?: Uint8Array;
  /** The first query position computed (0 by default); q holds rows first…n − 1. */
  readonly first?: number;
  readonly record?: Recording;
  /** Called as each head is done, with the head (progress on long work; attendEach's caller takes its numbers here). */
  readonly onHead?: (index: number, head: AttendedHead) => void;
}

export interface AttendedHead {
  /** rows × n: query first + r's weights in row r, exact zeros on hidden keys. */
  readonly weights: Matrix;
  /** rows × d_v: weights · V. */
  readonly output: Matrix;
  readonly divisor: number;
  /** Query positions that saw no key (every key hidden, or every score −∞): their weights and output are zeros. */
  readonly emptyRows: readonly number[];
  readonly q?: Matrix;
  readonly k?: Matrix;
  readonly v?: Matrix;
  readonly scores?: Matrix;
  readonly scaled?: Matrix;
}

export interface Attended {
  readonly heads: readonly AttendedHead[];
  /** The heads' outputs side by side, rows × Σ d_v (the one head's output itself when there is one); made when first read. */
  readonly concat: Matrix;
  /** Recorded: rows × n, 1 where a key is hidden. */
  readonly mask?: Uint8Array;
}

/** The first key query i sees under `kind`. */
function lowest(kind: KeyMask, i: number): number {
  return typeof kind === 'object' ? Math.max(0, i - kind.window + 1) : 0;
}

/** The last key query i sees under `kind`, of n. */
function highest(kind: KeyMask, i: number, n: number): number {
  return kind === 'none' ? n - 1 : Math.min(i, n - 1);
}

/**
 * The mask of queries first…n − 1 as bytes (rows × n, 1 = hidden): what `kind` hides, and what
 * `hidden` (n × n) hides. With no kind to add and every row asked for, `hidden` itself.
 */
export function maskBytes(n: number, kind: KeyMask, hidden?: Uint8Array, first = 0): Uint8Array {
  if (kind === 'none' && hidden && first === 0) return hidden;
  const rows = n - first;
  const out = hidden ? hidden.slice(first * n, n * n) : new Uint8Array(rows * n);
  for (let r = 0; r < rows; r++) {
    const i = first + r, lo = lowest(kind, i), hi = highest(kind, i, n);
    out.fill(1, r * n, r * n + lo);
    out.fill(1, r * n + Math.max(lo, hi + 1), (r + 1) * n);
  }
  return out;
}

/** Head `index` of `count`: a list's own matrix, or its columns of a flat one. */
function headOf(m: Matrix | readonly Matrix[], count: number, index: number): Matrix {
  if (Array.isArray(m)) return (m as readonly Matrix[])[index];
  const flat = m as Matrix;
  const width = flat.cols / count;
  return columnsOf(flat, index * width, width);
}

function countOf(m: Matrix | readonly Matrix[], given: number | undefined, what: string): number {
  if (Array.isArray(m)) return m.length;
  const flat = m as Matrix;
  const count = given ?? 1;
  if (!Number.isInteger(count) || count < 1 || flat.cols % count !== 0) throw new Error(`attend: ${what} of ${flat.cols} columns cannot be split into ${count} heads`);
  return count;
}

/**
 * Scaled dot-product attention of every query head h, for queries i = first…n − 1:
 *
 *   s_ij = (q_i · k_j) / divisor_h,
 *   w_ij = exp(s_ij − m_i) / Σ_j' exp(s_ij' − m_i) over the keys j that i sees (m_i their max), 0 elsewhere,
 *   out_i = Σ_j w_ij · v_j,
 *
 * with q_i from head h's columns, k_j and v_j from key/value head ⌊h / (heads / kvHeads)⌋'s. Query i
 * sees key j when `mask` shows it (none: all; causal: j ≤ i; window W: i − W < j ≤ i) and
 * hidden[i · n + j] is 0. A query that sees no key (or whose every score is −∞) gets zero weights
 * and output, and is listed in its head's emptyRows. The sums run over the visible keys in order
 * j = lo…hi (softmaxInto), and the products are matmul's, so the bits are the same on the
 * WebAssembly kernel and in plain JavaScript.
 */
export function attend(input: AttendInput): Attended {
  const heads: AttendedHead[] = [];
  const { n, first, kind } = attendLoop(input, (h, head) => {
    heads.push(head);
    input.onHead?.(h, head);
  });
  // Side by side when first read: a caller that joins heads from two threads never pays for it.
  let concat: Matrix | undefined;
  return {
    heads,
    get concat() { return (concat ??= heads.length === 1 ? heads[0].output : concatColumns(heads.map((h) => h.output))); },
    ...(input.record?.mask ? { mask: maskBytes(n, kind, input.hidden, first) } : {}),
  };
}

/**
 * attend, one head at a time: `onHead(h, head)` gets each head as it is done, and nothing of it is
 * kept but its output, written into the heads' outputs side by side (rows × heads · d_v, returned;
 * every head's values of one width d_v): the same bits as attend's heads and concat.
 */
export function attendEach(input: AttendInput & { readonly onHead: (index: number, head: AttendedHead) => void }): Matrix {
  let concat: Matrix | undefined;
  let at = 0;
  attendLoop(input, (h, head, total) => {
    const out = head.output;
    concat ??= zeros(out.rows, total * out.cols);
    if (at + out.cols > concat.cols) throw new Error(`attend: head ${h}'s ${out.cols} value columns do not fit the heads' ${concat.cols}`);
    for (let r = 0; r < out.rows; r++) concat.data.set(out.data.subarray(r * out.cols, (r + 1) * out.cols), r * concat.cols + at);
    at += out.cols;
    input.onHead(h, head);
  });
  return concat ?? zeros(0, 0);
}

/** The loop of both entry points: each head computed and handed to `done` (with the count of heads), never kept. */
function attendLoop(input: AttendInput, done: (index: number, head: AttendedHead, total: number) => void): { n: number; first: number; kind: KeyMask } {
  const H = countOf(input.q, input.heads, 'q');
  const KV = countOf(input.k, input.kvHeads ?? (Array.isArray(input.k) ? undefined : H), 'k');
  if (countOf(input.v, KV, 'v') !== KV) throw new Error(`attend: ${KV} key heads but a different number of value heads`);
  if (H % KV !== 0) throw new Error(`attend: ${H} query heads cannot share ${KV} key/value heads evenly`);
  const group = H / KV;
  const first = input.first ?? 0;
  const kind = input.mask ?? 'none';
  const record = input.record ?? {};
  const n = headOf(input.k, KV, 0).rows;
  const rows = n - first;
  if (!Number.isInteger(first) || first < 0 || rows < 0) throw new Error(`attend: first query ${first} of ${n} positions`);
  if (typeof kind === 'object' && !(Number.isInteger(kind.window) && kind.window >= 1)) throw new Error(`attend: a window of ${kind.window} keys`);
  if (input.hidden && input.hidden.length !== n * n) throw new Error(`attend: a mask of ${input.hidden.length} bytes for ${n} × ${n} keys`);
  const hidden = input.hidden;
  const cap = input.softcap;
  if (cap !== undefined && !(cap > 0 && Number.isFinite(cap))) throw new Error(`attend: a softcap of ${cap}`);

  let keys: Matrix | undefined, values: Matrix | undefined, kvAt = -1;
  for (let h = 0; h < H; h++) {
    const kvHead = Math.floor(h / group);
    if (kvHead !== kvAt) {
      keys = headOf(input.k, KV, kvHead);
      values = headOf(input.v, KV, kvHead);
      kvAt = kvHead;
    }
    const q = headOf(input.q, H, h);
    if (q.rows !== rows || keys!.rows !== n || values!.rows !== n) throw new Error(`attend: head ${h} has ${q.rows} queries, ${keys!.rows} keys and ${values!.rows} values for positions ${first}…${n - 1}`);
    const divisor = typeof input.divisor === 'number' ? input.divisor : input.divisor[h];
    const scores = matmulTransposed(q, keys!);
    // The weights take the scores' buffer unless the scores are kept; the scaled scores get their
    // own only when kept.
    const weights = record.scores ? zeros(rows, n) : scores;
    const zeroed = weights !== scores;
    const scaled = record.scaled ? zeros(rows, n) : undefined;
    const S = scores.data, W = weights.data;
    const emptyRows: number[] = [];
    for (let r = 0; r < rows; r++) {
      const i = first + r, at = r * n, lo = lowest(kind, i), hi = highest(kind, i, n);
      const count = hi - lo + 1;
      let sum: number;
      if (scaled) {
        // Hidden keys are −∞ here (what the scaled scores show) and skipped by the softmax.
        const T = scaled.data;
        for (let j = lo; j <= hi; j++) T[at + j] = hidden !== undefined && hidden[i * n + j] !== 0 ? -Infinity : cap === undefined ? S[at + j] / divisor : cap * Math.tanh(S[at + j] / divisor / cap);
        // Divided by 1 (exact): the bits of the scaled scores, one division a cell.
        sum = softmaxInto(T, at + lo, count, W, at + lo, 1, hidden, i * n + lo);
        T.fill(-Infinity, at, at + lo);
        T.fill(-Infinity, at + Math.max(lo, hi + 1), at + n);
      } else if (cap !== undefined) {
        // Capped where the weights go (the raw scores stay when kept), then divided by 1 (exact).
        for (let j = lo; j <= hi; j++) W[at + j] = cap * Math.tanh(S[at + j] / divisor / cap);
        sum = softmaxInto(W, at + lo, count, W, at + lo, 1, hidden, i * n + lo);
      } else {
        sum = softmaxInto(S, at + lo, count, W, at + lo, divisor, hidden, i * n + lo);
      }
      if (!zeroed) {
        W.fill(0, at, at + lo);
        W.fill(0, at + Math.max(lo, hi + 1), at + n);
      }
      if (sum === -Infinity) emptyRows.push(i);
    }
    const output = matmul(weights, values!);
    done(h, {
      weights, output, divisor, emptyRows,
      ...(record.q ? { q } : {}), ...(record.k ? { k: keys } : {}), ...(record.v ? { v: values } : {}),
      ...(record.scores ? { scores } : {}), ...(scaled ? { scaled } : {}),
    }, H);
  }
  return { n, first, kind };
}
