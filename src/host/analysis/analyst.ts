// What the analysis worker does with a request, and what it keeps between requests: the results of
// the last few specs it computed (the spec and its result model, the n × n arrays let go), keyed by
// the spec's text and folder. A request for the linear-algebra views' numbers (the Spectrum, Heads,
// Covariance and Init views ask after the result is drawn) is then answered from the kept result:
// only what those numbers add is computed, the spec is not read nor its attention computed again.
// A request for the result always reads the spec anew (the host asks once per document version,
// and a tensor file the spec names may have changed on disk since). The worker thread runs an
// Analyst, and so does the runner when there is no worker, so both behave alike.
import { analyze, type Analysis } from '../../core/index.js';
import type { Progress } from '../../core/attention/attention.js';
import { folderFiles } from '../../core/files/spec-files.js';
import { wireAnalysis, type WireAnalysis } from '../../core/result/analyze-wire.js';
import type { AttentionData } from '../../core/result/attention-data.js';
import { leanData } from '../../core/result/derived.js';
import { linalgData } from '../../core/result/linalg-data.js';
import type { LinalgJson } from '../../core/result/linalg-json.js';
import type { Spec } from '../../core/spec/spec.js';
import type { WorkerRequest } from '../../protocol/analysis-worker.js';

/** Results kept: one per spec open side by side, few enough that the worker's memory stays small. */
export const KEPT_RESULTS = 4;

interface Kept {
  readonly text: string;
  readonly folder?: string;
  readonly spec?: Spec;
  readonly data?: AttentionData;
  linalg?: LinalgJson;
}

export class Analyst {
  /** Newest first, at most KEPT_RESULTS. */
  private kept: Kept[] = [];
  /** Specs read and computed so far; a request answered from a kept result adds none. Counted by the tests. */
  reads = 0;

  /** The answer to one request of the host. */
  answer(request: Omit<WorkerRequest, 'id'>, onProgress?: Progress): WireAnalysis {
    if (request.want === 'linalg') {
      const linalg = this.linalg(request.text, request.folder);
      return { problems: [], ...(linalg ? { linalg } : {}) };
    }
    return wireAnalysis(this.read(request.text, request.folder, onProgress));
  }

  /** The linear-algebra views' numbers of a spec: from its kept result if there is one, made once per result. */
  private linalg(text: string, folder: string | undefined): LinalgJson | undefined {
    let kept = this.kept.find((k) => k.text === text && k.folder === folder);
    if (!kept) {
      this.read(text, folder);
      kept = this.kept[0];
    }
    if (!kept.spec || !kept.data) return undefined;
    kept.linalg ??= linalgData(kept.spec, kept.data);
    return kept.linalg;
  }

  /** Reads and computes the spec, and keeps its result (in front of the others). */
  private read(text: string, folder: string | undefined, onProgress?: Progress): Analysis {
    this.reads++;
    const a = analyze(text, { onProgress, files: folder !== undefined ? folderFiles(folder) : undefined });
    const kept: Kept = { text, folder, ...(a.spec && a.data ? { spec: a.spec, data: leanData(a.data) } : {}) };
    this.kept = [kept, ...this.kept.filter((k) => k.text !== text || k.folder !== folder)].slice(0, KEPT_RESULTS);
    return a;
  }
}
