// What a forward pass (forward.ts) shows to a caller that looks inside it, as it goes: the analyses
// beyond the pattern (core/model-analysis) read the residual stream, each head's weights and values,
// the heads' outputs before W_O and each sublayer's output, and rewrite the heads' outputs to ablate
// or patch a head. The pass hands over its own arrays, valid only during the call (it reuses and
// mutates them): a probe copies what it keeps. Rows are every position: a probed pass reuses nothing.
import type { Floats, Rows } from './precision.js';

export interface ForwardProbe {
  /** The residual stream entering `layer` ([n, dModel]); layer = the number of layers: after the last one, before the final norm. */
  layerInput?(layer: number, x: Rows): void;
  /** The layer's values [n, kvHeads · headDim], their bias added. */
  values?(layer: number, v: Rows): void;
  /** One query head's weights [n, n] (query rows, key columns), in the run's precision. */
  headWeights?(layer: number, head: number, weights: Floats): void;
  /** Every head's output before W_O, side by side [n, heads · headDim]; may be rewritten in place. */
  headOutputs?(layer: number, z: Rows): void;
  /** The attention's output, z · W_O plus its bias, before any norm the family puts after it. */
  attentionOutput?(layer: number, out: Rows): void;
  /** The MLP's output, before any norm the family puts after it. */
  mlpOutput?(layer: number, out: Rows): void;
}
