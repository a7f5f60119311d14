// The validated form of a *.attn.json spec. The reader (read.ts) turns text into this, or into
// problems; the math (attention.ts) only ever sees this shape, never raw JSON.
import type { Matrix } from '../linalg/matrix.js';
import type { HeadRole, InitRule, MaskKind, MatrixMode, Role, ScaleWord, ViewName } from '../vocabulary.js';

/** A text range in the spec: zero-based character offset and length. */
export interface Span {
  readonly offset: number;
  readonly length: number;
}

/** A number scale keeps where it was written, so a problem it causes is underlined there. */
export type Scale = { kind: ScaleWord } | { kind: 'number'; value: number; span?: Span };
// The mask and the variance rules (read/init.ts) are named in vocabulary.ts.
export type { InitRule, MaskKind } from '../vocabulary.js';

/** How a generated weight was drawn: normal, mean 0, this variance, from this seed. */
export interface GeneratedWeight {
  readonly init: InitRule | 'variance';
  readonly variance: number;
  readonly seed: number;
}

/**
 * Where a matrix came from: written out in the spec, generated from { "init", "shape", "seed" }
 * (then `generated` says how), or the "identity" shorthand (also the default).
 */
export interface WeightMatrix {
  readonly matrix: Matrix;
  readonly identity: boolean;
  readonly span?: Span;
  readonly generated?: GeneratedWeight;
}

export interface HeadSpec {
  readonly name: string;
  readonly wq: WeightMatrix;
  readonly wk: WeightMatrix;
  readonly wv: WeightMatrix;
  readonly span?: Span;
}

export interface TokenSpec {
  readonly text: string;
  /** The token's embedding: from the spec's table, or written inline in the input. */
  readonly embedding: Float64Array;
  readonly inline: boolean;
  readonly span?: Span;
}

export interface InputSpec {
  readonly name: string;
  readonly tokens: readonly TokenSpec[];
  /** Optional n×n mask of the input itself: mask[i][j] false hides key j from query i. */
  readonly mask?: readonly (readonly boolean[])[];
  readonly span?: Span;
}

/** An axis of the quadrant plot: a named feature or a direction over the features. */
export interface QuadrantAxis {
  readonly label: string;
  readonly direction: Float64Array;
  /** Names of the two ends, low then high. */
  readonly ends?: readonly [string, string];
}

export interface QuadrantOptions {
  readonly x: QuadrantAxis;
  readonly y: QuadrantAxis;
  /** Quadrant names in the usual order: top-right, top-left, bottom-left, bottom-right. */
  readonly quadrants?: readonly [string, string, string, string];
}

export type LearnableRole = HeadRole;

/** "watch should attend to apple": raise weights[query][key] of the training head in one input. */
export interface AttentionTarget {
  readonly kind: 'attention';
  readonly input: number;
  readonly query: number;
  readonly key: number;
  readonly span?: Span;
}

/** "watch should come out as this vector": the training head's output row for the query. */
export interface OutputTarget {
  readonly kind: 'output';
  readonly input: number;
  readonly query: number;
  readonly output: Float64Array;
  readonly span?: Span;
}

/** The "train" section: which head learns which matrices, toward which targets, how fast, how long. */
export interface TrainSpec {
  readonly head: number;
  readonly learn: readonly LearnableRole[];
  readonly targets: readonly (AttentionTarget | OutputTarget)[];
  readonly steps: number;
  readonly rate: number;
  readonly span?: Span;
}

export interface ViewOptions {
  readonly quadrant?: QuadrantOptions;
}

/** Where the panel opens on a spec ("open", read/story.ts): indices into its inputs, heads and the input's tokens. */
export interface SpecOpen {
  readonly view?: ViewName;
  readonly input?: number;
  readonly head?: number | 'all';
  readonly token?: number;
  readonly matrix?: MatrixMode;
  readonly projection?: Role;
}

export interface Spec {
  readonly title?: string;
  /** What the spec is about, in a sentence or two (shown at the top of the panel). */
  readonly description?: string;
  /** Where the panel opens on this spec (a view, and the input, head, token and modes it shows). */
  readonly open?: SpecOpen;
  /** The file name of the spec that comes next in a story, in this spec's folder. */
  readonly next?: string;
  readonly dModel: number;
  /** Names of the d_model dimensions; generated as d0, d1, ... when the spec gives none. */
  readonly features: readonly string[];
  readonly featuresGiven: boolean;
  readonly embeddings: ReadonlyMap<string, Float64Array>;
  readonly inputs: readonly InputSpec[];
  readonly heads: readonly HeadSpec[];
  readonly headsGiven: boolean;
  readonly wo?: WeightMatrix;
  readonly scale: Scale;
  readonly mask: MaskKind;
  readonly views: ViewOptions;
  readonly train?: TrainSpec;
}
