// The scan of a model file shared out between worker threads: the heads are cut into ranges of
// about four million weights (one head at n = 4,096, sixteen at 512), each worker takes the next
// range when it is free, and the answers are put together in head order (PassAccumulator), so the
// result is exactly one pass's. A big head (its map: more than WHOLE_HEAD_MAX tokens) of more
// weights than a range is cut into bands of rows instead, shared out the same way and put together
// per head (tensors/band.ts), so a file of one 32,768-token head is read by every worker and its
// map fills in band by band. Every time the heads read in order grow, `onRead` hears of it: the
// editor paints the first heads while the rest are read.
import type { ScanOptions } from '../../core/model-attention/data.js';
import { scanPassShape, type ModelShape } from '../../core/model-attention/scan.js';
import { WHOLE_HEAD_MAX } from '../../core/model-attention/data.js';
import { PassAccumulator } from '../../core/tensors/pass.js';
import { HeadBands, headBands } from '../../core/tensors/band.js';
import { scanHelpersWithin } from '../../core/budget.js';
import type { ModelReading } from './reader.js';

/** What a scan asks of a reader: ranges of heads, and bands of a big head's rows when it can. */
type RangeReader = Pick<ModelReading, 'pass' | 'band'>;

/** One request of a scan: a range of heads, or a band of rows of one head (flat: layer · heads + head). */
export type ScanUnit = { from: number; to: number } | { flat: number; first: number; rows: number };

/** Weights per request: a worker answers in tens of milliseconds, so progress comes often. */
export const WEIGHTS_PER_RANGE = 2 ** 22;

/** Readers at most that join a scan besides the document's own (memory: a few rows each). */
export const MAX_SCAN_HELPERS = 3;

/** Helpers for a scan of `shape`: one per spare core (the host keeps one), none when one range is all, fewer when each would inflate the file again. */
export function scanHelperCount(shape: Pick<ModelShape, 'layers' | 'heads' | 'tokens' | 'inflated'>, cores: number, weightsPerRange = WEIGHTS_PER_RANGE): number {
  return scanHelpersWithin(shape.inflated, Math.max(0, Math.min(MAX_SCAN_HELPERS, cores - 1, headRanges(shape, weightsPerRange).length - 1)));
}

/** The ranges [from, to) of heads, in order. */
export function headRanges(shape: Pick<ModelShape, 'layers' | 'heads' | 'tokens'>, weightsPerRange = WEIGHTS_PER_RANGE): [number, number][] {
  const total = shape.layers * shape.heads;
  const per = Math.max(1, Math.floor(weightsPerRange / (shape.tokens * shape.tokens)));
  const ranges: [number, number][] = [];
  for (let from = 0; from < total; from += per) ranges.push([from, Math.min(total, from + per)]);
  return ranges;
}

/**
 * The requests of a scan, in order: ranges of heads, and for each big head of more weights than a
 * range (when `bands`), its bands of rows.
 */
export function scanUnits(shape: Pick<ModelShape, 'layers' | 'heads' | 'tokens'>, weightsPerRange = WEIGHTS_PER_RANGE, bands = true): ScanUnit[] {
  const n = shape.tokens;
  if (!(bands && n > WHOLE_HEAD_MAX && n * n > weightsPerRange)) return headRanges(shape, weightsPerRange).map(([from, to]) => ({ from, to }));
  const units: ScanUnit[] = [];
  const cut = headBands(n, weightsPerRange);
  for (let flat = 0; flat < shape.layers * shape.heads; flat++) for (const [first, rows] of cut) units.push({ flat, first, rows });
  return units;
}

/**
 * Reads every head with the readers (each has the file open). Rejects with the first error; `stop()`
 * returning true (the editor closed, or a newer scan began) ends it quietly after the ranges under way.
 * `later`: readers that join when it resolves (the editor adds its helpers once the webview has
 * booted, so that the scan does not take the cores the webview needs for its first paint).
 */
export async function scanWithReaders<R extends RangeReader>(readers: readonly R[], shape: ModelShape, options: ScanOptions, onRead: (done: PassAccumulator) => void, stop: () => boolean = () => false, weightsPerRange = WEIGHTS_PER_RANGE, later?: Promise<readonly R[]>, partial = new Map<number, HeadBands>()): Promise<PassAccumulator> {
  const done = new PassAccumulator(shape.layers * shape.heads, shape.thumb);
  const units = scanUnits(shape, weightsPerRange, readers.every((r) => r.band !== undefined));
  const passShape = scanPassShape(shape, options);
  let next = 0;
  let failed = false;
  const work = async (reader: R) => {
    while (next < units.length && !failed && !stop()) {
      const unit = units[next++];
      try {
        if ('flat' in unit) {
          const { flat, first, rows } = unit;
          const band = await reader.band!(Math.floor(flat / shape.heads), flat % shape.heads, first, rows, options);
          if (stop()) return;
          let head = partial.get(flat);
          if (!head) partial.set(flat, head = new HeadBands(passShape, band.layer, band.head));
          if (!head.add(band)) continue;
          // The head's last band: it joins the pass (its bands are dropped once the pass holds it in order).
          const added = done.add(flat, head.finish());
          for (const k of partial.keys()) if (k < done.read) partial.delete(k);
          if (added > 0) onRead(done);
          continue;
        }
        const part = await reader.pass(unit.from, unit.to, options);
        if (stop()) return;
        if (done.add(unit.from, part) > 0) onRead(done);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const joined: Promise<void>[] = [];
  let finished = false;
  void later?.then((more) => {
    if (finished) return;
    for (const r of more) {
      const helping = work(r);
      // Awaited below when the scan goes well; if it fails first, a helper's own failure is not news.
      helping.catch(() => {});
      joined.push(helping);
    }
  }, () => {});
  try {
    await Promise.all(readers.map(work));
    // Readers that joined may still be reading their last range.
    await Promise.all(joined);
  } finally {
    finished = true;
  }
  return done;
}
