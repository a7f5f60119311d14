// One analysis per document version, shared by diagnostics, panels and hovers, computed in the
// analysis worker (analysis-runner.ts), plus the last good result of each document so hovers keep
// working while the user is mid-edit. The result stays packed (header + one buffer) as the worker
// sent it: the panel posts it as it is, and only a hover decodes it, once.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { Progress } from '../../core/attention/attention.js';
import type { AttentionData } from '../../core/result/attention-data.js';
import type { LinalgJson } from '../../core/result/linalg-data.js';
import { decodeAttention, type WireMessage } from '../../core/result/wire.js';
import type { Problem } from '../../core/json/problems.js';
import type { AttentionReference } from '../../core/spec/read-reference.js';
import type { AnalysisRunner } from './runner.js';

/** An analysis as the host keeps it. */
export interface HostAnalysis {
  problems: Problem[];
  wire?: WireMessage;
  /** A spec that names a model's attention file instead of computing one. */
  reference?: AttentionReference;
  /** Milliseconds from the request to the answer (read + compute + packing, in the worker). */
  ms: number;
}

interface Entry {
  version: number;
  text: string;
  analysis: Promise<HostAnalysis>;
  listeners: Set<Progress>;
}

export class AnalysisCache {
  private readonly latest = new Map<string, Entry>();
  private readonly lastGood = new Map<string, { wire: WireMessage; data?: AttentionData }>();

  constructor(private readonly runner: AnalysisRunner) {}

  /**
   * The analysis of the document as it is now; requested once per version. Rejects with
   * Cancelled when a newer version replaced it before it finished.
   */
  get(document: vscode.TextDocument, onProgress?: Progress): Promise<HostAnalysis> {
    const key = document.uri.toString();
    const text = document.getText();
    const cached = this.latest.get(key);
    // A closed and reopened file starts again at version 1, so the text is compared too.
    if (cached && cached.version === document.version && cached.text === text) {
      if (onProgress) cached.listeners.add(onProgress);
      return cached.analysis;
    }
    const listeners = new Set<Progress>(onProgress ? [onProgress] : []);
    const started = performance.now();
    // Tensor files named by the spec are read from its folder, when it is a file on disk.
    const folder = document.uri.scheme === 'file' ? path.dirname(document.uri.fsPath) : undefined;
    const analysis = this.runner.run(key, text, (done, total) => listeners.forEach((l) => l(done, total)), folder)
      .then((a): HostAnalysis => {
        if (a.wire && this.latest.get(key)?.analysis === analysis) this.lastGood.set(key, { wire: a.wire });
        return { ...a, ms: performance.now() - started };
      });
    this.latest.set(key, { version: document.version, text, analysis, listeners });
    return analysis;
  }

  /**
   * The linear-algebra views' numbers for the document as it is now, made on request (a view asked):
   * a job of its own in the worker, so it never delays the attention of an edit.
   */
  linalg(document: vscode.TextDocument): Promise<LinalgJson | undefined> {
    const folder = document.uri.scheme === 'file' ? path.dirname(document.uri.fsPath) : undefined;
    return this.runner.run(`${document.uri.toString()}#linalg`, document.getText(), undefined, folder, 'linalg').then((a) => a.linalg);
  }

  /** The newest result that computed, decoded for reading (hovers), even if the document is broken now. */
  async lastGoodData(document: vscode.TextDocument): Promise<AttentionData | undefined> {
    const key = document.uri.toString();
    try {
      await this.get(document);
    } catch {
      // Replaced by a newer version: the last good result still answers.
    }
    const good = this.lastGood.get(key);
    if (!good) return undefined;
    good.data ??= decodeAttention(good.wire.header, good.wire.buffer);
    return good.data;
  }

  forget(uri: vscode.Uri): void {
    this.latest.delete(uri.toString());
    this.lastGood.delete(uri.toString());
  }
}
