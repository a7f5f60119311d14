// Requests to the model run's worker thread (host/checkpoint-run/worker.ts) and its answers. 'run' loads
// the model folder (kept while the folder stays the same), tokenizes the text, runs the forward pass
// and keeps the run's attention as an in-memory attention file; the model views then read that file
// with the model reader's own requests (pass, head, picture, window, rollout: model-reader.ts), and
// 'lens' cuts out one head's numbers (HeadLens) for the spec views. A run is cancelled without ending
// the worker: the host writes the newest cancelled run's id into an Int32Array on a SharedArrayBuffer
// given to the worker when it starts (RunWorkerData); the worker reads it (Atomics.load) between
// layers, and a run whose id is at most that number stops and answers { cancelled: true }. A run may
// be asked for more than its attention (attribution, patching, generation: RunAnalysisRequest); the
// logit lens is its own request, made when its view first opens; 'step' narrows what the views read
// to a prefix of the run (a step through its generated tokens: attention is causal, so the prefix is
// what a run of those tokens alone gives). A run may also name heads to ablate (the views' toggles):
// the views then read the ablated run's attention; 'valueNorms' answers the norms switch's second factor.
// 'map' answers a big head's map for a run that kept q and k (a file's comes from its scan's pyramid);
// its tiles are the reader's 'tile', computed from q and k.
import type { ModelSummary, MaskedGuess, NextToken, HeadLens } from '../core/checkpoint/types.js';
import type { ModelShape } from '../core/model-attention/scan.js';
import type { HeadMap } from '../core/model-attention/tiles.js';
import type { ScanOptions } from '../core/model-attention/data.js';
import type { ReaderRequest, ReaderResponse } from './model-reader.js';
import type { Ablation, AnalysisRequest, Attribution } from '../core/model-analysis/types.js';

/** What a model spec asks its run for beyond the attention (the logit lens is asked for apart: 'logitLens'). */
export type RunAnalysisRequest = Pick<AnalysisRequest, 'target' | 'contrast' | 'patchFrom' | 'generate'>;

/** What a run reports to the host (the attention stays in the worker, read by the views as a file). */
export interface RunReport {
  model: ModelSummary;
  ids: number[];
  pieces: string[];
  tokens: string[];
  next: NextToken[];
  /** An encoder's guesses at each mask token, and why it guesses none (RunResult's). */
  masked?: MaskedGuess[];
  note?: string;
  timings: { loadMs: number; tokenizeMs: number; forwardMs: number };
  /** Leading positions reused from the previous run (the text's unchanged beginning), not computed again. */
  reused: number;
  /** The run's attention file's shape, as the model reader's 'open' gives it. */
  shape: ModelShape;
  /** Direct logit attribution at the last position (a spec with "target"). */
  attribution?: Attribution;
  /** [layer][head]: the share of the logit difference each head's output brings back (a spec with "patchFrom"). */
  patching?: number[][];
  /** The greedy new tokens (a spec with "generate"): the run's ids and attention end with them. */
  generated?: { id: number; token: string }[];
  /** When heads were ablated: the ablated run's next tokens and logit differences (the attention read is the ablated run's). */
  ablation?: Ablation;
  /** Why what needs every head's n × n (heads to ablate, the norms) is not offered: a run that kept q and k instead. */
  wholeHeads?: string;
}

/** The worker's workerData: `cancel` holds one Int32 (every run with an id up to it is cancelled). */
export interface RunWorkerData {
  /** A SharedArrayBuffer; on a web page that is not cross-origin isolated, an ArrayBuffer (cancels are then not heard). */
  cancel: SharedArrayBuffer | ArrayBuffer;
  /** The folder of the tokenizer cache on disk (the extension's global storage), when there is one. */
  cacheFolder?: string;
}

export type RunRequest =
  | Exclude<ReaderRequest, { op: 'open' } | { op: 'openHeld' } | { op: 'close' }>
  /**
   * `analysis`: the spec's own asks; `ablate`: the heads the views switched off (the editor's, kept across edits);
   * `files`: the web's model folder in memory, by file name ('folder' for an entry that is one), kept by the
   * worker for later runs of the same folder.
   */
  | { id: number; op: 'run'; folder: string; text: string; maxTokens?: number; precision?: 'f32' | 'f64'; analysis?: RunAnalysisRequest; ablate?: NonNullable<AnalysisRequest['ablate']>; files?: Record<string, Uint8Array | 'folder'> }
  | { id: number; op: 'lens'; layer: number; head: number }
  /** The last run's logit lens: computed at the first ask (a pass again), kept until the next run. */
  | { id: number; op: 'logitLens' }
  /** The views read the last run's first `tokens` positions only (a step of its generation); its shape answers. */
  | { id: number; op: 'step'; tokens: number }
  /** ‖v_j W_O^h‖ of every key of one head (the value-weighted norms' second factor), from the norms read with options.norms. */
  | { id: number; op: 'valueNorms'; layer: number; head: number }
  /** A big head's map (levels, sinks, the two colour scales) of a run that kept q and k; null when the run has none for it (heads sent whole, a step, a softmax asked). */
  | { id: number; op: 'map'; layer: number; head: number; options: ScanOptions };

export type RunResponse =
  | ReaderResponse
  | { id: number; ok: true; run: RunReport }
  | { id: number; ok: false; cancelled: true; error: string; tensorError: false }
  | { id: number; ok: true; lens: HeadLens }
  | { id: number; ok: true; logitLens: NextToken[][][] }
  | { id: number; ok: true; valueNorms: Float32Array }
  | { id: number; ok: true; map: HeadMap | null };
