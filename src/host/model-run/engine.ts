// What the model run's worker asks of the runner (core/transformer, core/files' model folder, the
// tokenizer): run a text through the model in a folder, and cut one head of the last run out for the
// lens. The folder's model is loaded once and kept while the folder stays the same, so an edit of the
// text costs a forward pass, not a load. Kept behind this small interface so the worker's service is
// tested with a fake engine, and the runner's own API can change without touching the host.
import type { HeadLens, RunResult } from '../../core/transformer/types.js';

export interface Engine {
  /** Loads `folder` (unless it is the one loaded) and runs `text`; throws with one line naming the file or tensor at fault. */
  run(folder: string, text: string, maxTokens?: number): RunResult;
  /** The numbers of one head of the last run. */
  lens(layer: number, head: number): HeadLens;
  close(): void;
}

/** The runner of real checkpoints (wired when the forward pass lands). */
export function realEngine(): Engine {
  const missing = () => { throw Object.assign(new Error('this build of Attention Lens has no model runner yet'), { name: 'ModelError' }); };
  return { run: missing, lens: missing, close: () => {} };
}
