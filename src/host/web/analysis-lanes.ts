// The web build's analysis lane: a Web Worker started from the extension's dist/web/analysis-worker.js
// (worker-script.ts). None where the runtime has no Worker: the runner then computes on the host's thread.
import type * as vscode from 'vscode';
import type { AnalysisLanes } from '../analysis/runner.js';
import { WebWorkerLane } from './web-worker-lane.js';
import { workerScriptUrl } from './worker-script.js';

export const ANALYSIS_WORKER_SCRIPT = ['dist', 'web', 'analysis-worker.js'] as const;

/** Whether the runtime can start a Web Worker from a blob: URL. */
export function webWorkersHere(): boolean {
  return typeof Worker === 'function' && typeof Blob === 'function' && typeof URL.createObjectURL === 'function';
}

export function webAnalysisLanes(extensionUri: vscode.Uri): AnalysisLanes | undefined {
  if (!webWorkersHere()) return undefined;
  return { lane: (_job, options) => new WebWorkerLane(workerScriptUrl(extensionUri, ...ANALYSIS_WORKER_SCRIPT), options, 'analysis') };
}
