// The web build's analysis worker: a Web Worker (no Node), started by the web extension host
// (web-worker-lane.ts) so a spec is read and computed off the host's thread, as the desktop's
// worker thread does (host/analysis/worker.ts): one request at a time in, progress lines, then one
// envelope out, its buffer transferred. What it does and keeps between requests is the Analyst's.
// A spec's tensor files are not read here (no disk): each says so at its "file" (no-disk-files.ts).
import type { WorkerReply, WorkerRequest } from '../../protocol/analysis-worker.js';
import { Analyst } from '../analysis/analyst.js';
import { answerRequest } from '../analysis/answer.js';
import { filesNotRead } from './no-disk-files.js';

interface WorkerScope {
  onmessage: ((event: { data: WorkerRequest }) => void) | null;
  postMessage(message: WorkerReply, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
const analyst = new Analyst(undefined, undefined, filesNotRead);
scope.onmessage = ({ data: request }) => answerRequest(analyst, request, (reply, transfer = []) => scope.postMessage(reply, transfer));
