// The messages between the extension host and its analysis worker (analysis-worker.ts).
import type { WireAttention } from '../core/result/wire.js';
import type { Problem } from '../core/json/problems.js';
import type { AttentionReference } from '../core/spec/read-reference.js';
import type { LinalgJson } from '../core/result/linalg-data.js';

export interface WorkerRequest {
  id: number;
  text: string;
  /** The spec's folder on disk, where the tensor files it names are read; absent for an unsaved spec. */
  folder?: string;
  /** 'linalg': the linear-algebra views' numbers only. */
  want?: 'result' | 'linalg';
}

export type WorkerReply =
  | { id: number; kind: 'progress'; done: number; total: number }
  | { id: number; kind: 'done'; problems: Problem[]; header?: WireAttention; buffer?: ArrayBuffer; reference?: AttentionReference }
  | { id: number; kind: 'linalg'; linalg?: LinalgJson }
  | { id: number; kind: 'failed'; message: string };
