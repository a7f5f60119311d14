// The web build's model run worker (dist/web/run-worker.js): a Web Worker the web extension host starts
// (web-worker-lane.ts) so a model runs off the host's thread, as the desktop's worker thread does
// (host/checkpoint-run/worker.ts). Its first message is the lane's workerData (the cancel flag); then
// one request at a time, each answered with its buffers transferred.
import type { RunRequest, RunResponse, RunWorkerData } from '../../../protocol/checkpoint-run.js';
import { WebRunAnswers } from './web-run-answers.js';

interface WorkerScope {
  onmessage: ((event: { data: RunRequest | { workerData: RunWorkerData } }) => void) | null;
  postMessage(message: RunResponse, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
let answers: WebRunAnswers | undefined;
scope.onmessage = ({ data }) => {
  if ('workerData' in data) {
    answers = new WebRunAnswers(new Int32Array(data.workerData.cancel));
    return;
  }
  // A lane always sends its workerData first; a worker started without it still answers, never cancelled.
  answers ??= new WebRunAnswers(new Int32Array(1));
  const { response, transfer } = answers.answer(data);
  scope.postMessage(response, transfer);
};
