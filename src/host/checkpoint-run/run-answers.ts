// The model run's worker, as a plain object (worker.ts only connects it to its port, so the tests run
// it in-process with a fake engine): 'run' runs the engine and keeps the run's attention as the
// forward pass left it (per layer a float32 [heads, n, n]), an attention source the views' requests
// read in place (attention-source.ts): a 1,024-token GPT-2 small run is 600 MB of attention, held
// once, never copied into a file's bytes. A run that names heads to ablate keeps the ablated run's
// attention instead (the views show it) and reports its next tokens; reads with options.norms read
// the run's value-weighted norms (run-norms.ts). 'lens' cuts out one head of that run. A run
// whose id `cancelled` names (asked between layers) stops and answers { cancelled: true }, the model
// still loaded for the next.
import { shapeOf } from '../../core/model-attention/scan.js';
import { layersAttention, type AttentionSource } from '../../core/tensors/attention-source.js';
import type { RunRequest, RunResponse } from '../../protocol/checkpoint-run.js';
import { splitWords, splitWordsNote } from '../../core/tokenizer/split-words.js';
import { answerRead, errorReply } from '../model-editor/read-answer.js';
import type { Engine } from './engine.js';
import { layersOfFloats, RunNorms } from './run-norms.js';

/** The worker's side of the cancel flag: a run of id `id` is cancelled once the flag reaches it. */
export function cancelledBy(flag: Int32Array): (id: number) => boolean {
  return (id) => Atomics.load(flag, 0) >= id;
}

export class RunAnswers {
  /** The latest run's attention: its own arrays, dropped (with the run) when the next run begins. */
  private attention: AttentionSource | undefined;
  /** The latest run's value-weighted norms, computed when first read (options.norms). */
  private readonly norms: RunNorms;

  constructor(private readonly engine: Engine, private readonly cancelled: (id: number) => boolean = () => false) {
    this.norms = new RunNorms(engine);
  }

  answer(r: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } {
    try {
      switch (r.op) {
        case 'run': {
          this.attention?.close();
          this.attention = undefined;
          this.norms.ran(undefined);
          const ablate = r.ablate && r.ablate.heads.length > 0 ? { ablate: r.ablate } : undefined;
          const run = this.engine.run(r.folder, r.text, r.maxTokens, () => this.cancelled(r.id), r.precision, ablate);
          // A word the tokenizer spelled out is said with the model views' warnings (the shape's notes).
          const note = splitWordsNote(splitWords(run.tokens));
          // Heads ablated: the views read the ablated run's attention in place of the run's.
          const ablated = ablate ? run.analyses?.ablatedAttention : undefined;
          if (ablate && (!ablated || !run.analyses?.ablation)) throw new Error('the model run did not ablate the heads asked for');
          const attention = ablated
            ? layersOfFloats('the ablated run', ablated, run.model.heads, run.ids.length, run.tokens)
            : layersAttention('the run', run.attention, run.model.heads, run.ids.length, run.tokens);
          this.norms.ran({ folder: r.folder, text: r.text, maxTokens: r.maxTokens, precision: r.precision, layers: run.attention.length, heads: run.model.heads, n: run.ids.length, tokens: run.tokens });
          this.attention = note ? { ...attention, notes: [...(attention.notes ?? []), note] } : attention;
          const { model, ids, pieces, tokens, next, timings, masked } = run;
          const guesses = { ...(masked ? { masked } : {}), ...(run.note !== undefined ? { note: run.note } : {}) };
          const ablation = ablate ? { ablation: run.analyses!.ablation! } : {};
          return { response: { id: r.id, ok: true, run: { model, ids, pieces, tokens, next, ...guesses, timings, reused: run.reused ?? 0, shape: shapeOf(this.attention), ...ablation } }, transfer: [] };
        }
        case 'lens': {
          if (!this.attention) throw new Error('no run yet');
          const lens = this.engine.lens(r.layer, r.head);
          const arrays = [lens.residual, lens.x, lens.wq, lens.wk, lens.wv, lens.wo, lens.q, lens.k, lens.v, lens.weights];
          return { response: { id: r.id, ok: true, lens }, transfer: arrays.map((a) => a.buffer as ArrayBuffer).filter((b, i, all) => all.indexOf(b) === i) };
        }
        case 'valueNorms': {
          if (!this.attention) throw new Error('no run yet');
          const valueNorms = this.norms.valueNorms(r.layer, r.head, () => this.cancelled(r.id));
          return { response: { id: r.id, ok: true, valueNorms }, transfer: [valueNorms.buffer as ArrayBuffer] };
        }
        default:
          // The norms switch: the same reads of the norms, computed at the first (the rollout is of weights only).
          if (r.options.norms && r.op !== 'rollout' && this.attention) return answerRead(this.norms.source(() => this.cancelled(r.id)), r);
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
