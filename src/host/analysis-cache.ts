// One analysis per document version, shared by diagnostics, panels and hovers, plus the last
// good result of each document so hovers keep working while the user is mid-edit.
import type * as vscode from 'vscode';
import { analyze, type Analysis } from '../core/index.js';
import type { AttentionJson } from '../core/result-json.js';

interface Entry {
  version: number;
  text: string;
  analysis: Analysis;
}

export class AnalysisCache {
  private readonly latest = new Map<string, Entry>();
  private readonly lastGood = new Map<string, AttentionJson>();

  /** The analysis of the document as it is now; computed once per version. */
  get(document: vscode.TextDocument): Analysis {
    const key = document.uri.toString();
    const text = document.getText();
    const cached = this.latest.get(key);
    // A closed and reopened file starts again at version 1, so the text is compared too.
    if (cached && cached.version === document.version && cached.text === text) return cached.analysis;
    const analysis = analyzeSafely(text);
    this.latest.set(key, { version: document.version, text, analysis });
    if (analysis.json) this.lastGood.set(key, analysis.json);
    return analysis;
  }

  /** The newest result that computed, even if the document is broken now. */
  lastGoodJson(document: vscode.TextDocument): AttentionJson | undefined {
    return this.get(document).json ?? this.lastGood.get(document.uri.toString());
  }

  forget(uri: vscode.Uri): void {
    this.latest.delete(uri.toString());
    this.lastGood.delete(uri.toString());
  }
}

/** The core never throws on bad specs; should it throw anyway, the user gets a problem, not a blank panel. */
export function analyzeSafely(text: string): Analysis {
  try {
    return analyze(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { problems: [{ severity: 'error', path: '', message: `internal error: ${message}`, span: { offset: 0, length: 0 } }] };
  }
}
