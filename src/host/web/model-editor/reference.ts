// Where the attention file a spec references ({ "attention": { "file" } }) lies on the web: beside
// the spec or below it (no absolute path, no "..", the desktop's rule), and within the spec's
// workspace folder, since workspace.fs would read any URI it is given and a spec is someone else's
// text. The desktop's is panel/reference.ts (on disk, links followed).
import * as vscode from 'vscode';
import { badFileName } from '../../../core/spec/read/file-name.js';
import type { AttentionReference } from '../../../core/spec/read/reference.js';
import { inFolder } from '../in-workspace.js';

/** The referenced file's URI, or a sentence saying why the model editor does not open it. */
export function webReferencedFile(specUri: vscode.Uri, ref: Pick<AttentionReference, 'file'>): vscode.Uri | string {
  const bad = badFileName(ref.file);
  if (bad) return `${ref.file}: ${bad}`;
  const folder = vscode.workspace.getWorkspaceFolder(specUri);
  if (!folder) return `${ref.file}: this spec is not in a folder of the workspace, so the model editor does not open files beside it here`;
  const file = vscode.Uri.joinPath(specUri, '..', ref.file);
  if (file.path === folder.uri.path || !inFolder(folder.uri, file)) return `${ref.file}: outside the workspace folder ${folder.name}`;
  return file;
}
