// A worker for the worker service's tests (src/host/workers/service.ts): it answers { id, op } with
// its thread id and what it was started with, so a test tells one worker from its replacement, and
// 'exit' ends it as a crash would. Started with `--require tsx/cjs` in execArgv.
import { parentPort, threadId, workerData } from 'node:worker_threads';

parentPort?.on('message', (m: { id: number; op: 'echo' | 'exit' | 'silent'; value?: unknown }) => {
  if (m.op === 'exit') process.exit(3);
  if (m.op === 'silent') return; // never answers: the request waits until the worker goes
  parentPort!.postMessage({ id: m.id, value: m.value, threadId, workerData });
});
