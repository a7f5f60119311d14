// The whole of one analysis for a panel, as a worker (worker_threads on the desktop, a Web Worker
// later) runs it: read the spec, compute, and pack the result for the wire. Pure: no vscode, no
// Node built-ins, so the same module runs wherever the worker does.
import { analyze } from '../index.js';
import type { Progress } from '../attention/attention.js';
import type { Problem } from '../json/problems.js';
import type { TensorFiles } from '../files/spec-files.js';
import { encodeAttention, type WireMessage } from './wire.js';
import type { LinalgJson } from './linalg-data.js';
import type { AttentionReference } from '../spec/read-reference.js';

export interface WireAnalysis {
  /** Reader problems and compute warnings, with their spans in the text. */
  problems: Problem[];
  /** The packed result; absent when the spec has errors. */
  wire?: WireMessage;
  /** For a 'linalg' request: the linear-algebra views' numbers. */
  linalg?: LinalgJson;
  /** A spec that names a model's attention file: the panel opens the model views on it. */
  reference?: AttentionReference;
}

/** `files`: where the tensor files the spec names are opened (its folder); absent for a spec not on disk. */
export function analyzeForWire(text: string, onProgress?: Progress, files?: TensorFiles): WireAnalysis {
  const a = analyze(text, { onProgress, files });
  return { problems: a.problems, ...(a.data ? { wire: encodeAttention(a.data) } : {}), ...(a.reference ? { reference: a.reference } : {}) };
}

/** The linear-algebra views' numbers alone, made when a view asks for them (they cost more than the attention). */
export function linalgForWire(text: string, files?: TensorFiles): LinalgJson | undefined {
  return analyze(text, { files, linalg: true }).data?.linalg;
}
