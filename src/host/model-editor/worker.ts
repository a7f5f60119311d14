// The model editor's reader, in a worker thread: the streaming pass over a model file (seconds at
// 4 × 8 × 4,096) and the rollout (n³ per layer) would otherwise stall the extension host. The
// worker holds one open file (or attention the host holds in shared memory, a notebook output's,
// read in place) and answers one request at a time (several workers share a scan, each a range of
// heads); results go back as transferred ArrayBuffers. What it holds and answers is FileAnswers'
// (file-answers.ts, which the web build's reader shares); this file gives it the disk.
// Bundled by scripts/build.mjs as dist/scan-worker.js.
import { parentPort } from 'node:worker_threads';
import { openAttention } from '../../core/files/open.js';
import { FileAnswers, type FileRequest } from './file-answers.js';

const answers = new FileAnswers(openAttention);

parentPort?.on('message', (r: FileRequest) => {
  const { response, transfer } = answers.answer(r);
  parentPort!.postMessage(response, transfer);
});
