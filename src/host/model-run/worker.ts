// The model run's worker thread: the forward pass of a real checkpoint takes from milliseconds to
// seconds, which would stall the extension host, so it runs here (one worker per model spec shown),
// and so do the model views' reads of its attention. A newer edit cancels an older run by ending
// this worker (client.ts). Bundled by scripts/build.mjs as dist/model-run-worker.js.
import { parentPort } from 'node:worker_threads';
import type { RunRequest } from '../../protocol/model-run.js';
import { realEngine } from './engine.js';
import { RunService } from './run-service.js';

const service = new RunService(realEngine());

parentPort?.on('message', (r: RunRequest) => {
  const { response, transfer } = service.answer(r);
  parentPort!.postMessage(response, transfer);
});
