// The desktop's model files: read from disk by their path, each reader a lane of the worker service's
// 'scan' job (a worker thread, dist/scan-worker.js), and the host's cores for the helpers of a scan.
// Desktop only (node:os): the web build has web/model-editor/web-files.ts instead.
import { availableParallelism } from 'node:os';
import type { WorkerService } from '../workers/service.js';
import { sayHostCores, type ModelFiles } from './model-files.js';
import { ModelReader } from './reader.js';

export function diskModelFiles(workers: WorkerService): ModelFiles {
  sayHostCores(availableParallelism());
  return {
    pathOf: (uri) => (uri.scheme === 'file' ? { path: uri.fsPath } : { refused: `${uri.toString()}: Attention Lens reads model files from disk only (this one is on ${uri.scheme})` }),
    newReader: () => new ModelReader(workers),
  };
}
