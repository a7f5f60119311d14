// Export SVG / PNG: the webview sends the picture, the host writes it next to the spec as
// <spec>.<view>.svg or .png (apple-watch-lens.arcs.svg) and says where.
import * as vscode from 'vscode';
import { specStem } from './spec-files.js';

const PNG_PREFIX = 'data:image/png;base64,';
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function exportUri(specUri: vscode.Uri, view: string, format: 'svg' | 'png'): vscode.Uri {
  const safeView = view.replace(/[^A-Za-z0-9_-]/g, '') || 'view';
  return vscode.Uri.joinPath(specUri, '..', `${specStem(specUri)}.${safeView}.${format}`);
}

/** The file's bytes, or an error message when the webview sent something that is not that format. */
export function exportBytes(format: 'svg' | 'png', data: string): Uint8Array | string {
  if (format === 'svg') {
    return /<svg[\s>]/.test(data.slice(0, 2048)) ? Buffer.from(data, 'utf8') : 'the panel did not send an SVG';
  }
  if (!data.startsWith(PNG_PREFIX)) return 'the panel did not send a PNG data URL';
  const bytes = Buffer.from(data.slice(PNG_PREFIX.length), 'base64');
  return PNG_SIGNATURE.every((b, i) => bytes[i] === b) ? bytes : 'the panel sent data that is not a PNG';
}

export async function writeExport(specUri: vscode.Uri, view: string, format: 'svg' | 'png', data: string): Promise<vscode.Uri | undefined> {
  const bytes = exportBytes(format, data);
  if (typeof bytes === 'string') {
    void vscode.window.showErrorMessage(`Attention Lens: export failed: ${bytes}.`);
    return undefined;
  }
  const target = exportUri(specUri, view, format);
  try {
    await vscode.workspace.fs.writeFile(target, bytes);
  } catch (err) {
    void vscode.window.showErrorMessage(`Attention Lens: could not write ${target.fsPath}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const shown = target.scheme === 'file' ? vscode.workspace.asRelativePath(target, false) : target.toString();
  void vscode.window.showInformationMessage(`Attention Lens: exported ${shown}`);
  return target;
}
