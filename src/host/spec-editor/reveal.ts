// "Show me this in the spec": a token, a matrix (cell) or a line/column, selected in the spec's editor.
import * as vscode from 'vscode';
import { spanOfTarget } from '../../core/spec/spec-target.js';
import type { RevealMessage } from '../../protocol/panel.js';
import { spanToRange } from './ranges.js';

export function rangeOfTarget(document: vscode.TextDocument, target: RevealMessage['target']): vscode.Range | undefined {
  if (target.kind === 'position') {
    const line = Math.min(target.line - 1, document.lineCount - 1);
    const position = document.validatePosition(new vscode.Position(line, target.column - 1));
    return new vscode.Range(position, position);
  }
  const span = spanOfTarget(document.getText(), target);
  return span && spanToRange(document, span);
}

/**
 * Opens the spec (in the editor column already showing it, if any) and selects the target.
 * Keyboard focus stays in the panel for a token or a matrix: the user is exploring there, and a
 * focused editor with "apple" selected would let the next keystroke (Tab) replace it. A problem's
 * line and column is different: the user clicked it to fix it, so the editor takes focus.
 */
export function keepsPanelFocus(target: RevealMessage['target']): boolean {
  return target.kind !== 'position';
}

export async function revealInSpec(uri: vscode.Uri, target: RevealMessage['target'], besideColumn?: vscode.ViewColumn): Promise<void> {
  const document = await vscode.workspace.openTextDocument(uri);
  const range = rangeOfTarget(document, target);
  if (!range) return;
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  const viewColumn = visible?.viewColumn
    ?? (besideColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
  const editor = await vscode.window.showTextDocument(document, { viewColumn, selection: range, preserveFocus: keepsPanelFocus(target) });
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
