// The web build's analysis lane: a Web Worker started from the extension's dist/web/analysis-worker.js,
// read through vscode.workspace.fs (the extension may be on a remote server or a CDN) and started from
// a blob: URL. None where the runtime has no Worker: the runner then computes on the host's thread.
import * as vscode from 'vscode';
import type { AnalysisLanes } from '../analysis/runner.js';
import { WebWorkerLane } from './web-worker-lane.js';

export const ANALYSIS_WORKER_SCRIPT = ['dist', 'web', 'analysis-worker.js'] as const;

export function webAnalysisLanes(extensionUri: vscode.Uri): AnalysisLanes | undefined {
  if (typeof Worker !== 'function' || typeof Blob !== 'function' || typeof URL.createObjectURL !== 'function') return undefined;
  return { lane: (_job, options) => new WebWorkerLane(scriptUrl(extensionUri), options) };
}

async function scriptUrl(extensionUri: vscode.Uri): Promise<string> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...ANALYSIS_WORKER_SCRIPT));
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/javascript' }));
}
