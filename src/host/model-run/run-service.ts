// The model run's worker, as a plain object (worker.ts only connects it to its port, so the tests run
// it in-process with a fake engine): 'run' runs the engine and keeps the run's attention as an
// attention file in memory ([layers, heads, n, n] F32 safetensors with the tokens in
// __metadata__.tokens, read through memorySource exactly as a file on disk is read), whose heads the
// views then ask for with the model reader's requests; 'lens' cuts out one head of that run. A run
// whose id `cancelled` names (asked between layers) stops and answers { cancelled: true }, the model
// still loaded for the next.
import { attentionOf } from '../../core/files/open.js';
import { shapeOf } from '../../core/model/scan.js';
import type { AttentionFile } from '../../core/tensors/attention-file.js';
import { memorySource } from '../../core/tensors/source.js';
import { attentionSafetensors } from '../../core/transformer/attention-out.js';
import type { RunResult } from '../../core/transformer/types.js';
import type { RunRequest, RunResponse } from '../../protocol/model-run.js';
import { answerRead, errorReply } from '../model-editor/read-answer.js';
import type { Engine } from './engine.js';

/** The worker's side of the cancel flag: a run of id `id` is cancelled once the flag reaches it. */
export function cancelledBy(flag: Int32Array): (id: number) => boolean {
  return (id) => Atomics.load(flag, 0) >= id;
}

/** A run's attention as the bytes of a safetensors attention file (each layer copied once, into the file). */
export function runAttentionBytes(run: RunResult): Uint8Array {
  const parts = attentionSafetensors(run.attention, run.model.heads, run.ids.length, run.tokens);
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export class RunService {
  private file: AttentionFile | undefined;

  constructor(private readonly engine: Engine, private readonly cancelled: (id: number) => boolean = () => false) {}

  answer(r: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } {
    try {
      switch (r.op) {
        case 'run': {
          this.file?.close();
          this.file = undefined;
          const run = this.engine.run(r.folder, r.text, r.maxTokens, () => this.cancelled(r.id));
          this.file = attentionOf(memorySource('the run', runAttentionBytes(run)));
          const { model, ids, pieces, tokens, next, timings } = run;
          return { response: { id: r.id, ok: true, run: { model, ids, pieces, tokens, next, timings, reused: run.reused ?? 0, shape: shapeOf(this.file) } }, transfer: [] };
        }
        case 'lens': {
          if (!this.file) throw new Error('no run yet');
          const lens = this.engine.lens(r.layer, r.head);
          const arrays = [lens.residual, lens.x, lens.wq, lens.wk, lens.wv, lens.wo, lens.q, lens.k, lens.v, lens.weights];
          return { response: { id: r.id, ok: true, lens }, transfer: arrays.map((a) => a.buffer as ArrayBuffer).filter((b, i, all) => all.indexOf(b) === i) };
        }
        default:
          return answerRead(this.file, r);
      }
    } catch (e) {
      if (e instanceof Error && e.name === 'RunStopped') return { response: { id: r.id, ok: false, cancelled: true, error: 'cancelled', tensorError: false }, transfer: [] };
      return { response: errorReply(r.id, e), transfer: [] };
    }
  }

  close(): void {
    this.file?.close();
    this.engine.close();
  }
}
