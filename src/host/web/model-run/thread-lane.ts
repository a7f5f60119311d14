// The web's run lane where the runtime gives no Worker: the run's requests answered on the host's own
// thread (WebRunAnswers, as the run worker answers them), each after a yield to the event loop, so the
// host draws and answers VS Code between a run and the views' reads. A forward pass itself is not
// split (the core's layers run without a pause), so the thread runs only small models on few tokens
// (THREAD_RUN_LIMITS): the induction example in milliseconds, never a distilgpt2 for tens of seconds.
// A request already cancelled when its turn comes does not run (it is answered as cancelled).
import type { RunRequest, RunResponse, RunWorkerData } from '../../../protocol/checkpoint-run.js';
import { RequestError, Requests } from '../../../protocol/requests.js';
import type { AskOptions, LaneOptions } from '../../workers/service.js';
import type { RunLane } from '../../checkpoint-run/client.js';
import { WebRunAnswers, type WebRunLimits } from './web-run-answers.js';

/**
 * What the host's thread runs: a model of at most 32 MiB of files on at most 256 tokens, since VS Code
 * answers nothing while a pass runs there (a 32 MiB model's pass of 256 tokens is a few GFLOP: about
 * a second in JS), where a Web Worker would run it aside.
 */
export const THREAD_RUN_LIMITS: WebRunLimits = {
  budget: 256 * 2 ** 20,
  files: { most: 32 * 2 ** 20, why: 'VS Code for the Web runs on the extension host\'s own thread where it has no Web Worker, which stops VS Code until the run is done: run this model in VS Code on the desktop' },
  tokens: 256,
};

export class ThreadRunLane<Reply> implements RunLane<Reply> {
  private answers: WebRunAnswers | undefined;
  private readonly requests = new Requests<Reply>();
  private closed: Error | undefined;
  /** Runners made (one: this thread's, which never dies). */
  started = 0;

  /** `limits`: what the thread runs (THREAD_RUN_LIMITS unless a test says). */
  constructor(private readonly options: LaneOptions<Reply> = {}, private readonly limits: WebRunLimits = THREAD_RUN_LIMITS) {}

  get alive(): boolean { return this.answers !== undefined; }

  ask(message: object, options: AskOptions<Reply> = {}): Promise<Reply> {
    if (this.closed) return Promise.reject(this.closed);
    if (!this.answers) {
      const data = this.options.workerData as RunWorkerData | undefined;
      this.answers = new WebRunAnswers(data ? new Int32Array(data.cancel) : new Int32Array(1), this.limits);
      this.started++;
    }
    const answers = this.answers;
    return this.requests.ask((id) => {
      options.sent?.(id);
      const request = { ...message, id } as RunRequest;
      setTimeout(() => {
        if (this.answers !== answers) return; // the lane closed
        // Failed meanwhile (a newer run replaced it): not run, but the files it brought are kept.
        if (!this.requests.isPending(id)) {
          answers.keepFiles(request);
          // Answered all the same: a client without a shared cancel flag waits for its runs' answers.
          if (request.op === 'run') this.receive({ id, ok: false, cancelled: true, error: 'the run was cancelled', tensorError: false });
          return;
        }
        this.receive(answers.answer(request).response);
      }, 0);
    }, options.answers);
  }

  fail(id: number, error: Error): boolean {
    return this.requests.fail(id, error);
  }

  dispose(why: Error = new RequestError('the run was ended')): void {
    this.closed ??= why;
    this.answers = undefined;
    this.requests.close(why);
  }

  private receive(response: RunResponse): void {
    if (this.options.receive) this.options.receive(response, this.requests);
    else this.requests.settle(response.id, response as Reply);
  }
}
