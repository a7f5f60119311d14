// The web's lanes of the 'run' job (client.ts RunLanes): a Web Worker started from the extension's
// dist/web/run-worker.js where the runtime gives one, else the host's own thread (thread-lane.ts). A
// worker that cannot start (its script not read, or broken) leaves the lane on the host's thread from
// then on, the request it failed asked again there, as the analysis runner does (said once in the log).
import type * as vscode from 'vscode';
import type { RunLane, RunLanes } from '../../checkpoint-run/client.js';
import type { AskOptions, LaneOptions } from '../../workers/service.js';
import { WorkerStartError } from '../../workers/start-error.js';
import { webWorkersHere } from '../analysis-lanes.js';
import { WebWorkerLane } from '../web-worker-lane.js';
import { workerScriptUrl } from '../worker-script.js';
import { ThreadRunLane } from './thread-lane.js';

export const RUN_WORKER_SCRIPT = ['dist', 'web', 'run-worker.js'] as const;

/** A Web Worker's lane that moves to the host's thread for good once its worker cannot start. */
export class FallbackRunLane<Reply> implements RunLane<Reply> {
  private thread: ThreadRunLane<Reply> | undefined;
  /** Whether the worker has answered a request (it started). */
  private proven = false;

  constructor(private readonly worker: RunLane<Reply>, private readonly options: LaneOptions<Reply>, private readonly warn: (line: string) => void) {}

  get started(): number { return this.worker.started + (this.thread?.started ?? 0); }
  get alive(): boolean { return this.thread ? this.thread.alive : this.worker.alive; }

  async ask(message: object, options: AskOptions<Reply> = {}): Promise<Reply> {
    if (this.thread) return this.thread.ask(message, options);
    // Until the worker has answered once, what a request brings is copied, not moved: a worker that
    // cannot start would take the buffers with it, and the request is asked again on the thread.
    const { transfer, ...copied } = options;
    try {
      const reply = await this.worker.ask(message, this.proven || !transfer ? options : copied);
      this.proven = true;
      return reply;
    } catch (e) {
      // Every request the worker failed to start for is asked again on the thread, not only the first.
      if (!(e instanceof WorkerStartError)) throw e;
      if (!this.thread) {
        this.warn(`${e.message}: running the model on the extension host's thread instead`);
        this.worker.dispose(e);
        this.thread = new ThreadRunLane(this.options);
      }
      return this.thread.ask(message, options);
    }
  }

  fail(id: number, error: Error): boolean {
    return this.thread ? this.thread.fail(id, error) : this.worker.fail(id, error);
  }

  dispose(why?: Error): void {
    this.worker.dispose(why);
    this.thread?.dispose(why);
  }
}

/** `workers`: whether to start Web Workers (default: where the runtime has them); `warn`: the log's warning. */
export function webRunLanes(extensionUri: vscode.Uri, warn: (line: string) => void, workers = webWorkersHere()): RunLanes {
  return {
    lane: (_job, options) => (workers
      ? new FallbackRunLane(new WebWorkerLane(workerScriptUrl(extensionUri, ...RUN_WORKER_SCRIPT), options, 'run'), options, warn)
      : new ThreadRunLane(options)),
  };
}
