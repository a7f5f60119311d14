// The worker thread that reads and computes specs, so the extension host's own thread never
// stalls on a big one. One request at a time: { id, text } in; progress lines, then the problems
// and the packed result out, the result's buffer transferred (moved, not copied).
import { parentPort } from 'node:worker_threads';
import { analyzeForWire, linalgForWire } from '../../core/result/analyze-wire.js';
import { folderFiles } from '../../core/files/spec-files.js';
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';

/** Progress is posted at most this often: enough for a moving line, not a flood of messages. */
const PROGRESS_EVERY_MS = 100;

const port = parentPort;
if (port) {
  port.on('message', (request: WorkerRequest) => {
    let last = performance.now();
    const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
    try {
      const files = request.folder ? folderFiles(request.folder) : undefined;
      if (request.want === 'linalg') {
        post({ id: request.id, kind: 'linalg', linalg: linalgForWire(request.text, files) });
        return;
      }
      const { problems, wire, reference } = analyzeForWire(request.text, (done, total) => {
        const now = performance.now();
        if (now - last < PROGRESS_EVERY_MS || done === total) return;
        last = now;
        post({ id: request.id, kind: 'progress', done, total });
      }, files);
      post({ id: request.id, kind: 'done', problems, ...(wire ? { header: wire.header, buffer: wire.buffer } : {}), ...(reference ? { reference } : {}) }, wire ? [wire.buffer] : []);
    } catch (err) {
      post({ id: request.id, kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  });
}
