// Completions in a spec's editor: at a head's "wq", "wk" or "wv", a matrix of the right height
// (d_model rows) written out, from the pure core (weight-snippets.ts). The starter spec and the
// head snippets come from the JSON schema's defaultSnippets.
import * as vscode from 'vscode';
import { weightSnippetsAt } from '../../core/spec/weight-snippets.js';
import { SPEC_GLOB } from '../spec-documents.js';

export function registerWeightCompletions(): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider({ pattern: SPEC_GLOB }, {
    provideCompletionItems(document, position) {
      const indent = /^\s*/.exec(document.lineAt(position.line).text)?.[0] ?? '';
      return weightSnippetsAt(document.getText(), document.offsetAt(position), indent).map((s, k) => {
        const item = new vscode.CompletionItem(s.label, vscode.CompletionItemKind.Value);
        item.detail = s.detail;
        item.insertText = s.text;
        item.sortText = `0${k}`;
        return item;
      });
    },
  });
}
