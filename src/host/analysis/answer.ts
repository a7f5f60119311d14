// One request answered the way both analysis workers answer it (the desktop's worker thread,
// worker.ts; the web build's Web Worker, host/web/analysis-worker.ts): progress lines at most every
// PROGRESS_EVERY_MS, then one envelope, its buffer transferred; a failure as its message.
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';
import type { Analyst } from './analyst.js';

/** Progress is posted at most this often: enough for a moving line, not a flood of messages. */
export const PROGRESS_EVERY_MS = 100;

export function answerRequest(analyst: Analyst, request: WorkerRequest, post: (reply: WorkerReply, transfer?: ArrayBuffer[]) => void): void {
  let last = performance.now();
  try {
    const analysis = analyst.answer(request, (done, total) => {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS || done === total) return;
      last = now;
      post({ id: request.id, kind: 'progress', done, total });
    });
    post({ id: request.id, kind: 'done', analysis }, analysis.wire ? [analysis.wire.buffer as ArrayBuffer] : []);
  } catch (err) {
    post({ id: request.id, kind: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
}
