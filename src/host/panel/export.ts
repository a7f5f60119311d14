// Export SVG / PNG: the webview sends the picture, the host writes it where the user chose in the save
// dialog (save-dialog.ts; it proposes <spec>.<view>.svg or .png beside the spec, apple-watch-lens.arcs.svg)
// and says where. An existing file of that
// name is replaced, and the message says so. The checks are in export-file.ts (no vscode, unit-tested).
import * as vscode from 'vscode';
import { exportBytes, exportedMessage, exportPath, type ExportFormat } from './export-file.js';

export function exportUri(specUri: vscode.Uri, view: string, format: ExportFormat): vscode.Uri {
  return specUri.with({ path: exportPath(specUri.path, view, format), query: '', fragment: '' });
}

/** Writes the picture to `target` (by default <spec>.<view>.<format> beside the spec) and says where. */
export async function writeExport(specUri: vscode.Uri, view: string, format: ExportFormat, data: string,
  target = exportUri(specUri, view, format)): Promise<vscode.Uri | undefined> {
  const bytes = exportBytes(format, data);
  if (typeof bytes === 'string') {
    void vscode.window.showErrorMessage(`Attention Lens: export failed: ${bytes}.`);
    return undefined;
  }
  const existed = await vscode.workspace.fs.stat(target).then(() => true, () => false);
  try {
    await vscode.workspace.fs.writeFile(target, bytes);
  } catch (err) {
    void vscode.window.showErrorMessage(`Attention Lens: could not write ${target.fsPath}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const shown = target.scheme === 'file' ? vscode.workspace.asRelativePath(target, false) : target.toString();
  void vscode.window.showInformationMessage(exportedMessage(shown, existed));
  return target;
}
