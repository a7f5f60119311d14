// What the analysis worker does with a request, and what it keeps between requests: the results of
// the last few specs it computed (the spec and its result model, the n × n arrays let go), keyed by
// the spec's text and folder, and at most KEPT_BYTES of arrays in all (a spec's tensor files may
// hold 256 MB: four such kept for ever would be a gigabyte in a worker that is otherwise idle). A
// request for the linear-algebra views' numbers (the Spectrum, Heads, Covariance and Init views ask
// after the result is drawn) is then answered from the kept result: only what those numbers add is
// computed, the spec is not read nor its attention computed again. A result too big to keep has its
// spec read again for them, as every request did before results were kept.
// A request for the result always reads the spec anew (the host asks once per document version,
// and a tensor file the spec names may have changed on disk since). The worker thread runs an
// Analyst, and so does the runner when there is no worker, so both behave alike.
import { analyze, type Analysis } from '../../core/index.js';
import type { HeadsHelper, Progress } from '../../core/attention/attention.js';
import type { TensorFiles } from '../../core/files/spec-files.js';
import { wireAnalysis, type WireAnalysis } from '../../core/result/analyze-wire.js';
import type { AttentionData } from '../../core/result/attention-data.js';
import { leanData } from '../../core/result/derived.js';
import { linalgData } from '../../core/result/linalg-data.js';
import type { LinalgJson } from '../../core/result/linalg-json.js';
import type { Spec } from '../../core/spec/spec.js';
import type { WorkerRequest } from '../../protocol/analysis-worker.js';
import { memoryFiles } from './memory-files.js';

/** Results kept: one per spec open side by side, few enough that the worker's memory stays small. */
export const KEPT_RESULTS = 4;
/** Bytes of arrays the kept results may hold together (the newest first; a result bigger than this is not kept). */
export const KEPT_BYTES = 128 * 2 ** 20;

interface Kept {
  readonly text: string;
  readonly folder?: string;
  readonly spec?: Spec;
  readonly data?: AttentionData;
  /** Bytes of the arrays it holds (typedArrayBytes of the spec and the lean result). */
  readonly bytes: number;
  linalg?: LinalgJson;
}

/**
 * Bytes of the typed arrays reachable from `root` through plain properties, each buffer counted once.
 * Getters are not called (a kept head's scores and weights are made when read, and are not kept).
 */
export function typedArrayBytes(root: unknown): number {
  const seen = new Set<object>(), buffers = new Set<ArrayBufferLike>();
  const todo: unknown[] = [root];
  let bytes = 0;
  while (todo.length > 0) {
    const x = todo.pop();
    if (typeof x !== 'object' || x === null || seen.has(x)) continue;
    seen.add(x);
    if (ArrayBuffer.isView(x)) {
      if (!buffers.has(x.buffer)) { buffers.add(x.buffer); bytes += x.buffer.byteLength; }
      continue;
    }
    // A list (of tokens, or a mask's rows of booleans) holds objects or nothing worth counting.
    if (Array.isArray(x)) { for (const v of x as unknown[]) if (typeof v === 'object' && v !== null) todo.push(v); continue; }
    for (const d of Object.values(Object.getOwnPropertyDescriptors(x))) if ('value' in d) todo.push(d.value);
  }
  return bytes;
}

export class Analyst {
  /** Newest first, at most KEPT_RESULTS. */
  private kept: Kept[] = [];
  /** Specs read and computed so far; a request answered from a kept result adds none. Counted by the tests. */
  reads = 0;

  /**
   * `helper`: a second thread for half of a big spec's heads (the worker's; none on the host's thread).
   * `filesIn`: where a spec's tensor files are opened, given its folder (folderFiles on a disk); without
   * it a spec that names one is told its folder cannot be read.
   */
  constructor(
    private readonly keptBytes = KEPT_BYTES,
    private readonly helper?: HeadsHelper,
    private readonly filesIn?: (folder: string) => TensorFiles,
  ) {}

  /** Bytes of arrays the kept results hold now. */
  get bytesKept(): number {
    return this.kept.reduce((sum, k) => sum + k.bytes, 0);
  }

  /** The answer to one request of the host. */
  answer(request: Omit<WorkerRequest, 'id'>, onProgress?: Progress): WireAnalysis {
    if (request.want === 'linalg') {
      const linalg = this.linalg(request.text, request.folder, request.files);
      return { problems: [], ...(linalg ? { linalg } : {}) };
    }
    return wireAnalysis(this.read(request.text, request.folder, onProgress, request.files));
  }

  /** The linear-algebra views' numbers of a spec: from its kept result if there is one, made once per result. */
  private linalg(text: string, folder: string | undefined, files?: WorkerRequest['files']): LinalgJson | undefined {
    const kept = this.kept.find((k) => k.text === text && k.folder === folder);
    if (kept) {
      if (!kept.spec || !kept.data) return undefined;
      kept.linalg ??= linalgData(kept.spec, kept.data);
      return kept.linalg;
    }
    // Not kept (too big, or let go): read again; kept now if it fits.
    const a = this.read(text, folder, undefined, files);
    if (!a.spec || !a.data) return undefined;
    const linalg = linalgData(a.spec, a.data);
    if (this.kept[0]?.text === text && this.kept[0].folder === folder) this.kept[0].linalg = linalg;
    return linalg;
  }

  /** Reads and computes the spec, and keeps its result (in front of the others). */
  /** `files`: the spec's tensor files as the host read them (the web), read from there rather than `folder`. */
  private read(text: string, folder: string | undefined, onProgress?: Progress, files?: WorkerRequest['files']): Analysis {
    this.reads++;
    const a = analyze(text, { onProgress, helper: this.helper, files: files ? memoryFiles(files) : folder !== undefined ? this.filesIn?.(folder) : undefined });
    const lean = a.spec && a.data ? { spec: a.spec, data: leanData(a.data) } : {};
    const kept: Kept = { text, folder, ...lean, bytes: typedArrayBytes(lean) };
    const others = this.kept.filter((k) => k.text !== text || k.folder !== folder);
    this.kept = [];
    let bytes = 0;
    for (const k of [kept, ...others]) {
      if (this.kept.length === KEPT_RESULTS || bytes + k.bytes > this.keptBytes) continue;
      this.kept.push(k);
      bytes += k.bytes;
    }
    return a;
  }
}
