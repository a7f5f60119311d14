// A model run's worker for the client's tests: the real RunAnswers and cancel flag (as worker.ts
// connects them), over a fake engine whose run takes LAYERS × LAYER_MS and asks `stopped` between
// layers, as the real forward pass does. Its next token says how many times it loaded a model and
// how many runs it stopped, so a test sees that a cancelled run stopped in the worker and the next
// run did not load again; its logit lens is as slow and stops the same way. Started with `--require tsx/cjs` in execArgv.
import { parentPort, workerData } from 'node:worker_threads';
import type { Engine } from '../../src/host/checkpoint-run/engine.js';
import { cancelledBy, RunAnswers } from '../../src/host/checkpoint-run/run-answers.js';
import { RunStopped } from '../../src/core/checkpoint/model.js';
import type { RunRequest, RunWorkerData } from '../../src/protocol/checkpoint-run.js';

export const LAYERS = 20;
export const LAYER_MS = 25;

const pause = new Int32Array(new SharedArrayBuffer(4));
let loads = 0, stops = 0, loadedFolder: string | undefined;

const engine: Engine = {
  run(folder, text, _maxTokens, stopped) {
    const loadMs = loadedFolder === folder ? 0 : 1;
    if (loadedFolder !== folder) { loadedFolder = folder; loads++; }
    for (let layer = 0; layer < LAYERS; layer++) {
      Atomics.wait(pause, 0, 0, LAYER_MS);
      if (stopped?.()) { stops++; throw new RunStopped('the run was stopped'); }
    }
    const attention = [Float32Array.from([1])];
    return {
      model: { type: 'gpt2', layers: 1, heads: 1, kvHeads: 1, dModel: 4, headDim: 4, vocab: 8, contextLength: 8 },
      ids: [0], pieces: [text], tokens: [text], attention, reused: 0,
      next: [{ id: 0, token: `loads ${loads}, stops ${stops}`, p: 1 }], timings: { loadMs, tokenizeMs: 0, forwardMs: LAYERS * LAYER_MS },
    };
  },
  lens: () => { throw new Error('no lens here'); },
  // As slow as a run, and stopped between layers the same way; its token counts the runs stopped so far.
  logitLens(stopped) {
    for (let layer = 0; layer < LAYERS; layer++) {
      Atomics.wait(pause, 0, 0, LAYER_MS);
      if (stopped?.()) { stops++; throw new RunStopped('the run was stopped'); }
    }
    return [[[{ id: 0, token: `stops ${stops}`, p: 1 }]]];
  },
  close: () => {},
};

const answers = new RunAnswers(engine, cancelledBy(new Int32Array((workerData as RunWorkerData).cancel)));
parentPort?.on('message', (r: RunRequest) => {
  const { response, transfer } = answers.answer(r);
  parentPort!.postMessage(response, transfer);
});
