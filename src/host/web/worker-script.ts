// A web worker's script as a URL a worker may start from: read through vscode.workspace.fs from the
// extension's folder (which may be on a remote server or a CDN) and handed out as a blob: URL, since
// the web worker extension host can start a worker from neither a vscode-remote: URI nor another origin.
import * as vscode from 'vscode';

export async function workerScriptUrl(extensionUri: vscode.Uri, ...script: readonly string[]): Promise<string> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, ...script));
  return URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'text/javascript' }));
}
