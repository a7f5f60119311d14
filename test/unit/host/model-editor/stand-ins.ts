// Stand-ins for the model editor's tests in plain Node: a webview that checks and applies what the
// host posts as the real one does (hostMessageProblem, then the header's heads grow with each
// 'scanned'), a reader that counts what it is asked (around a real worker, or reading a file in
// memory in this thread, its passes held at a gate until the test lets them go), and a log.
import { hostMessageProblem, type ModelHostMessage } from '../../../../src/protocol/model-editor.js';
import type { ModelHeader, ScanOptions } from '../../../../src/core/model-attention/data.js';
import type { OpenOptions } from '../../../../src/core/files/open.js';
import type { AttentionSource } from '../../../../src/core/tensors/attention-source.js';
import type { PassResult } from '../../../../src/core/tensors/pass.js';
import { headFloat32, headPicture, headWindow, passOverRange, rolloutOf, shapeOf, type ModelShape } from '../../../../src/core/model-attention/scan.js';
import type { ModelReading } from '../../../../src/host/model-editor/reader.js';
import type { ModelLog } from '../../../../src/host/model-editor/shared-scan.js';

/** A webview: every message checked against what it holds (a problem is kept, as the real one shows it), the heads read grown by 'scanned'. */
export class WebviewStandIn {
  readonly messages: ModelHostMessage[] = [];
  readonly problems: string[] = [];
  header: ModelHeader | undefined;
  /** The thumbnails' colour indices, every head's (zero where not read). */
  thumbnails: Uint8Array | undefined;

  readonly post = (sent: ModelHostMessage): void => {
    // postMessage carries a copy: what the host goes on changing (the heads read) is not the webview's.
    const m = structuredClone(sent);
    this.messages.push(m);
    const problem = hostMessageProblem(m, this.header);
    if (problem) { this.problems.push(problem); return; }
    if (m.type === 'model') {
      this.header = m.header;
      this.thumbnails = m.thumbnails instanceof Uint8Array ? m.thumbnails.slice() : undefined;
    } else if (m.type === 'scanned' && this.header) {
      if (m.thumbnails instanceof Uint8Array) this.thumbnails?.set(m.thumbnails, m.from * this.header.thumb ** 2);
      this.header = { ...this.header, stats: [...this.header.stats, ...m.stats], offRows: m.offRows, warnings: m.warnings };
    }
  };

  /** Heads this webview has. */
  get read(): number { return this.header?.stats.length ?? 0; }

  of<T extends ModelHostMessage['type']>(type: T): Extract<ModelHostMessage, { type: T }>[] {
    return this.messages.filter((m): m is Extract<ModelHostMessage, { type: T }> => m.type === type);
  }
}

/** Waits (polling) until `done()` is true; fails with `what` after `ms`. */
export async function until(what: string, done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Lets a few event-loop turns pass (for "nothing more happens" checks). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

export class LogStandIn implements ModelLog {
  readonly warnings: string[] = [];
  readonly errors: string[] = [];
  warn(line: string): void { this.warnings.push(line); }
  error(line: string): void { this.errors.push(line); }
}

/** One request a reader was asked. */
export interface Asked { op: string; from?: number; to?: number; options?: ScanOptions }

/** Wraps a reader (a real worker's) and notes every request. */
export class CountingReader implements ModelReading {
  readonly asked: Asked[] = [];
  disposed = false;
  constructor(private readonly inner: ModelReading) {
    const { band, tile } = inner;
    if (band) this.band = (layer, head, first, rows, options) => { this.asked.push({ op: 'band', from: first, to: first + rows, options }); return band.call(inner, layer, head, first, rows, options); };
    if (tile) this.tile = (layer, head, level, i0, j0, rows, cols, options, sinks) => { this.asked.push({ op: 'tile', options }); return tile.call(inner, layer, head, level, i0, j0, rows, cols, options, sinks); };
  }
  open(path: string, open?: OpenOptions): Promise<ModelShape> { this.asked.push({ op: 'open' }); return this.inner.open(path, open); }
  pass(from: number, to: number, options: ScanOptions): Promise<PassResult> { this.asked.push({ op: 'pass', from, to, options }); return this.inner.pass(from, to, options); }
  head(layer: number, head: number, options: ScanOptions): Promise<Float32Array> { this.asked.push({ op: 'head', options }); return this.inner.head(layer, head, options); }
  picture(layer: number, head: number, options: ScanOptions) { this.asked.push({ op: 'picture', options }); return this.inner.picture(layer, head, options); }
  window(layer: number, head: number, i0: number, rows: number, j0: number, cols: number, options: ScanOptions) { this.asked.push({ op: 'window', options }); return this.inner.window(layer, head, i0, rows, j0, cols, options); }
  rollout(options: ScanOptions): Promise<Float32Array | null> { this.asked.push({ op: 'rollout', options }); return this.inner.rollout(options); }
  /** Present when the reader wrapped has it (a scan gives bands of a big head only to readers that read them). */
  readonly band?: ModelReading['band'];
  readonly tile?: ModelReading['tile'];
  dispose(): void { this.disposed = true; this.inner.dispose(); }
}

/** Requests held until the test lets them go, in the order they came. */
export class Gate {
  private readonly held: (() => void)[] = [];
  get waiting(): number { return this.held.length; }
  hold(): Promise<void> { return new Promise((resolve) => this.held.push(resolve)); }
  /** Lets the first `count` held requests go. */
  release(count = Infinity): void { for (const go of this.held.splice(0, count)) go(); }
}

/**
 * A reader of a file in memory, in this thread: `file(open)` opens it (the spec's tokens when it names
 * some). Passes wait at `passes` and heads at `heads` when given; `failHead` makes a head read fail.
 */
export class LocalReader extends CountingReader {
  constructor(file: (open?: OpenOptions) => AttentionSource, gates: { passes?: Gate; heads?: Gate } = {}, failHead?: Error) {
    let a: AttentionSource | undefined;
    const opened = () => { if (!a) throw new Error('no file is open'); return a; };
    super({
      open: async (_path, open) => { a = file(open); return shapeOf(a); },
      pass: async (from, to, options) => { await gates.passes?.hold(); return passOverRange(opened(), from, to, options); },
      head: async (layer, head, options) => {
        await gates.heads?.hold();
        if (failHead) throw failHead;
        return headFloat32(opened(), layer, head, options);
      },
      picture: async (layer, head, options) => headPicture(opened(), layer, head, options),
      window: async (layer, head, i0, rows, j0, cols, options) => headWindow(opened(), layer, head, i0, rows, j0, cols, options),
      rollout: async (options) => rolloutOf(opened(), options) ?? null,
      dispose: () => { a?.close(); },
    });
  }
}

/** Every range of heads the readers were asked to pass over, sorted. */
export function passesOf(readers: readonly CountingReader[], options?: ScanOptions): [number, number][] {
  return readers.flatMap((r) => r.asked)
    .filter((a) => a.op === 'pass' && (options === undefined || !!a.options?.softmax === !!options.softmax))
    .map((a): [number, number] => [a.from!, a.to!])
    .sort((x, y) => x[0] - y[0]);
}

/** [[0, 1], [1, 2], …, [count − 1, count]]: one head per range, each once. */
export const eachHeadOnce = (count: number) => Array.from({ length: count }, (_, k): [number, number] => [k, k + 1]);
