// Whether a URI lies in a folder of the workspace, on the web: workspace.fs reads any URI it is given
// (another authority, another scheme), and a spec is someone else's text, so what a spec names is
// read only inside the workspace's folders. Compared by scheme, authority and path, a folder's path
// ending at a segment ("/w" holds "/w/x", not "/wx").
import * as vscode from 'vscode';

/** Whether `uri` is `root` or lies below it. */
export function inFolder(root: vscode.Uri, uri: vscode.Uri): boolean {
  if (root.scheme !== uri.scheme || root.authority !== uri.authority) return false;
  return uri.path === root.path || uri.path.startsWith(root.path.endsWith('/') ? root.path : `${root.path}/`);
}

/** Whether `uri` is a folder of the workspace or lies below one. */
export function inWorkspace(uri: vscode.Uri): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some((folder) => inFolder(folder.uri, uri));
}
