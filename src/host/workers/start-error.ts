// The error of a worker that could not start, apart from the service that starts workers, so a client
// that only recognises it (the analysis runner, also built for the web, where there are no worker
// threads) does not bring node:worker_threads with it.
import { RequestError } from '../../protocol/requests.js';

/** A worker that could not start (its script missing or broken), or a lane of a disposed service. */
export class WorkerStartError extends RequestError {
  override name = 'WorkerStartError';
}
