// A model reader's lane on the web that starts as a Web Worker and, when that worker cannot start
// (its script does not load, or the runtime refuses it), reads on the host's thread instead, saying so
// once in the log. The worker is asked a bare 'close' first, which carries nothing: the file's bytes
// are transferred to a worker only once it answered, so a worker that fails never takes them.
import { RequestError } from '../../../protocol/requests.js';
import type { AskOptions } from '../../workers/service.js';
import { WorkerStartError } from '../../workers/start-error.js';
import type { ReaderLane } from '../../model-editor/reader.js';

export class WorkerOrThread<Reply> implements ReaderLane<Reply> {
  private chosen: Promise<ReaderLane<Reply>> | undefined;
  /** The lane made so far: the worker while it is probed, then the one chosen (ended by dispose at any point). */
  private current: ReaderLane<Reply> | undefined;
  private closed: Error | undefined;

  /** `worker`, `thread`: the two lanes, made when needed; `fellBack`: told why the worker did not start. */
  constructor(private readonly worker: () => ReaderLane<Reply>, private readonly thread: () => ReaderLane<Reply>, private readonly fellBack: (why: string) => void) {}

  ready(): boolean { return !this.closed; }

  async ask(message: object, options: AskOptions<Reply> = {}): Promise<Reply> {
    const lane = await this.lane();
    // Closed while the worker was probed: the request is not posted to a lane that is ending.
    if (this.closed) throw this.closed;
    return lane.ask(message, options);
  }

  dispose(why: Error = new RequestError('the scan reader was closed')): void {
    this.closed ??= why;
    // Directly, not once the probe settles: a worker that never answers it would never be ended.
    this.current?.dispose(why);
  }

  private lane(): Promise<ReaderLane<Reply>> {
    if (this.closed) return Promise.reject(this.closed);
    return this.chosen ??= this.choose();
  }

  private async choose(): Promise<ReaderLane<Reply>> {
    const worker = this.current = this.worker();
    try {
      await worker.ask({ op: 'close' });
      return worker;
    } catch (e) {
      if (!(e instanceof WorkerStartError) || this.closed) throw this.closed ?? e;
      worker.dispose(e);
      this.fellBack(e.message);
      return this.current = this.thread();
    }
  }
}
