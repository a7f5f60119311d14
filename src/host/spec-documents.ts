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

export function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
