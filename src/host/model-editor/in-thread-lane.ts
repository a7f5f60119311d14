// A model reader's lane where the runtime gives no worker (the web extension host without Web
// Workers): its requests are answered on the host's own thread, one at a time, each after the events
// already waiting (a yield), so the editor, the webviews' messages and the rest of VS Code stay live
// between the slices of a scan. A scan asks in ranges of about four million weights (scan.ts), so a
// slice is tens of milliseconds. The same FileAnswers as a worker's: the same numbers. Two answers
// are one computation each, with no yield inside: opening an .npz checks each member's CRC-32 in one
// pass (about 2.7 ms a MiB), and the rollout multiplies n × n matrices layer by layer (L × n³); so
// this lane opens only files whose pass and rollout both stay near a tenth of a second.
import { RequestError, Requests } from '../../protocol/requests.js';
import { rolloutRefusal } from '../../core/tensors/rollout.js';
import { rolloutWork } from '../../core/budget.js';
import { mib } from '../../core/files/mib.js';
import type { AskOptions, LaneOptions } from '../workers/service.js';
import type { BytesRequest, FileAnswers, FileRequest } from './file-answers.js';
import type { ReaderLane } from './reader.js';
import type { ReaderResponse } from '../../protocol/model-reader.js';

/** The most bytes (a file and its inflated members) opened on the host's thread: a member's CRC-32 over 32 MiB is about 90 ms. */
export const MAX_THREAD_FILE_BYTES = 32 * 2 ** 20;
/** The most rollout work (multiply-adds) of a file opened on the host's thread: 10⁸ is about a tenth of a second. */
export const MAX_THREAD_ROLLOUT_WORK = 1e8;

const WHERE = 'on VS Code\'s own thread when the runtime gives no Web Worker (more would stall the editor); open it in VS Code on the desktop';

/** Why a file of these bytes is not opened on the host's thread, or undefined. */
function tooLargeForTheThread(request: BytesRequest): string | undefined {
  const inflated = Object.values(request.inflated ?? {}).reduce((sum, m) => sum + (typeof m === 'string' ? 0 : m.byteLength), 0);
  const held = request.bytes.byteLength + inflated;
  if (held <= MAX_THREAD_FILE_BYTES) return undefined;
  return `${request.name}: ${mib(held)}, over the ${mib(MAX_THREAD_FILE_BYTES)} the model editor reads ${WHERE}`;
}

/** Why an opened file's rollout (when it has one) is too long a computation for the host's thread, or undefined. */
function rolloutTooLongForTheThread(name: string, response: ReaderResponse): string | undefined {
  if (!response.ok || !response.shape) return undefined;
  const { layers, tokens } = response.shape;
  if (rolloutRefusal(layers, tokens) !== undefined) return undefined; // it has none: nothing to compute
  const work = rolloutWork(layers, tokens);
  if (work <= MAX_THREAD_ROLLOUT_WORK) return undefined;
  return `${name}: its rollout (${layers} layers × ${tokens.toLocaleString('en-US')}³ = ${work.toExponential(1)} multiply-adds) is over the ${MAX_THREAD_ROLLOUT_WORK.toExponential(0)} the model editor computes ${WHERE}`;
}

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
    const response = this.answerHere(request);
    this.answered++;
    if (this.options.receive) this.options.receive(response, this.requests);
    else this.requests.settle(response.id, response as Reply);
  }

  /** The answers' reply, or a refusal naming the file when opening it here would hold the thread too long. */
  private answerHere(request: FileRequest): ReaderResponse {
    if (request.op === 'openBytes') {
      const tooLarge = tooLargeForTheThread(request);
      // A reader's refusal of the file (tensorError), as a file over the web's limit is.
      if (tooLarge) return { id: request.id, ok: false, error: tooLarge, tensorError: true };
      const { response } = this.answers.answer(request);
      const tooLong = rolloutTooLongForTheThread(request.name, response);
      if (!tooLong) return response;
      this.answers.close();
      return { id: request.id, ok: false, error: tooLong, tensorError: true };
    }
    return this.answers.answer(request).response;
  }
}
