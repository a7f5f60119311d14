// Where Export SVG / PNG writes: the user says, in VS Code's save dialog, which proposes <spec>.<view>.svg
// beside the spec, or in the workspace folder when the spec is one of the extension's examples (whose
// folder is not the user's) or not a file on disk. The dialog is asked through the Dialogs the panel
// is given (dialogs.ts), which the integration tests' API replaces with ones that take the proposal.
import * as vscode from 'vscode';
import type { Dialogs } from '../dialogs.js';
import { exportFileName, type ExportFormat } from './export-file.js';
import { exportUri } from './export.js';
import { isExampleSpec, workspaceFolder } from '../examples/examples.js';

/** The file the dialog proposes for an export of `view` of the spec at `specUri`. */
export function proposedExport(specUri: vscode.Uri, view: string, format: ExportFormat, extensionUri: vscode.Uri): vscode.Uri {
  const folder = workspaceFolder();
  if (folder && (specUri.scheme !== 'file' || isExampleSpec(specUri, extensionUri))) {
    return vscode.Uri.joinPath(folder, exportFileName(specUri.path, view, format));
  }
  return exportUri(specUri, view, format);
}

/** Asks where to write the export; undefined when the user cancels. */
export async function askExportTarget(specUri: vscode.Uri, view: string, format: ExportFormat, extensionUri: vscode.Uri, dialogs: Dialogs): Promise<vscode.Uri | undefined> {
  const defaultUri = proposedExport(specUri, view, format, extensionUri);
  return dialogs.save({
    defaultUri, saveLabel: 'Export', title: `Export the ${view} view as ${format.toUpperCase()}`,
    filters: format === 'svg' ? { 'SVG picture': ['svg'] } : { 'PNG picture': ['png'] },
  });
}
