// The web build's analysis worker: a Web Worker (no Node), started by the web extension host
// (web-worker-lane.ts) so a spec is read and computed off the host's thread, as the desktop's
// worker thread does (host/analysis/worker.ts): one request at a time in, progress lines, then one
// envelope out, its buffer transferred. What it does and keeps between requests is the Analyst's.
// A spec's tensor files are not read here (no disk): each says so at its "file" (no-disk-files.ts).
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';
import { Analyst } from '../analysis/analyst.js';
import { filesNotRead } from './no-disk-files.js';

/** Progress is posted at most this often: enough for a moving line, not a flood of messages. */
const PROGRESS_EVERY_MS = 100;

interface WorkerScope {
  onmessage: ((event: { data: WorkerRequest }) => void) | null;
  postMessage(message: WorkerReply, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
const analyst = new Analyst(undefined, undefined, filesNotRead);
scope.onmessage = ({ data: request }) => {
  let last = performance.now();
  const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => scope.postMessage(reply, transfer);
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
};
// The first word: the script loaded. The lane counts a worker that errs before it as one that cannot start.
scope.postMessage({ id: 0, kind: 'progress', done: 0, total: 0 }, []);
