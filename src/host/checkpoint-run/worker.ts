// The model run's worker thread: the forward pass of a real checkpoint takes from milliseconds to
// seconds, which would stall the extension host, so it runs here (one worker per model spec shown),
// and so do the model views' reads of its attention. A newer edit cancels an older run through the
// shared cancel flag, read between layers (client.ts); the worker and its loaded model stay. Bundled
// by scripts/build.mjs as dist/run-worker.js.
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { installProductHelper } from '../../core/kernels/product-helper.js';
import { kernelThreads } from '../../core/threads/kernel-thread.js';
import type { RunRequest, RunWorkerData } from '../../protocol/checkpoint-run.js';
import { folderStore } from '../../core/files/tokenizer-store.js';
import { realEngine } from './engine.js';
import { cancelledBy, RunAnswers } from './run-answers.js';

// The forward's float32 products on every core: their workers' bundle is built beside this one (dist/).
installProductHelper(kernelThreads(join(__dirname, 'kernel-worker.js')));

const data = workerData as RunWorkerData;
// The tokenizer cache in the extension's global storage (none with ATTN_CACHE_DIR=off, as for the CLI).
const store = data.cacheFolder !== undefined && process.env.ATTN_CACHE_DIR !== 'off' ? folderStore(data.cacheFolder) : undefined;
const answers = new RunAnswers(realEngine(store), cancelledBy(new Int32Array(data.cancel)));

parentPort?.on('message', (r: RunRequest) => {
  const { response, transfer } = answers.answer(r);
  parentPort!.postMessage(response, transfer);
});
