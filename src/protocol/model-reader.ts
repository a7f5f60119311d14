// Requests to the model reader's worker thread and its answers (host/model-editor/worker.ts and
// reader.ts). 'open' reads only the file's header; 'openHeld' takes attention the host holds in
// memory (a notebook output's payload) as every reader's one copy, never written to disk; 'pass' reads a range of heads (the scan is shared
// out between workers in such ranges, host/model-editor/scan.ts), 'band' rows of one big head (its scan shared out
// the same way); 'head' (whole), 'picture', 'window' and 'tile' (a big head: its picture, exact weights of a part, and
// a tile of its map), and 'rollout' answer the views.
import type { ScanOptions } from '../core/model-attention/data.js';
import type { ModelShape } from '../core/model-attention/scan.js';
import type { OpenOptions } from '../core/files/open.js';
import type { PassResult } from '../core/tensors/pass.js';
import type { PayloadDType } from '../core/model-attention/payload.js';
import type { BandResult } from '../core/tensors/band.js';
import type { HeadTile } from '../core/model-attention/tiles.js';

/**
 * Attention the host holds in memory, read as a file is: a notebook output's checked payload, its
 * values in shared memory so that the document's reader and its scan's helpers read one copy.
 */
export interface HeldAttention {
  /** The name shown as the file's. */
  name: string;
  tokens: string[];
  /** [layers, heads, n, n]. */
  shape: [number, number, number, number];
  dtype: PayloadDType;
  /** The little-endian values, C order. */
  values: SharedArrayBuffer;
}

export type ReaderRequest =
  | { id: number; op: 'open'; path: string; open?: OpenOptions }
  | { id: number; op: 'openHeld'; held: HeldAttention }
  | { id: number; op: 'pass'; from: number; to: number; options: ScanOptions }
  | { id: number; op: 'head'; layer: number; head: number; options: ScanOptions }
  | { id: number; op: 'picture'; layer: number; head: number; options: ScanOptions }
  | { id: number; op: 'window'; layer: number; head: number; i0: number; rows: number; j0: number; cols: number; options: ScanOptions }
  | { id: number; op: 'band'; layer: number; head: number; first: number; rows: number; options: ScanOptions }
  /** `sinks` false: the sink columns are left out (the editor pools them from what its scan kept). */
  | { id: number; op: 'tile'; layer: number; head: number; level: number; i0: number; j0: number; rows: number; cols: number; options: ScanOptions; sinks?: boolean }
  | { id: number; op: 'rollout'; options: ScanOptions }
  | { id: number; op: 'close' };

export type ReaderResponse =
  | { id: number; ok: true; shape?: ModelShape; pass?: PassResult; weights?: Float32Array; picture?: { res: number; indices: Uint8Array; max: number }; rollout?: Float32Array | null; band?: BandResult; tile?: HeadTile; ms?: number }
  | { id: number; ok: false; error: string; tensorError: boolean };
