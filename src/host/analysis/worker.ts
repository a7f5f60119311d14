// The worker thread that reads and computes specs, so the extension host's own thread never
// stalls on a big one. One request at a time ({ id, text, folder, want } in); progress lines, then
// one envelope out (the problems and the result model serialised, its buffer transferred: moved,
// not copied). What it does and keeps between requests is the Analyst's (analyst.ts).
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';
import { Analyst } from './analyst.js';
import { headsThread } from '../../core/threads/heads-thread.js';
import { folderFiles } from '../../core/files/spec-files.js';

/** Progress is posted at most this often: enough for a moving line, not a flood of messages. */
const PROGRESS_EVERY_MS = 100;

const port = parentPort;
if (port) {
  // A big spec's heads on both cores: the second thread's bundle is built beside this one (dist/).
  const analyst = new Analyst(undefined, headsThread(join(__dirname, 'heads-worker.js')), folderFiles);
  port.on('message', (request: WorkerRequest) => {
    let last = performance.now();
    const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
    try {
      const analysis = analyst.answer(request, (done, total) => {
        const now = performance.now();
        if (now - last < PROGRESS_EVERY_MS || done === total) return;
        last = now;
        post({ id: request.id, kind: 'progress', done, total });
      });
      post({ id: request.id, kind: 'done', analysis }, analysis.wire ? [analysis.wire.buffer] : []);
    } catch (err) {
      post({ id: request.id, kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  });
}
