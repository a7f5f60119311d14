// The web's model run, as a plain object that answers the run's requests: the desktop's RunAnswers
// over the same engine (model-engine.ts), reading the model folder from memory instead of a disk. The
// folder's files come with a run request (the host read them through workspace.fs: model-files.ts)
// and are kept for the later runs of that folder, so an edit of the text posts no weights again. The
// run worker's script (run-worker.ts) and the host's thread when there is no Worker (thread-lane.ts)
// both answer through it. No kernel threads here: the float32 and float64 products run on this
// thread, in WebAssembly where it validates, else in JS (the sums' order is the same either way).
import { memoryFolderFiles, type MemoryEntry } from '../../../core/checkpoint-files/folder-files.js';
import { readModelFolderFrom } from '../../../core/checkpoint-files/model-folder-read.js';
import { ModelError } from '../../../core/checkpoint/error.js';
import type { RunRequest, RunResponse } from '../../../protocol/checkpoint-run.js';
import { checkpointEngine } from '../../checkpoint-run/model-engine.js';
import { cancelledBy, RunAnswers } from '../../checkpoint-run/run-answers.js';

export class WebRunAnswers {
  private files: { folder: string; entries: ReadonlyMap<string, MemoryEntry> } | undefined;
  private readonly answers: RunAnswers;

  /** `cancel`: the run's cancel flag (every run with an id up to its value stops between layers). */
  constructor(cancel: Int32Array) {
    const engine = checkpointEngine({ openFolder: (folder) => readModelFolderFrom(memoryFolderFiles(folder, this.filesOf(folder))) });
    this.answers = new RunAnswers(engine, cancelledBy(cancel));
  }

  answer(request: RunRequest): { response: RunResponse; transfer: ArrayBuffer[] } {
    return this.answers.answer(this.keepFiles(request));
  }

  /**
   * Keeps the files a run brings (for it and the later runs of its folder); the request without them.
   * A run dropped before it ran (replaced meanwhile) is given here too: the client counts its files sent.
   */
  keepFiles(request: RunRequest): RunRequest {
    if (request.op !== 'run' || !request.files) return request;
    const { files, ...run } = request;
    this.files = { folder: run.folder, entries: new Map(Object.entries(files)) };
    return run;
  }

  private filesOf(folder: string): ReadonlyMap<string, MemoryEntry> {
    // The client sends the files whenever this worker may lack them: missing, they are a bug, said in a line.
    if (this.files?.folder !== folder) throw new ModelError(`${folder}: the model's files did not come with its run; edit the spec to run it again`);
    return this.files.entries;
  }
}
