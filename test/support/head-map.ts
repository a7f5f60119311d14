// A big head for the map's tests: every weight from a rule (key 0 a sink taking half of each row, the
// previous token 0.3, the rest of the row shared), its map (levels down to ≤ 256 blocks a side, the
// sink, the two scales) and any tile of it computed the slow, obvious way, as the host would answer.
import { scanModel } from '../../src/core/model-attention/scan.js';
import type { ModelViewData } from '../../src/core/model-attention/data.js';
import { blocksAt, type HeadMap, type HeadTile, type TileAnswer } from '../../webview/views/model/map/tile-types.js';
import type { TileSpec } from '../../webview/views/model/map/plan.js';
import { memoryAttention } from './model-fixture.js';

/** Row i: key 0 takes 0.5, key i − 1 another 0.3, keys 1 … i share 0.2 (row 0 is all key 0). */
export function needleHead(n: number): Float32Array {
  const w = new Float32Array(n * n);
  w[0] = 1;
  for (let i = 1; i < n; i++) {
    w[i * n] = 0.5;
    w[i * n + i - 1] += 0.3;
    for (let j = 1; j <= i; j++) w[i * n + j] += 0.2 / i;
  }
  return w;
}

export function mapOf(w: Float32Array, n: number, sinks: number[] = [0]): HeadMap {
  let max = 0, sinkMax = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const v = w[i * n + j];
    if (sinks.includes(j)) sinkMax = Math.max(sinkMax, v); else max = Math.max(max, v);
  }
  let levels = 1;
  while (blocksAt(n, levels - 1) > 256) levels++;
  return { n, levels, sinks, max, sinkMax };
}

/** The tile `spec` of the head: block max and sum with the sinks left out, and the sinks' columns. */
export function tileOf(w: Float32Array, map: HeadMap, spec: TileSpec): HeadTile {
  const { n } = map, b = 2 ** spec.level;
  const max = new Float32Array(spec.rows * spec.cols), sum = new Float32Array(spec.rows * spec.cols);
  const sinkColumns = map.sinks.map((key) => ({ key, max: new Float32Array(spec.rows), sum: new Float32Array(spec.rows) }));
  for (let r = 0; r < spec.rows; r++) {
    for (let i = (spec.i0 + r) * b; i < Math.min(n, (spec.i0 + r + 1) * b); i++) {
      for (let c = 0; c < spec.cols; c++) {
        for (let j = (spec.j0 + c) * b; j < Math.min(n, (spec.j0 + c + 1) * b); j++) {
          if (map.sinks.includes(j)) continue;
          const v = w[i * n + j];
          max[r * spec.cols + c] = Math.max(max[r * spec.cols + c], v);
          sum[r * spec.cols + c] += v;
        }
      }
      for (const s of sinkColumns) { s.max[r] = Math.max(s.max[r], w[i * n + s.key]); s.sum[r] += w[i * n + s.key]; }
    }
  }
  return { ...spec, max, sum, sinkColumns };
}

export function answerOf(w: Float32Array, map: HeadMap, ask: TileSpec & { layer: number; head: number }): TileAnswer {
  const { level, i0, j0, rows, cols } = ask;
  return { type: 'tile', layer: ask.layer, head: ask.head, ...tileOf(w, map, { level, i0, j0, rows, cols }) };
}

/**
 * The head view's data for a big head that came as its picture and map (tokens: `words` repeated).
 * Past 4,096 tokens the header is a small head's with the tokens changed (the view reads no statistic)
 * and there are no weights: the map's scales are given.
 */
export function mapData(n: number, words: readonly string[] = ['the', 'cat', 'sat']): { data: ModelViewData; w: Float32Array; map: HeadMap } {
  const tokens = Array.from({ length: n }, (_, i) => words[i % words.length]);
  const big = n > 4096;
  const w = big ? new Float32Array(0) : needleHead(n);
  const scanned = big ? scanModel(memoryAttention(needleHead(8), 1, 1, 8, tokens.slice(0, 8))) : scanModel(memoryAttention(w, 1, 1, n, tokens));
  const header = { ...scanned.header, tokens: n, tokenTexts: tokens }, thumbnails = scanned.thumbnails;
  const map = big ? { n, levels: Math.ceil(Math.log2(n / 256)) + 1, sinks: [0], max: 0.4, sinkMax: 1 } : mapOf(w, n);
  const res = Math.min(n, 512);
  return { data: { header, thumbnails, head: { layer: 0, head: 0, picture: { res, indices: new Uint8Array(res * res) }, max: Math.max(map.max, map.sinkMax), map } as ModelViewData['head'] }, w, map };
}
