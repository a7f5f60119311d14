// Which documents are attention specs: files named *.attn.json, in any scheme (file, untitled, remote).
import type * as vscode from 'vscode';

export const SPEC_SUFFIX = '.attn.json';
export const SPEC_GLOB = '**/*.attn.json';

export function isSpecUri(uri: vscode.Uri): boolean {
  return uri.path.toLowerCase().endsWith(SPEC_SUFFIX);
}

export function isSpecDocument(document: vscode.TextDocument): boolean {
  return isSpecUri(document.uri);
}

/** The file name without folders and without ".attn.json": "apple-watch-lens". */
export function specStem(uri: vscode.Uri): string {
  const base = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  return base.toLowerCase().endsWith(SPEC_SUFFIX) ? base.slice(0, -SPEC_SUFFIX.length) : base;
}

export function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
