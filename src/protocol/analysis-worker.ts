// The messages between the extension host (host/analysis/runner.ts) and its analysis worker
// (host/analysis/worker.ts). A request carries the id of src/protocol/requests.ts; its answer is one
// envelope (WireAnalysis), the same whether the spec's result or the linear-algebra numbers were asked.
import type { WireAnalysis } from '../core/result/analyze-wire.js';

export interface WorkerRequest {
  id: number;
  text: string;
  /** The spec's folder on disk, where the tensor files it names are read; absent for an unsaved spec. */
  folder?: string;
  /**
   * The tensor files the spec names, already read by the host (the web build, through workspace.fs), by
   * the name the spec gives: their bytes, or the sentence saying why one was not read. Read from here, not `folder`.
   */
  files?: Record<string, Uint8Array | string>;
  /**
   * 'linalg': the linear-algebra views' numbers only, made from the result the worker kept of this
   * very text when it has one (the spec is then neither read nor computed again).
   */
  want?: 'result' | 'linalg';
}

export type WorkerReply =
  | { id: number; kind: 'progress'; done: number; total: number }
  | { id: number; kind: 'done'; analysis: WireAnalysis }
  | { id: number; kind: 'failed'; message: string };
