// The messages between the extension host and its analysis worker (analysis-worker.ts).
import type { WireAttention } from '../core/model/wire.js';
import type { Problem } from '../core/problems.js';

export interface WorkerRequest {
  id: number;
  text: string;
  /** The spec's folder on disk, where the tensor files it names are read; absent for an unsaved spec. */
  folder?: string;
}

export type WorkerReply =
  | { id: number; kind: 'progress'; done: number; total: number }
  | { id: number; kind: 'done'; problems: Problem[]; header?: WireAttention; buffer?: ArrayBuffer }
  | { id: number; kind: 'failed'; message: string };
