// The whole of one analysis for a panel, as a worker (worker_threads on the desktop, a Web Worker
// later) runs it: read the spec, compute, and pack the result for the wire. Pure: no vscode, no
// Node built-ins, so the same module runs wherever the worker does.
import { analyze } from '../index.js';
import type { Progress } from '../attention.js';
import type { Problem } from '../problems.js';
import type { TensorFiles } from '../tensors/spec-files.js';
import { encodeAttention, type WireMessage } from './wire.js';

export interface WireAnalysis {
  /** Reader problems and compute warnings, with their spans in the text. */
  problems: Problem[];
  /** The packed result; absent when the spec has errors. */
  wire?: WireMessage;
}

/** `files`: where the tensor files the spec names are opened (its folder); absent for a spec not on disk. */
export function analyzeForWire(text: string, onProgress?: Progress, files?: TensorFiles): WireAnalysis {
  const a = analyze(text, { onProgress, files, linalg: true });
  return { problems: a.problems, ...(a.data ? { wire: encodeAttention(a.data) } : {}) };
}
