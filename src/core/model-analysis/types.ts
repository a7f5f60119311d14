// What a run can be asked beyond its attention pattern, and what it answers: the value-weighted
// norms of every head (what a head writes, not only where it looks), the logit lens (what each layer
// would predict), direct logit attribution (which parts of the last position's residual stream make
// the target's logit), head ablation, activation patching and greedy generation. Layers and heads
// are indexed from 0 in these arrays; on the command line and on screen "L.H" counts from 1.
import type { NextToken } from '../checkpoint/types.js';
import type { Floats } from '../checkpoint/precision.js';

export type AblationMode = 'zero' | 'mean';

export const ABLATION_MODES: readonly AblationMode[] = ['zero', 'mean'];

/** A head on screen: layer and head counted from 0. */
export interface HeadRef {
  layer: number;
  head: number;
}

/** What a run is asked for beside its attention. */
export interface AnalysisRequest {
  /** Value-weighted attention: α_ij · ‖(x_j W_V^h + b_V^h) W_O^h‖₂ for every layer, head, query, key. */
  norms?: boolean;
  /** After each layer, every position's residual stream through the final norm and the head: top five. */
  logitLens?: boolean;
  /** The target token (an id, or a text that is one token); contrast likewise. */
  target?: string;
  contrast?: string;
  /** The heads whose outputs (before W_O) are replaced, and by what. `labels` are echoed as given. */
  ablate?: { heads: HeadRef[]; labels: string[]; mode: AblationMode };
  /** The corrupted text of activation patching (needs target and contrast). */
  patchFrom?: string;
  /** Greedy new tokens appended to the text. */
  generate?: number;
}

/** Direct logit attribution at the last position: every part's share of the logit difference. */
export interface Attribution {
  target: number;
  /** null when no contrast was given: the parts then add up to the target's own logit. */
  contrast: number | null;
  /** [layer][head]: each head's output (its value bias included) through its rows of W_O. */
  heads: number[][];
  /** [layer]: the output projection's own bias (0 where there is none). */
  attentionBias: number[];
  /** [layer]: each MLP's output. */
  mlps: number[];
  /** The token embeddings with their positions (and whatever else the embedding adds). */
  embed: number;
  /** The final norm's bias (0 for RMSNorm). */
  normBias: number;
  /** The output head's bias, where the model has one (GPT-J style lm_head.bias). */
  headBias?: number;
  /** Every part added: the logit difference (before a final softcap). */
  total: number;
}

export interface Ablation {
  /** The heads as given ("L.H", counting from 1). */
  heads: string[];
  mode: AblationMode;
  /** The five most likely next tokens of the ablated run. */
  next: NextToken[];
  /** The target − contrast logit difference of the ablated run, and of the run itself. */
  logitDiff: number;
  baseLogitDiff: number;
  /** The target (and contrast) the differences are of: the run's own top token when none was given. */
  target: number;
  contrast: number | null;
}

/** What a run answers beyond its pattern; each only when asked. */
export interface Analyses {
  /** Per layer, [heads, n, n] row-major, in the run's precision. */
  norms?: Floats[];
  /** Per layer, [heads, n]: ‖v_j W_O^h‖ of each head and key (norms[h][i][j] = α_ij times this). */
  valueNorms?: Floats[];
  /** [layer][position]: the five most likely tokens. */
  logitLens?: NextToken[][][];
  attribution?: Attribution;
  ablation?: Ablation;
  /** The ablated run's attention, per layer [heads, n, n] (the editor shows it in place of the run's). */
  ablatedAttention?: Float32Array[];
  /** [layer][head]: (m_patched − m_corrupted) / (m_clean − m_corrupted). */
  patching?: number[][];
  /** The generated tokens, in order (the run's ids end with them). */
  generated?: { id: number; token: string }[];
}
