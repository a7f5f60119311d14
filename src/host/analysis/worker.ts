// The worker thread that reads and computes specs, so the extension host's own thread never
// stalls on a big one. One request at a time ({ id, text, folder, want } in); progress lines, then
// one envelope out (the problems and the result model serialised, its buffer transferred: moved,
// not copied). What it does and keeps between requests is the Analyst's (analyst.ts).
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { WorkerRequest } from '../../protocol/analysis-worker.js';
import { Analyst } from './analyst.js';
import { answerRequest } from './answer.js';
import { headsThread } from '../../core/threads/heads-thread.js';
import { folderFiles } from '../../core/files/spec-files.js';

const port = parentPort;
if (port) {
  // A big spec's heads on both cores: the second thread's bundle is built beside this one (dist/).
  const analyst = new Analyst(undefined, headsThread(join(__dirname, 'heads-worker.js')), folderFiles);
  port.on('message', (request: WorkerRequest) => answerRequest(analyst, request, (reply, transfer = []) => port.postMessage(reply, transfer)));
}
