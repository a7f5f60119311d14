// Where a view opened "beside" an editor goes, for everything the extension opens beside: the model
// editor on a spec's file, a model spec's run, a notebook output, the Attention panel. VS Code's
// ViewColumn.Beside is the column right of the active one, so an editor in the second of two groups
// got a third, and every view shrank to a third of the window (270 px). Beside is used only when the
// window has one group; otherwise the view goes into an existing group other than the editor's: the
// next one to its right, else the one to its left.
import * as vscode from 'vscode';

/** VS Code's ViewColumn.Beside (-2), kept here so the rule is a pure function of numbers. */
export const BESIDE = -2;

/**
 * The column to open beside the editor in column `from` (undefined: not known, taken as the first),
 * given the columns of the window's editor groups. Never a column that is not one of `groups`, unless
 * there is only one group (then BESIDE, which makes the second).
 */
export function besideColumn(from: number | undefined, groups: readonly number[]): number {
  const columns = [...new Set(groups.filter((c) => Number.isInteger(c) && c >= 1))].sort((a, b) => a - b);
  if (columns.length <= 1) return BESIDE;
  const at = from !== undefined && columns.includes(from) ? from : columns[0];
  return columns.find((c) => c > at) ?? columns.filter((c) => c < at).at(-1)!;
}

/**
 * The column beside `from`, else beside the editor showing `document`, else beside the active text
 * editor or group, among the window's groups now.
 */
export function columnBeside(options: { from?: vscode.ViewColumn; document?: vscode.Uri } = {}): vscode.ViewColumn {
  const window = vscode.window;
  const shown = options.document?.toString();
  const from = options.from
    ?? (shown === undefined ? undefined : window.visibleTextEditors.find((e) => e.document.uri.toString() === shown)?.viewColumn)
    ?? window.activeTextEditor?.viewColumn
    ?? (window.tabGroups.activeTabGroup as vscode.TabGroup | undefined)?.viewColumn;
  return besideColumn(from, window.tabGroups.all.map((g) => g.viewColumn)) as vscode.ViewColumn;
}
