// Problems of open specs as editor diagnostics (collection and source "attn"): at once when a
// spec opens, ~250 ms after typing stops, cleared when fixed and when the file closes.
//
// A JSON syntax error (a missing comma) is found by our parser and by VS Code's JSON language
// service, which checks every *.attn.json as JSON: Problems listed it twice. In the editor ours
// yields: theirs is the one the user meets in every JSON file, it is there before our analysis has
// run, and it can be turned off only for all JSON at once (json.validate.enable), while ours can be
// left out per problem. Ours keeps FILE:LINE:COL where VS Code's service is absent: `attn` on the
// command line and the Attention panel's problem list (clickable to its line and column), and in the
// editor too when json.validate.enable is off or the JSON extension is not there.
import * as vscode from 'vscode';
import type { Problem } from '../../core/json/problems.js';
import type { AnalysisCache } from '../analysis/cache.js';
import { Debouncer } from '../debounce.js';
import { spanToRange } from './ranges.js';
import { isSpecDocument } from '../spec-documents.js';

export const DIAGNOSTIC_DELAY_MS = 250;

/** How core/json/json-tree.ts begins the message of a syntax error (the tests hold the two to each other). */
const SYNTAX_ERROR = 'invalid JSON: ';

/** Whether VS Code's JSON language service checks the syntax of JSON documents in this window. */
export function jsonServiceValidates(): boolean {
  return vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true) !== false
    && vscode.extensions.getExtension('vscode.json-language-features') !== undefined;
}

/** The problems to show in the editor: all, less the syntax errors when VS Code's JSON service reports them. */
export function editorProblems(problems: readonly Problem[], jsonChecksSyntax: boolean): readonly Problem[] {
  return jsonChecksSyntax ? problems.filter((p) => !(p.path === '' && p.message.startsWith(SYNTAX_ERROR))) : problems;
}

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

  /** `jsonChecksSyntax`: whether VS Code's JSON service reports syntax errors (asked at each update; jsonServiceValidates when absent). */
  constructor(private readonly cache: AnalysisCache, private readonly jsonChecksSyntax: () => boolean = jsonServiceValidates) {
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
      this.collection.set(document.uri, editorProblems(problems, this.jsonChecksSyntax()).map((p) => toDiagnostic(document, p)));
    }, () => { /* Cancelled: a newer version replaced it */ });
  }

  dispose(): void {
    this.debouncer.dispose();
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}
