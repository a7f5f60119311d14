// A dedicated Web Worker as a browser gives one, for the web build's lanes under test: the built
// classic script runs in a global scope of its own (a vm context) with onmessage and postMessage,
// messages structured-cloned both ways and delivered later, never on the caller's stack. Scripts are
// looked up by URL, as blob: URLs would hold them.
import { runInNewContext } from 'node:vm';

export const workerScripts = new Map<string, string>();
export const startedWorkers: FakeWebWorker[] = [];

export class FakeWebWorker {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;
  private readonly scope: { onmessage: ((e: { data: unknown }) => void) | null };

  constructor(url: string) {
    startedWorkers.push(this);
    const post = (data: unknown) => setTimeout(() => { if (!this.terminated) this.onmessage?.({ data: structuredClone(data) }); });
    this.scope = { onmessage: null };
    // What a browser's worker scope has beside the language's own globals (WebAssembly, Atomics are the context's).
    const globals = { postMessage: post, performance, TextEncoder, TextDecoder, atob, console, setTimeout, clearTimeout };
    setTimeout(() => {
      try {
        runInNewContext(workerScripts.get(url) ?? 'throw new Error("no such script")', Object.assign(this.scope, globals));
      } catch (e) {
        this.onerror?.({ message: (e as Error).message, preventDefault() {} });
      }
    });
  }

  postMessage(data: unknown, transfer: Transferable[] = []): void {
    // Cloned now, as a browser does: what is transferred is gone from the sender at once.
    const sent = structuredClone(data, { transfer });
    setTimeout(() => {
      if (this.terminated) return;
      try {
        this.scope.onmessage?.({ data: sent });
      } catch (e) {
        this.onerror?.({ message: (e as Error).message, preventDefault() {} });
      }
    });
  }

  terminate(): void { this.terminated = true; }
}

/** Runs `f` with FakeWebWorker as the global Worker (and the list of started workers emptied). */
export function withFakeWorkers<T>(f: () => Promise<T>): Promise<T> {
  const saved = (globalThis as { Worker?: unknown }).Worker;
  (globalThis as { Worker?: unknown }).Worker = FakeWebWorker;
  startedWorkers.length = 0;
  return f().finally(() => { (globalThis as { Worker?: unknown }).Worker = saved; });
}
