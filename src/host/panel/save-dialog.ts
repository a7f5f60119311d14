// Where Export SVG / PNG writes: the user says, in VS Code's save dialog, which proposes <spec>.<view>.svg
// beside the spec, or in the workspace folder when the spec is one of the extension's examples (whose
// folder is not the user's) or not a file on disk. The integration tests cannot press a button in that
// dialog, so the test seam (test-api.ts, through extension.ts) may answer it with the proposed file.
import * as vscode from 'vscode';
import { exportFileName, type ExportFormat } from './export-file.js';
import { exportUri } from './export.js';
import { isExampleSpec, workspaceFolder } from '../examples/examples.js';

/** How save dialogs are answered: by the user ('ask'), or at once with the proposed file (tests only). */
export type SaveDialogAnswer = 'ask' | 'default';
let answer: SaveDialogAnswer = 'ask';

/** The test seam's switch (only extension.ts's test API calls it). */
export function answerSaveDialogs(how: SaveDialogAnswer): void {
  answer = how;
}

/** Whether save dialogs are answered at once with the proposed file (the test seam's 'default'). */
export function answersByDefault(): boolean {
  return answer === 'default';
}

/** The file the dialog proposes for an export of `view` of the spec at `specUri`. */
export function proposedExport(specUri: vscode.Uri, view: string, format: ExportFormat, extensionUri: vscode.Uri): vscode.Uri {
  const folder = workspaceFolder();
  if (folder && (specUri.scheme !== 'file' || isExampleSpec(specUri, extensionUri))) {
    return vscode.Uri.joinPath(folder, exportFileName(specUri.path, view, format));
  }
  return exportUri(specUri, view, format);
}

/** Asks where to write the export; undefined when the user cancels. */
export async function askExportTarget(specUri: vscode.Uri, view: string, format: ExportFormat, extensionUri: vscode.Uri): Promise<vscode.Uri | undefined> {
  const defaultUri = proposedExport(specUri, view, format, extensionUri);
  if (answer === 'default') return defaultUri;
  return vscode.window.showSaveDialog({
    defaultUri, saveLabel: 'Export', title: `Export the ${view} view as ${format.toUpperCase()}`,
    filters: format === 'svg' ? { 'SVG picture': ['svg'] } : { 'PNG picture': ['png'] },
  });
}
