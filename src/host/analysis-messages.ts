// The messages between the extension host and its analysis worker (analysis-worker.ts).
import type { WireAttention } from '../core/model/wire.js';
import type { Problem } from '../core/problems.js';

export interface WorkerRequest {
  id: number;
  text: string;
}

export type WorkerReply =
  | { id: number; kind: 'progress'; done: number; total: number }
  | { id: number; kind: 'done'; problems: Problem[]; header?: WireAttention; buffer?: ArrayBuffer }
  | { id: number; kind: 'failed'; message: string };
