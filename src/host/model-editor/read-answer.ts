// A model reader's answer to one request over an attention source: the streaming pass over a range
// of heads, a head whole, its picture, a window of exact weights, the rollout. Shared by the model
// editor's worker (a file on disk) and the model run's worker (a run's layers, read where they lie),
// so the views read both alike. Results are typed arrays whose buffers the caller transfers.
import type { AttentionSource } from '../../core/tensors/attention-source.js';
import { bandOverRows, headFloat32, headPicture, headWindow, passOverRange, rolloutOf } from '../../core/model-attention/scan.js';
import { sinksOf, tileFromSource } from '../../core/model-attention/tiles.js';
import type { MapPart } from '../../core/tensors/map/pyramid.js';
import type { ReaderRequest, ReaderResponse } from '../../protocol/model-reader.js';

type ReadRequest = Exclude<ReaderRequest, { op: 'open' } | { op: 'openHeld' } | { op: 'close' }>;

/** The answer to a read of `file`, an open file or a run (throws as the scan functions do; the caller turns that into an error reply). */
export function answerRead(file: AttentionSource | undefined, r: ReadRequest): { response: ReaderResponse; transfer: ArrayBuffer[] } {
  if (!file) throw new Error('no file is open');
  switch (r.op) {
    case 'pass': {
      const t0 = performance.now();
      const pass = passOverRange(file, r.from, r.to, r.options);
      const pictures = (pass.pictures ?? []).map((p) => p.indices.buffer as ArrayBuffer);
      const levels = (pass.maps ?? []).flatMap(mapBuffers);
      return { response: { id: r.id, ok: true, pass, ms: performance.now() - t0 }, transfer: [pass.thumbnails.buffer as ArrayBuffer, ...pictures, ...levels] };
    }
    case 'band': {
      const t0 = performance.now();
      const band = bandOverRows(file, r.layer, r.head, r.first, r.rows, r.options);
      const levels = band.map ? mapBuffers(band.map) : [];
      return { response: { id: r.id, ok: true, band, ms: performance.now() - t0 }, transfer: [band.terms.buffer as ArrayBuffer, band.thumb.max.buffer as ArrayBuffer, ...(band.picture ? [band.picture.max.buffer as ArrayBuffer] : []), ...levels] };
    }
    case 'tile': {
      const tile = tileFromSource(file, r.layer, r.head, r.level, r.i0, r.j0, r.rows, r.cols, sinksOf(file, r.layer, r.head, r.options), r.options, r.sinks !== false);
      const sinks = (tile.sinkColumns ?? []).flatMap((c) => [c.max.buffer, c.sum.buffer] as ArrayBuffer[]);
      return { response: { id: r.id, ok: true, tile }, transfer: [tile.max.buffer as ArrayBuffer, tile.sum.buffer as ArrayBuffer, ...sinks] };
    }
    case 'head': {
      const weights = headFloat32(file, r.layer, r.head, r.options);
      return { response: { id: r.id, ok: true, weights }, transfer: [weights.buffer as ArrayBuffer] };
    }
    case 'picture': {
      const picture = headPicture(file, r.layer, r.head, r.options);
      return { response: { id: r.id, ok: true, picture }, transfer: [picture.indices.buffer as ArrayBuffer] };
    }
    case 'window': {
      const weights = headWindow(file, r.layer, r.head, r.i0, r.rows, r.j0, r.cols, r.options);
      return { response: { id: r.id, ok: true, weights }, transfer: [weights.buffer as ArrayBuffer] };
    }
    case 'rollout': {
      const rollout = rolloutOf(file, r.options) ?? null;
      return { response: { id: r.id, ok: true, rollout }, transfer: rollout ? [rollout.buffer as ArrayBuffer] : [] };
    }
  }
}

/** The buffers of a map part (its pyramid and sink columns), transferred with the answer. */
function mapBuffers(m: MapPart): ArrayBuffer[] {
  return [...m.levels.flatMap((l) => [l.max.buffer, l.sum.buffer, l.sinkMax.buffer, l.sinkSum.buffer]), ...m.columns.map((c) => c.buffer)] as ArrayBuffer[];
}

/** An error reply: `tensorError` when a reader refused the file (its message is shown as it is). */
export function errorReply(id: number, e: unknown): ReaderResponse {
  return { id, ok: false, error: e instanceof Error ? e.message : String(e), tensorError: e instanceof Error && (e.name === 'TensorFileError' || e.name === 'ModelError' || e.name === 'TokenizerError') };
}
