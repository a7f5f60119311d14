// Limits that keep one spec from freezing the editor: the work the compute will do, and the
// attention cells (tokens² × heads) it must hold in memory and send to the panel.
import type { HeadSpec, InputSpec } from '../spec.js';

/** Multiply-adds one spec may ask for; past this the reader refuses instead of hanging. */
export const MAX_WORK = 2e9;
/** Attention cells over all inputs and heads: each holds a score, a scaled score and a weight. 4 heads of 1,024 tokens. */
export const MAX_CELLS = 4 * 1024 * 1024;

/**
 * Numbers the inputs' vectors hold together (tokens × d_model over all inputs): each input's x is
 * made anew for the compute, and q, k, v and the views follow it. 2^25 (256 MB of float64) keeps the
 * largest spec within a few seconds; 256 inputs × 128 tokens at d_model 8,192 (268 million, from a
 * 1 KB spec and an embeddings file) took 30 s and 3.2 GB to draw.
 */
export const MAX_INPUT_NUMBERS = 2 ** 25;

/** Heads one spec may have: real models have up to a few dozen per layer; a teaching spec far fewer. */
export const MAX_HEADS = 256;
/**
 * Numbers all "identity" (or omitted, hence identity) weight matrices may hold together. An identity
 * is d_model² numbers written by the reader, not by the user: a 3 KB spec could otherwise ask for
 * gigabytes. Explicit matrices are bounded by the file size already.
 */
export const MAX_IDENTITY_CELLS = 4 * 1024 * 1024;

/** The message when identity matrices of these sizes would hold too many numbers, else undefined. */
export function identityOverLimit(sizes: readonly number[], what: string): string | undefined {
  let cells = 0;
  for (const n of sizes) cells += n * n;
  if (cells <= MAX_IDENTITY_CELLS) return undefined;
  return `${what} would hold ${cells.toLocaleString('en-US')} numbers, over the ${MAX_IDENTITY_CELLS.toLocaleString('en-US')} limit: ` +
    'write narrower W_Q, W_K and W_V (d_k columns) instead of "identity" at this d_model';
}

export function estimateWork(inputs: readonly InputSpec[], heads: readonly HeadSpec[], dModel: number): number {
  let work = 0;
  for (const input of inputs) {
    const n = input.tokens.length;
    for (const h of heads) {
      const dk = h.wq.matrix.cols, dv = h.wv.matrix.cols;
      work += n * dModel * (2 * dk + dv) + n * n * (dk + dv);
    }
  }
  return work;
}

export function countCells(inputs: readonly InputSpec[], heads: number): number {
  return inputs.reduce((s, input) => s + input.tokens.length ** 2 * heads, 0);
}

/** The message for the first limit the spec passes, or undefined when it fits. */
export function overLimit(inputs: readonly InputSpec[], heads: readonly HeadSpec[], dModel: number): string | undefined {
  const tokens = inputs.reduce((s, input) => s + input.tokens.length, 0);
  if (tokens * dModel > MAX_INPUT_NUMBERS) {
    return `the inputs' vectors would hold ${(tokens * dModel).toLocaleString('en-US')} numbers (${tokens.toLocaleString('en-US')} tokens over ${inputs.length} input(s) × d_model ${dModel.toLocaleString('en-US')}), ` +
      `over the ${MAX_INPUT_NUMBERS.toLocaleString('en-US')} limit: use fewer inputs or tokens, or a smaller d_model`;
  }
  const cells = countCells(inputs, heads.length);
  if (cells > MAX_CELLS) {
    return `this spec has ${cells.toLocaleString('en-US')} attention cells (tokens² × heads, over all inputs), ` +
      `over the ${MAX_CELLS.toLocaleString('en-US')} limit: use fewer tokens or heads`;
  }
  const work = estimateWork(inputs, heads, dModel);
  if (work > MAX_WORK) {
    return `this spec needs about ${(work / 1e9).toFixed(1)} billion multiply-adds, over the ${MAX_WORK / 1e9} billion limit: ` +
      'use fewer tokens, heads or dimensions';
  }
  return undefined;
}
