// Spans of the core (character offset and length) as editor ranges.
import * as vscode from 'vscode';
import type { Span } from '../../core/spec/spec.js';

export function spanToRange(document: vscode.TextDocument, span: Span): vscode.Range {
  const start = document.positionAt(span.offset);
  return new vscode.Range(start, document.positionAt(span.offset + span.length));
}
