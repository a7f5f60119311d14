// The work budgets: what one command, view or page may cost, estimated from the shapes before any
// of it is done, so a small file that asks for a great deal gets a sentence instead of a long wait or
// an abort at the heap limit. Each budget has its cost function (from shapes alone) and says, when
// it is passed, what was asked, how much that is, the budget, and what to do instead. The spec's own
// limits (read/limits.ts) and the readers' caps stay beside what they guard; these are the costs of
// what is made from a file once it is read.

/** One budget: a name for messages, the most it allows, and the unit it counts. */
export interface Budget {
  readonly what: string;
  readonly max: number;
  readonly unit: string;
}

/**
 * The rollout multiplies one n × n matrix into another per layer: layers · n³ multiply-adds. 4 billion
 * is about 10 s on one core (16 layers × 1,024² measured 38–47 s); 12 layers × 512² is 1.6 billion.
 */
export const ROLLOUT: Budget = { what: 'the rollout', max: 4e9, unit: 'multiply-adds' };

/**
 * Numbers attn compute prints (as text or JSON): every token's x, q, k, v, scores and weights, and
 * the weight matrices. The spec's own limit of 4,194,304 attention cells prints 12.6 million of
 * them (scores, scaled, weights); 16 million leaves room for the vectors, while a 4,194,304-wide
 * embedding's 29 million (36 s and 4 GB to print before this budget) is refused.
 */
export const PRINTED: Budget = { what: 'attn compute\'s output', max: 16_000_000, unit: 'numbers' };

const count = (v: number) => (v >= 1e9 ? `${(v / 1e9).toFixed(1)} billion` : v >= 1e6 ? `${(v / 1e6).toFixed(1)} million` : Math.round(v).toLocaleString('en-US'));

/** The sentence when `cost` passes `budget` (`asked`: what was asked for, `instead`: what to do), else undefined. */
export function overBudget(budget: Budget, cost: number, asked: string, instead: string): string | undefined {
  if (cost <= budget.max) return undefined;
  return `${budget.what} of ${asked} needs ${count(cost)} ${budget.unit}, over the budget of ${count(budget.max)}: ${instead}`;
}

/** Multiply-adds of the rollout of `layers` layers of n × n. */
export const rolloutWork = (layers: number, n: number) => layers * n ** 3;

/**
 * Numbers attn compute prints for a spec of these shapes (per input: its tokens; per head: d_k, d_v);
 * with W_O (`withOutput`) also each head's value norms (n: the value-weighted n × n is α times them, left to the reader).
 */
export function printedNumbers(dModel: number, tokensPerInput: readonly number[], heads: readonly { dk: number; dv: number }[], withOutput: boolean): number {
  let total = 0;
  for (const h of heads) total += dModel * (2 * h.dk + h.dv);
  for (const n of tokensPerInput) {
    total += n * dModel * (withOutput ? 2 : 1);
    for (const h of heads) total += n * (2 * h.dk + 2 * h.dv) + 3 * n * n + (withOutput ? n : 0);
  }
  return total;
}

/** Characters of base64 for `bytes` bytes. */
export const base64Chars = (bytes: number) => 4 * Math.ceil(bytes / 3);

/**
 * The model grid's thumbnails (layers · heads · side², float32, held by the scan and carried by the
 * page and the SVG). 4,194,304 pixels is 1,024 heads at 64² (16 MB of float32, 22 MB of base64 in a
 * page); 16,384 heads at 64² were 268 MB, and their page aborted at 4.8 GB (5.1 GB and 78 s measured).
 * Over it the thumbnails are drawn at a smaller side (thumbnailSide), and the page or SVG says so.
 */
export const THUMBNAILS: Budget = { what: 'the grid of thumbnails', max: 4_194_304, unit: 'pixels' };

/** The largest thumbnail side ≤ `side` (halved, at least 1) at which layers · heads thumbnails fit THUMBNAILS. */
export function thumbnailSide(layers: number, heads: number, side: number): number {
  let t = side;
  while (t > 1 && layers * heads * t * t > THUMBNAILS.max) t = Math.max(1, Math.floor(t / 2));
  return t;
}

/**
 * The data an offline model page (attn render --html) carries, in bytes of its JSON: base64 float32
 * thumbnails, heads and rollout, a picture's colour indices, and each head's statistics. 48 MiB: a
 * page of a whole 2,048² head (22 MB of base64) opens in a browser in a few seconds, and building it
 * took 0.9 GB; a 4,096² head (90 MB of page) took 2.1 GB and 12 s to write.
 */
export const MODEL_PAGE: Budget = { what: 'the model page', max: 48 * 1024 * 1024, unit: 'bytes' };

/** Bytes of JSON per head's statistics in a page (six numbers and their names, measured ≈ 150). */
const STATS_BYTES = 200;

