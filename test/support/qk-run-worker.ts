// A model run's worker for the tests of a run's head maps: worker.ts's RunAnswers and cancel flag
// over the real engine made to keep q and k for every run (so a short text runs as a long one does).
// Started with `--require tsx/cjs` in execArgv.
import { parentPort, workerData } from 'node:worker_threads';
import { realEngine } from '../../src/host/checkpoint-run/engine.js';
import { cancelledBy, RunAnswers } from '../../src/host/checkpoint-run/run-answers.js';
import type { RunRequest, RunWorkerData } from '../../src/protocol/checkpoint-run.js';

const answers = new RunAnswers(realEngine(undefined, { attention: 'qk' }), cancelledBy(new Int32Array((workerData as RunWorkerData).cancel)));

parentPort?.on('message', (r: RunRequest) => {
  const { response, transfer } = answers.answer(r);
  parentPort!.postMessage(response, transfer);
});
