// One analysis per document version, shared by everything that shows it: the diagnostics, the
// panels, the hovers and the linear-algebra views (whose numbers are one more job per version, made
// by the worker from the result it kept, see analyst.ts). Computed in the analysis worker
// (runner.ts). When an answer arrives its result model is read back from the envelope once
// (AttentionData on views of the one buffer, nothing copied): that model is what the host reads
// (hovers, the panel's tokens), and the envelope's header and buffer are what the panel posts, as
// they are. The last good model of each document is kept too, so hovers keep working while the
// user is mid-edit.
import type * as vscode from 'vscode';
import type { Progress } from '../../core/attention/attention.js';
import { failedAnalysis, type WireAnalysis } from '../../core/result/analyze-wire.js';
import type { AttentionData } from '../../core/result/attention-data.js';
import type { LinalgJson } from '../../core/result/linalg-json.js';
import { decodeAttention } from '../../core/result/wire.js';
import type { AnalysisRunner } from './runner.js';

/** An analysis as the host keeps it: the envelope from the worker, its model read back, and its time. */
export interface HostAnalysis extends WireAnalysis {
  /** The result model (present exactly when `wire` is). */
  data?: AttentionData;
  /** Milliseconds from the request to the answer (read + compute + packing in the worker, the model read back here). */
  ms: number;
}

/** What the cache needs of a document: a vscode.TextDocument, or a test's stand-in. */
export type AnalysedDocument = Pick<vscode.TextDocument, 'uri' | 'version' | 'getText'>;

interface Entry {
  version: number;
  text: string;
  analysis: Promise<HostAnalysis>;
  listeners: Set<Progress>;
  /** The linear-algebra views' numbers of this version, once a view asked. */
  linalg?: Promise<LinalgJson | undefined>;
}

export class AnalysisCache {
  private readonly latest = new Map<string, Entry>();
  private readonly lastGood = new Map<string, AttentionData>();

  /**
   * `folderOf`: the folder a document's tensor files are read from, given to the runner (by default a
   * file's folder on disk; the web build gives the spec's URI, where its analyst says it reads none).
   */
  constructor(
    private readonly runner: AnalysisRunner,
    private readonly folderOf: (document: AnalysedDocument) => string | undefined = diskFolderOf,
  ) {}

  /**
   * The analysis of the document as it is now; requested once per version. Rejects with
   * Cancelled when a newer version replaced it before it finished.
   */
  get(document: AnalysedDocument, onProgress?: Progress): Promise<HostAnalysis> {
    const entry = this.entry(document);
    if (onProgress) entry.listeners.add(onProgress);
    return entry.analysis;
  }

  /**
   * The linear-algebra views' numbers for the document as it is now, made on request (a view asked),
   * once per version: a job of its own in the worker after the version's result, so it never delays
   * the attention of an edit, and made from that result, so the spec is not read or computed again.
   */
  linalg(document: AnalysedDocument): Promise<LinalgJson | undefined> {
    const entry = this.entry(document);
    entry.linalg ??= this.runner.run(`${document.uri.toString()}#linalg`, entry.text, undefined, this.folderOf(document), 'linalg')
      .then((a) => a.linalg);
    return entry.linalg;
  }

  /** The newest result model that computed (for hovers), even if the document is broken now. */
  async lastGoodData(document: AnalysedDocument): Promise<AttentionData | undefined> {
    try {
      await this.get(document);
    } catch {
      // Replaced by a newer version: the last good result still answers.
    }
    return this.lastGood.get(document.uri.toString());
  }

  forget(uri: vscode.Uri): void {
    this.latest.delete(uri.toString());
    this.lastGood.delete(uri.toString());
  }

  /** The document's entry for its version now: made (and its analysis requested) on the first ask. */
  private entry(document: AnalysedDocument): Entry {
    const key = document.uri.toString();
    const text = document.getText();
    const cached = this.latest.get(key);
    // A closed and reopened file starts again at version 1, so the text is compared too.
    if (cached && cached.version === document.version && cached.text === text) return cached;
    const listeners = new Set<Progress>();
    const started = performance.now();
    const analysis = this.runner.run(key, text, (done, total) => listeners.forEach((l) => l(done, total)), this.folderOf(document))
      .then((a): HostAnalysis => {
        const read = withModel(a);
        if (read.data && this.latest.get(key)?.analysis === analysis) this.lastGood.set(key, read.data);
        return { ...read, ms: performance.now() - started };
      });
    const entry: Entry = { version: document.version, text, analysis, listeners };
    this.latest.set(key, entry);
    return entry;
  }
}

/** Tensor files named by the spec are read from its folder, when it is a file on disk. */
function diskFolderOf(document: AnalysedDocument): string | undefined {
  return document.uri.scheme === 'file' ? parentFolder(document.uri.fsPath) : undefined;
}

/** path.dirname of an absolute file path, slash or backslash separated, without node:path (the web build has none). */
export function parentFolder(fsPath: string): string {
  // Trailing separators are not a name: "/a/b/" is in "/a", as path.dirname has it.
  const trimmed = fsPath.replace(/(?<=.)[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return '.';
  // The root keeps its separator: "/a.json" is in "/", "C:\a.json" in "C:\".
  return trimmed.slice(0, cut === 0 || trimmed[cut - 1] === ':' ? cut + 1 : cut);
}

/** The envelope with its model read back; a result that does not read back (a bug) is a problem, not a crash. */
function withModel(a: WireAnalysis): WireAnalysis & { data?: AttentionData } {
  if (!a.wire) return a;
  try {
    return { ...a, data: decodeAttention(a.wire.header, a.wire.buffer) };
  } catch (err) {
    const failed = failedAnalysis(`the result does not read back: ${err instanceof Error ? err.message : String(err)}`);
    return { ...failed, problems: [...a.problems, ...failed.problems], ...(a.reference ? { reference: a.reference } : {}) };
  }
}