export interface PageShape {
  layers: number;
  heads: number;
  tokens: number;
  thumb: number;
  /** Heads carried whole (n² float32 each). */
  wholeHeads: number;
  /** The side of a head carried as a picture (colour indices), 0 when none. */
  pictureSide: number;
  rollout: boolean;
}

/** Bytes of a model page's data, from its shape alone. */
export function modelPageBytes(s: PageShape): number {
  const n2 = s.tokens * s.tokens;
  return base64Chars(4 * s.layers * s.heads * s.thumb * s.thumb) + s.wholeHeads * base64Chars(4 * n2)
    + base64Chars(s.pictureSide * s.pictureSide) + (s.rollout ? base64Chars(4 * n2) : 0) + s.layers * s.heads * STATS_BYTES;
}

/**
 * The model grid as an SVG (attn render --view model): per head a PNG data URL of its thumbnail
 * (signature, IHDR, a 256-colour PLTE, zlib and IEND: 860 bytes; the IDAT's rows, side · (side + 1)
 * bytes, and 1% more when nothing deflates) in base64, and its <g> with the statistics' <title>,
 * <image> and frame (measured 460 bytes; 600 allowed). An upper bound: 2,048 random heads at 32²
 * made 6.2 MB (the estimate 6.5 MB); 16,384 heads at 64² made 107 MB (30 s, 3.5 GB; the estimate
 * 120 MB). 16 MiB is 2,200 heads at 64², 7,900 at 16².
 */
export const MODEL_SVG: Budget = { what: 'the model SVG', max: 16 * 1024 * 1024, unit: 'bytes' };

/** Bytes of the model grid's SVG, an upper bound from its shape. */
export const modelSvgBytes = (layers: number, heads: number, thumb: number) => layers * heads * (base64Chars(860 + Math.ceil(1.01 * thumb * (thumb + 1))) + 600);

/**
 * The quadrant's principal components (src/core/linalg/pca.ts) copy every vector they are computed
 * from (each token and its output: n vectors of d_model) as float64 and multiply by that copy at
 * least 40 times. 8,388,608 numbers is 64 MiB and measured 1.6–1.9 s (2,048 × 8,192 took 3.2 s, and
 * 32,768 vectors of 8,192 took 126 s and 5.3 GB); past it the components are computed from every
 * k-th vector, and the plot says so.
 */
export const QUADRANT_PCA: Budget = { what: 'the principal components', max: 8_388_608, unit: 'numbers' };

/**
 * Terms a tooltip of the step-by-step view writes out in full for one dot product (q · k, an
 * embedding times a column of W, the weights times a column of v). It wrote all d_model of them
 * and kept 12: at d_model 4,194,304 the view took 26 s, 4.7 s in formatting and most of 6.8 s of
 * garbage collection. Up to 1,024 terms the tooltip is as it was; past it, the first terms and the
 * largest, and how many are left out.
 */
export const STEP_TERMS: Budget = { what: 'a tooltip\'s sum', max: 1024, unit: 'terms' };

/**
 * The compare view (one panel per input holding the word): per panel its frame and titles, three
 * elements per token (label, bar, value) and four per feature (label, before, after, value), each
 * built by d3 in jsdom for attn render. 16 panels of 600 features (38,000 elements) took 13 s and
 * 0.55 GB to write; 64 panels of 600 took 46 s and 1.6 GB, one panel of 150,000 features (600,000)
 * ran out of memory at 4.5 GB. 24,000 keeps a render within about 10 s on a loaded machine.
 */
export const COMPARE: Budget = { what: 'the compare view', max: 24_000, unit: 'SVG elements' };

/** SVG elements of the compare view of `panels` inputs, the longest of `tokens` tokens, over `features` features. */
export const compareElements = (panels: number, tokens: number, features: number) => panels * (8 + 3 * tokens + 4 * features);

/**
 * Bytes the readers of one model scan may hold inflated together. A deflated .npz is inflated whole
 * by each reader that opens it (15 heads of 4,096² in F16: 503 MB, 578 MB at the reader's peak), so
 * helpers that share the scan multiply it; past this budget fewer of them join, and none when one
 * copy is over half of it.
 */
export const SCAN_INFLATED: Budget = { what: 'the scan\'s inflated copies of the file', max: 512 * 1024 * 1024, unit: 'bytes' };

/** How many of `wanted` helpers may join a scan whose every reader holds `inflated` bytes (none inflated: all of them). */
export function scanHelpersWithin(inflated: number | undefined, wanted: number): number {
  if (!inflated || inflated <= 0) return wanted;
  return Math.max(0, Math.min(wanted, Math.floor(SCAN_INFLATED.max / inflated) - 1));
}
