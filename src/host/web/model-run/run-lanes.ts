// The web's lanes of the 'run' job (client.ts RunLanes): a Web Worker started from the extension's
// dist/web/run-worker.js where the runtime gives one, else the host's own thread (thread-lane.ts).
import type * as vscode from 'vscode';
import type { RunLanes } from '../../checkpoint-run/client.js';
import { webWorkersHere } from '../analysis-lanes.js';
import { WebWorkerLane } from '../web-worker-lane.js';
import { workerScriptUrl } from '../worker-script.js';
import { ThreadRunLane } from './thread-lane.js';

export const RUN_WORKER_SCRIPT = ['dist', 'web', 'run-worker.js'] as const;

/** `workers`: whether to start Web Workers (default: where the runtime has them). */
export function webRunLanes(extensionUri: vscode.Uri, workers = webWorkersHere()): RunLanes {
  return {
    lane: (_job, options) => (workers ? new WebWorkerLane(workerScriptUrl(extensionUri, ...RUN_WORKER_SCRIPT), options, 'run') : new ThreadRunLane(options)),
  };
}
