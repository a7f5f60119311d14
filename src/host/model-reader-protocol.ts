// Requests to the model reader's worker thread and its answers (model-worker.ts, model-reader.ts).
import type { ModelHeader, ScanOptions } from '../core/model-attention/data.js';
import type { OpenOptions } from '../core/tensors/open.js';

export type ReaderRequest =
  | { id: number; op: 'scan'; path: string; options: ScanOptions; open?: OpenOptions }
  | { id: number; op: 'head'; layer: number; head: number; options: ScanOptions }
  | { id: number; op: 'rollout'; options: ScanOptions }
  | { id: number; op: 'close' };

export type ReaderResponse =
  | { id: number; ok: true; header?: ModelHeader; thumbnails?: Float32Array; weights?: Float32Array; rollout?: Float32Array | null; ms?: number }
  | { id: number; ok: false; error: string; tensorError: boolean };
