// The model views' reads of a run that kept no n × n (its forward kept each layer's q and k, and made
// every head's statistics, thumbnail and picture as it computed the rows: one PassResult): the grid's
// 'pass' ranges and a head's 'picture' are cut from what the forward made, never computed again, so
// the grid paints as soon as the run is done; the exact weights (a head, a window, a tile) are
// computed from q and k by the run's attention source (qk-source.ts).
import type { ModelShape } from '../../core/model-attention/scan.js';
import { thumbOf } from '../../core/model-attention/scan.js';
import type { AttentionSource } from '../../core/tensors/attention-source.js';
import type { HeadPicture, PassResult } from '../../core/tensors/pass.js';

/**
 * The shape the views open (as scan.ts's shapeOf gives a file's), without inspect's limit on the
 * weights a pass may read: this run's pass is already made, and a read computes only the rows it asks.
 */
export function keptShape(a: AttentionSource): ModelShape {
  const { thumb, note } = thumbOf(a);
  const notes = [...(a.notes ?? []), ...(note ? [note] : [])];
  return { file: a.file, dtype: a.dtype, layers: a.layers, heads: a.heads, tokens: a.n, tokenTexts: a.tokens ?? [], thumb, ...(notes.length ? { notes } : {}) };
}

/** Throws unless `pass` holds every head of `a` with thumbnails of `thumb` (what the views will read it as). */
export function checkKeptPass(a: AttentionSource, pass: PassResult, thumb: number): void {
  const total = a.layers * a.heads;
  if (pass.stats.length !== total || pass.thumbnails.length !== total * thumb * thumb || (pass.pictures && pass.pictures.length !== total)) {
    throw new Error(`${a.file}: the run's pass holds ${pass.stats.length} heads, ${pass.thumbnails.length} thumbnail pixels and ${pass.pictures?.length ?? 0} pictures, not ${total} heads at ${thumb}²`);
  }
}

/**
 * Heads from … to − 1 of the kept pass, as a pass over that range gives them: copies (the answer's
 * buffers are posted away, the kept ones stay). The counts of rows off 1, zero rows and negative
 * weights are the whole run's, so they go with the range that starts at head 0 (the scan's first,
 * which it merges first: its total is the run's) and the other ranges carry none.
 */
export function keptRange(pass: PassResult, total: number, thumb: number, from: number, to: number): PassResult {
  if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= total)) throw new RangeError(`heads ${from} … ${to} are outside the run's ${total}`);
  const counts = from === 0
    ? { offRows: pass.offRows, firstOff: pass.firstOff, zeroRows: pass.zeroRows, firstZero: pass.firstZero, negatives: pass.negatives, firstNegative: pass.firstNegative }
    : { offRows: 0, firstOff: '', zeroRows: 0, firstZero: '', negatives: 0, firstNegative: '' };
  // Any other list the pass keeps a head at a time (one entry per head, in the order of stats) is cut to the range too.
  const perHead = Object.fromEntries(Object.entries(pass).filter(([k, v]) => !CUT.has(k) && Array.isArray(v) && v.length === total).map(([k, v]) => [k, (v as unknown[]).slice(from, to)]));
  return {
    ...perHead, stats: pass.stats.slice(from, to), thumbnails: pass.thumbnails.slice(from * thumb * thumb, to * thumb * thumb), ...counts,
    ...(pass.pictures ? { pictures: pass.pictures.slice(from, to).map(copyPicture) } : {}),
  };
}

/** The pass's fields keptRange cuts by name, or leaves out (the column maxima stay in the worker: the run's maps are made there). */
const CUT = new Set(['stats', 'thumbnails', 'pictures', 'columnMaxes']);

/** The kept picture of a head (a copy), or undefined when the run kept none (heads small enough to send whole). */
export function keptPicture(pass: PassResult, heads: number, layer: number, head: number): HeadPicture | undefined {
  const p = pass.pictures?.[layer * heads + head];
  return p && Number.isInteger(layer) && Number.isInteger(head) && head >= 0 && head < heads ? copyPicture(p) : undefined;
}

const copyPicture = (p: HeadPicture): HeadPicture => ({ res: p.res, indices: p.indices.slice(), max: p.max });
