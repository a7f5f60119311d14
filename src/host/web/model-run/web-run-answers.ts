// The web's model run, as a plain object that answers the run's requests: the desktop's RunAnswers
// over the same engine (model-engine.ts), reading the model folder from memory instead of a disk. The
// folder's files come with a run request (the host read them through workspace.fs: model-files.ts)
// and are kept for the later runs of that folder, so an edit of the text posts no weights again; files
// that come anew (the model's files changed, or another model) replace the kept ones and the loaded
// model with them. The run worker's script (run-worker.ts) and the host's thread when there is no
// Worker (thread-lane.ts, with tighter limits) both answer through it. No kernel threads here: the
// float32 and float64 products run on this thread, in WebAssembly where it validates, else in JS (the
// sums' order is the same either way).
import { memoryFolderFiles, type MemoryEntry } from '../../../core/checkpoint-files/folder-files.js';
import { readModelFolderFrom } from '../../../core/checkpoint-files/model-folder-read.js';
import { ModelError } from '../../../core/checkpoint/error.js';
import type { RunRequest, RunResponse } from '../../../protocol/checkpoint-run.js';
import { checkpointEngine, type Engine } from '../../checkpoint-run/model-engine.js';
import { cancelledBy, RunAnswers } from '../../checkpoint-run/run-answers.js';

/**
 * The bytes a run on the web may take, its weights as stored included: a browser tab is given far
 * less than the desktop's 3 GiB run budget, and the files themselves (up to 512 MiB) are the weights.
 */
export const WEB_RUN_BYTES = 2 ** 30;

/** What a web run may take: its budget, and (on the host's own thread) a smaller model and fewer tokens. */
export interface WebRunLimits {
  /** The bytes a run may take, weights included (WEB_RUN_BYTES unless said). */
  budget?: number;
  /** The most bytes of a model's files run here, and the sentence saying why past it. */
  files?: { most: number; why: string };
  /** The most tokens a run takes here: the spec's maxTokens lowered to it (the views show the tokens run). */
  tokens?: number;
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export class WebRunAnswers {
  private files: { folder: string; entries: ReadonlyMap<string, MemoryEntry> } | undefined;
  private readonly engine: Engine;
  private readonly answers: RunAnswers;

  /** `cancel`: the run's cancel flag (every run with an id up to its value stops between layers). */
  constructor(cancel: Int32Array, private readonly limits: WebRunLimits = {}) {
    const budget = limits.budget ?? WEB_RUN_BYTES;
    this.engine = budgetSaid(checkpointEngine({ openFolder: (folder) => readModelFolderFrom(memoryFolderFiles(folder, this.filesOf(folder))) }, { budget }), budget);
    this.answers = new RunAnswers(this.engine, cancelledBy(cancel));
  }

  answer(request: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } {
    const run = this.keepFiles(request);
    const { tokens } = this.limits;
    if (run.op !== 'run' || tokens === undefined || (run.maxTokens !== undefined && run.maxTokens <= tokens)) return this.answers.answer(run);
    const answer = this.answers.answer({ ...run, maxTokens: tokens });
    // Cut here, not by the spec: the view's note says so.
    const { response } = answer;
    if (response.ok && 'run' in response && response.run.ids.length >= tokens) {
      const cut = `VS Code for the Web ran the first ${tokens} tokens only: without a Web Worker the run is on the extension host's own thread`;
      response.run.note = response.run.note ? `${response.run.note}; ${cut}` : cut;
    }
    return answer;
  }

  /**
   * Keeps the files a run brings (for it and the later runs of its folder); the request without them.
   * A run dropped before it ran (replaced meanwhile) is given here too: the client counts its files sent.
   * Files that come are new (the client sends them only when this side may lack them): the model
   * loaded from the earlier ones is closed, so the next run reads these.
   */
  keepFiles(request: RunRequest): RunRequest {
    if (request.op !== 'run' || !request.files) return request;
    const { files, ...run } = request;
    this.engine.close();
    this.files = { folder: run.folder, entries: new Map(Object.entries(files)) };
    return run;
  }

  private filesOf(folder: string): ReadonlyMap<string, MemoryEntry> {
    // The client sends the files whenever this worker may lack them: missing, they are a bug, said in a line.
    if (this.files?.folder !== folder) throw new ModelError(`${folder}: the model's files did not come with its run; edit the spec to run it again`);
    const most = this.limits.files;
    if (most) {
      const bytes = [...this.files.entries.values()].reduce((sum, e) => sum + (e === 'folder' ? 0 : e.byteLength), 0);
      if (bytes > most.most) throw new ModelError(`${folder}: the model's files are ${megabytes(bytes)}, over the ${megabytes(most.most)} run ${most.why}`);
    }
    return this.files.entries;
  }
}

/** The engine, its budget's refusal saying whose budget it is (the core's sentence names only the bytes). */
function budgetSaid(engine: Engine, budget: number): Engine {
  return {
    ...engine,
    run(...args) {
      try {
        return engine.run(...args);
      } catch (e) {
        if (e instanceof ModelError && /over the budget of /.test(e.message)) {
          throw new ModelError(`${e.message} (the ${megabytes(budget)} VS Code for the Web gives a model run, weights included; VS Code on the desktop gives more)`);
        }
        throw e;
      }
    },
  };
}
