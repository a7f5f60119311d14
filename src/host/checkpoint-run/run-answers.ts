// The model run's worker, as a plain object (worker.ts only connects it to its port, so the tests run
// it in-process with a fake engine): 'run' runs the engine and keeps the run's attention as the
// forward pass left it (per layer a float32 [heads, n, n]), an attention source the views' requests
// read in place (attention-source.ts): a 1,024-token GPT-2 small run is 600 MB of attention, held
// once, never copied into a file's bytes. 'lens' cuts out one head of that run. A run
// whose id `cancelled` names (asked between layers) stops and answers { cancelled: true }, the model
// still loaded for the next.
import { shapeOf } from '../../core/model-attention/scan.js';
import { layersAttention, type AttentionSource } from '../../core/tensors/attention-source.js';
import type { RunRequest, RunResponse } from '../../protocol/checkpoint-run.js';
import { splitWords, splitWordsNote } from '../../core/tokenizer/split-words.js';
import { answerRead, errorReply } from '../model-editor/read-answer.js';
import type { Engine } from './engine.js';
import { prefixAttention } from './prefix-attention.js';

/** The worker's side of the cancel flag: a run of id `id` is cancelled once the flag reaches it. */
export function cancelledBy(flag: Int32Array): (id: number) => boolean {
  return (id) => Atomics.load(flag, 0) >= id;
}

export class RunAnswers {
  /** The latest run's attention: its own arrays, dropped (with the run) when the next run begins. */
  private attention: AttentionSource | undefined;
  /** The latest run's own arrays and what its views are cut from (a step through its generation). */
  private last: { attention: Float32Array[]; heads: number; n: number; tokens: string[]; note: string | undefined } | undefined;

  constructor(private readonly engine: Engine, private readonly cancelled: (id: number) => boolean = () => false) {}

  answer(r: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } {
    try {
      switch (r.op) {
        case 'run': {
          this.attention?.close();
          this.attention = undefined;
          this.last = undefined;
          const run = this.engine.run(r.folder, r.text, r.maxTokens, () => this.cancelled(r.id), r.precision, r.analysis);
          // A word the tokenizer spelled out is said with the model views' warnings (the shape's notes).
          const note = splitWordsNote(splitWords(run.tokens));
          this.last = { attention: run.attention, heads: run.model.heads, n: run.ids.length, tokens: run.tokens, note };
          this.attention = noted(layersAttention('the run', run.attention, run.model.heads, run.ids.length, run.tokens), note);
          const { model, ids, pieces, tokens, next, timings, masked } = run;
          const guesses = { ...(masked ? { masked } : {}), ...(run.note !== undefined ? { note: run.note } : {}) };
          const { attribution, patching, generated } = run.analyses ?? {};
          const analyses = { ...(attribution ? { attribution } : {}), ...(patching ? { patching } : {}), ...(generated ? { generated } : {}) };
          return { response: { id: r.id, ok: true, run: { model, ids, pieces, tokens, next, ...guesses, timings, reused: run.reused ?? 0, shape: shapeOf(this.attention), ...analyses } }, transfer: [] };
        }
        case 'logitLens': {
          if (!this.last) throw new Error('no run yet');
          if (!this.engine.logitLens) throw new Error('this runner has no logit lens');
          return { response: { id: r.id, ok: true, logitLens: this.engine.logitLens(() => this.cancelled(r.id)) }, transfer: [] };
        }
        case 'step': {
          const last = this.last;
          if (!last) throw new Error('no run yet');
          this.attention?.close();
          this.attention = noted(prefixAttention('the run', last.attention, last.heads, last.n, r.tokens, last.tokens), last.note);
          return { response: { id: r.id, ok: true, shape: shapeOf(this.attention) }, transfer: [] };
        }
        case 'lens': {
          if (!this.attention) throw new Error('no run yet');
          const lens = this.engine.lens(r.layer, r.head);
          const arrays = [lens.residual, lens.x, lens.wq, lens.wk, lens.wv, lens.wo, lens.q, lens.k, lens.v, lens.weights];
          return { response: { id: r.id, ok: true, lens }, transfer: arrays.map((a) => a.buffer as ArrayBuffer).filter((b, i, all) => all.indexOf(b) === i) };
        }
        default:
          return answerRead(this.attention, r);
      }
    } catch (e) {
      if (e instanceof Error && e.name === 'RunStopped') return { response: { id: r.id, ok: false, cancelled: true, error: 'cancelled', tensorError: false }, transfer: [] };
      return { response: errorReply(r.id, e), transfer: [] };
    }
  }

  close(): void {
    this.attention?.close();
    this.engine.close();
  }
}

/** The source with `note` among its notes (the warnings the views show). */
function noted(source: AttentionSource, note: string | undefined): AttentionSource {
  return note ? { ...source, notes: [...(source.notes ?? []), note] } : source;
}
