// Problems of open specs as editor diagnostics (collection and source "attn"): at once when a
// spec opens, ~250 ms after typing stops, cleared when fixed and when the file closes.
import * as vscode from 'vscode';
import type { Problem } from '../../core/json/problems.js';
import type { AnalysisCache } from '../analysis/cache.js';
import { Debouncer } from '../debounce.js';
import { spanToRange } from './ranges.js';
import { isSpecDocument } from '../spec-documents.js';

export const DIAGNOSTIC_DELAY_MS = 250;

export function toDiagnostic(document: vscode.TextDocument, problem: Problem): vscode.Diagnostic {
  const message = problem.path ? `${problem.path}: ${problem.message}` : problem.message;
  const severity = problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const diagnostic = new vscode.Diagnostic(spanToRange(document, problem.span), message, severity);
  diagnostic.source = 'attn';
  return diagnostic;
}

export class SpecDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('attn');
  private readonly debouncer = new Debouncer(DIAGNOSTIC_DELAY_MS);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly cache: AnalysisCache) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!isSpecDocument(e.document) || e.contentChanges.length === 0) return;
        const document = e.document;
        this.debouncer.schedule(document.uri.toString(), () => this.update(document));
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.debouncer.cancel(d.uri.toString());
        this.collection.delete(d.uri);
        this.cache.forget(d.uri);
      }),
    ];
    for (const document of vscode.workspace.textDocuments) this.update(document);
  }

  update(document: vscode.TextDocument): void {
    if (!isSpecDocument(document) || document.isClosed) return;
    const version = document.version;
    this.cache.get(document).then(({ problems }) => {
      // An answer for a version the user has since changed is dropped: the newer one is coming.
      if (document.isClosed || document.version !== version) return;
      this.collection.set(document.uri, problems.map((p) => toDiagnostic(document, p)));
    }, () => { /* Cancelled: a newer version replaced it */ });
  }

  dispose(): void {
    this.debouncer.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}
