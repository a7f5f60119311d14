// One request/reply helper for every channel that asks and waits for an answer by id: host → worker
// (the model reader, the analysis runner) and host → webview (an export). (The model page's requests
// for a head or a window of one carry no id: the answer names the head it is for, and the page draws
// it only while that head is the one shown.) A request gets a whole-number id; the reply that carries
// it settles the promise; a reply for an id never asked, or asked and already settled, is dropped, and
// so is one that the request says does not answer it (an export in another format than asked: the
// request waits on); a channel that dies, or a request that waits past its time limit, rejects, so
// nobody waits for ever. Pure: no Node, DOM or VS Code API.

/** Why a request was not answered: the channel died, it was cancelled, or it timed out. */
export class RequestError extends Error {
  override name = 'RequestError';
}

interface Pending<R> {
  resolve: (reply: R) => void;
  reject: (e: Error) => void;
  timer?: ReturnType<typeof setTimeout>;
  answers?: (reply: R) => boolean;
}

export interface RequestsOptions {
  /** Milliseconds a request may wait before it rejects; none by default. */
  timeoutMs?: number;
  /** What a timed-out request's error says (default: "no answer after N ms"). */
  timeoutMessage?: (id: number) => string;
}

/**
 * Pending requests of one channel. `send(id)` posts the request with its id; `settle(id, reply)` is called
 * for each reply that arrives. `R` is the reply's type.
 */
export class Requests<R> {
  private next = 1;
  private readonly pending = new Map<number, Pending<R>>();
  private dead: Error | undefined;

  constructor(private readonly options: RequestsOptions = {}) {}

  /**
   * Posts a request through `send` with a new id; resolves with its reply. `answers`: whether a reply
   * answers this request (one that does not is refused and the request waits on); any reply by default.
   */
  ask(send: (id: number) => void, answers?: (reply: R) => boolean): Promise<R> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise<R>((resolve, reject) => {
      const pending: Pending<R> = { resolve, reject, ...(answers ? { answers } : {}) };
      const { timeoutMs } = this.options;
      if (timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          if (this.pending.delete(id)) reject(new RequestError(this.options.timeoutMessage?.(id) ?? `no answer after ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, pending);
      try {
        send(id);
      } catch (e) {
        this.drop(id);
        reject(e instanceof Error ? e : new RequestError(String(e)));
      }
    });
  }

  /** Whether `id` is a request still waiting (a reply for anything else is stale or forged). */
  isPending(id: unknown): id is number {
    return typeof id === 'number' && this.pending.has(id);
  }

  /** The reply to request `id`: true if it was waiting (and is now answered); false, the request still waiting, for a reply that does not answer it. */
  settle(id: unknown, reply: R): boolean {
    if (typeof id === 'number' && this.pending.get(id)?.answers?.(reply) === false) return false;
    const p = this.take(id);
    if (!p) return false;
    p.resolve(reply);
    return true;
  }

  /** Request `id` failed with `error`: true if it was waiting. */
  fail(id: unknown, error: Error): boolean {
    const p = this.take(id);
    if (!p) return false;
    p.reject(error);
    return true;
  }

  /** Every waiting request fails with `error` (the channel is gone, or the work was cancelled). */
  failAll(error: Error): void {
    const all = [...this.pending.values()];
    for (const p of all) if (p.timer !== undefined) clearTimeout(p.timer);
    this.pending.clear();
    for (const p of all) p.reject(error);
  }

  /** The channel died: everything waiting fails, and every later request fails at once with `error`. */
  close(error: Error): void {
    this.dead = error;
    this.failAll(error);
  }

  get size(): number {
    return this.pending.size;
  }

  private take(id: unknown): Pending<R> | undefined {
    if (typeof id !== 'number') return undefined;
    const p = this.pending.get(id);
    if (p) this.drop(id);
    return p;
  }

  private drop(id: number): void {
    const p = this.pending.get(id);
    if (p?.timer !== undefined) clearTimeout(p.timer);
    this.pending.delete(id);
  }
}
