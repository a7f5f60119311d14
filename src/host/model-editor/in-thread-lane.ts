// A model reader's lane where the runtime gives no worker (the web extension host without Web
// Workers): its requests are answered on the host's own thread, one at a time, each after the events
// already waiting (a yield), so the editor, the webviews' messages and the rest of VS Code stay live
// between the slices of a scan. A scan asks in ranges of about four million weights (scan.ts), so a
// slice is tens of milliseconds. The same FileAnswers as a worker's: the same numbers.
import { RequestError, Requests } from '../../protocol/requests.js';
import type { AskOptions, LaneOptions } from '../workers/service.js';
import type { FileAnswers, FileRequest } from './file-answers.js';
import type { ReaderLane } from './reader.js';

/** Lets the events waiting run first: a timer's turn (setTimeout 0), not a microtask, so input and messages come in between. */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export class InThreadLane<Reply> implements ReaderLane<Reply> {
  private readonly requests = new Requests<Reply>();
  private closed: Error | undefined;
  /** The request answered last (each waits for the one before: one at a time, as a worker answers). */
  private queue: Promise<void> = Promise.resolve();
  /** Slices answered (tests count the yields by it). */
  answered = 0;

  constructor(private readonly answers: FileAnswers, private readonly options: LaneOptions<Reply> = {}, private readonly yieldNow: () => Promise<void> = yieldToEvents) {}

  ready(): boolean { return !this.closed; }

  ask(message: object, options: AskOptions<Reply> = {}): Promise<Reply> {
    if (this.closed) return Promise.reject(this.closed);
    return this.requests.ask((id) => {
      options.sent?.(id);
      this.queue = this.queue.then(() => this.answer({ ...message, id } as FileRequest));
    }, options.answers);
  }

  dispose(why: Error = new RequestError('the scan reader was closed')): void {
    this.closed ??= why;
    this.requests.close(why);
    this.answers.close();
  }

  private async answer(request: FileRequest): Promise<void> {
    await this.yieldNow();
    if (this.closed) return;
    const { response } = this.answers.answer(request);
    this.answered++;
    if (this.options.receive) this.options.receive(response, this.requests);
    else this.requests.settle(response.id, response as Reply);
  }
}
