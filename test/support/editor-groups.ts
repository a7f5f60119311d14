// The window's editor groups in the vscode stand-in, which has none of its own: a test lays out the
// columns it needs, and puts the stand-in's back after.
import * as vscode from './vscode/index.js';

/** Makes the window's groups the given columns (the first active); returns what puts them back. */
export function withGroups(columns: number[]): () => void {
  const standIn = Object.getOwnPropertyDescriptor(vscode.window, 'tabGroups')!;
  const all = columns.map((viewColumn) => ({ viewColumn, tabs: [] }));
  Object.defineProperty(vscode.window, 'tabGroups', { configurable: true, get: () => ({ all, activeTabGroup: all[0] }) });
  return () => Object.defineProperty(vscode.window, 'tabGroups', standIn);
}
