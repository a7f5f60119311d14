// The extension's own examples (examples/*.attn.json in its folder) are for reading, never for
// writing: in code-server every edit is saved at once, so an edit to an example would be for good.
// isExampleSpec says whether a spec is one of them (then Apply Learned Weights writes a copy and
// Export proposes the workspace); examplesCopyFolder says where Open Example puts its copies.
import * as vscode from 'vscode';

export const EXAMPLES_FOLDER = 'examples';
/** The folder, in the first workspace folder, that Open Example copies the examples into. */
export const COPIES_FOLDER = 'attention-lens-examples';

/** The extension's examples folder. */
export function examplesFolder(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, EXAMPLES_FOLDER);
}

/** Whether `uri` is a file in the extension's own examples folder (or below it). */
export function isExampleSpec(uri: vscode.Uri, extensionUri: vscode.Uri): boolean {
  if (uri.scheme !== extensionUri.scheme || uri.authority !== extensionUri.authority) return false;
  // Windows paths compare without case, as path.relative compares them there.
  const fold = (p: string) => (/^\/[a-zA-Z]:/.test(p) ? p.toLowerCase() : p);
  const root = fold(examplesFolder(extensionUri).path.replace(/\/+$/, '')) + '/';
  const path = fold(uri.path);
  return path.length > root.length && path.startsWith(root) && !path.slice(root.length).split('/').includes('..');
}

/** The first workspace folder, if one is open. */
export function workspaceFolder(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/**
 * Where Open Example copies the examples: attention-lens-examples/ in the first workspace folder (the
 * learner sees and edits the copies there), or, with no folder open, the extension's own storage.
 */
export function examplesCopyFolder(globalStorageUri: vscode.Uri | undefined): vscode.Uri | undefined {
  const folder = workspaceFolder();
  if (folder) return vscode.Uri.joinPath(folder, COPIES_FOLDER);
  return globalStorageUri ? vscode.Uri.joinPath(globalStorageUri, EXAMPLES_FOLDER) : undefined;
}

/** A name for a new file in `folder`: `<stem><suffix>`, then `<stem>-2<suffix>`, … for the first that is free. */
export async function freeName(folder: vscode.Uri, stem: string, suffix: string): Promise<vscode.Uri> {
  for (let n = 1; ; n++) {
    const uri = vscode.Uri.joinPath(folder, `${stem}${n === 1 ? '' : `-${n}`}${suffix}`);
    const taken = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
    if (!taken) return uri;
  }
}
