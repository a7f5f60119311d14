// How the model editor reads the files it opens, the one thing that differs between the desktop and
// the web: on the desktop, a file on disk by its path, in worker threads (disk-files.ts); on the web,
// any file vscode.workspace.fs reads, its bytes read first and scanned in a Web Worker or on the
// host's thread (web/model-editor/web-files.ts). The editor itself (editor.ts, document.ts, view.ts)
// is the same code on both. And the host's cores, for how many readers share a scan (document.ts):
// no node:os here (the web build takes this folder), so the desktop says its count once its model
// files are set up (disk-files.ts); a browser's runtime tells it through navigator; else one core.
import type * as vscode from 'vscode';
import type { ModelShape } from '../../core/model-attention/scan.js';
import type { ModelReading } from './reader.js';

export interface ModelFiles {
  /** What the document's readers open for `uri` (a path on disk, or the URI), or why it cannot be read here. */
  pathOf(uri: vscode.Uri): { path: string } | { refused: string };
  /** A new reader of model files. */
  newReader(): ModelReading;
  /** Helpers that may join a scan of this shape (default: one per spare core). */
  helperCount?(shape: ModelShape): number;
}

let saidCores: number | undefined;

/** The desktop's count (os.availableParallelism()). */
export function sayHostCores(cores: number): void { saidCores = cores; }

export function hostCores(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  return saidCores ?? (nav?.hardwareConcurrency || 1);
}
