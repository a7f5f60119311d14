// A big head's map (src/core/model-attention/tiles.ts, tensors/pyramid.ts, tensors/sinks.ts): tile
// requests are checked (level, offsets, cell count), a tile read from the file at level 0 is the
// head's weights and at level L each block's max and sum computed densely, the sinks left out and
// given as columns; the pyramid the pass keeps gives the same tiles without reading.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blankTile, clipTile, sinkColumnsOf, headMapOf, headMapProblem, headTileProblem, levelSide, mapLevels, MAX_TILE_CELLS, sinksOf, tileFromPyramid, tileFromSource, tileProblem, type HeadTile } from '../../../../src/core/model-attention/tiles.js';
import { MAX_KEPT_PYRAMID_BYTES, pyramidBase, pyramidBytes } from '../../../../src/core/tensors/map/pyramid.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';
import { forEachRow } from '../../../../src/core/tensors/rows.js';
import type { AttentionSource } from '../../../../src/core/tensors/attention-source.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { memorySource, TensorFileError } from '../../../../src/core/tensors/source.js';
import { longAttention } from '../../../support/long-head.js';

/** The head's n × n, decoded. */
function dense(a: AttentionSource, layer: number, head: number): Float64Array {
  const out = new Float64Array(a.n * a.n);
  forEachRow(a, layer, head, (i, row) => out.set(row, i * a.n), { terms: false });
  return out;
}

/** The tile by its definition: every block's max (from 0) and sum over its cells, the sinks counted as 0; each sink's column pooled likewise. */
function denseTile(w: Float64Array, n: number, sinks: number[], level: number, i0: number, j0: number, rows: number, cols: number): HeadTile {
  const b = 2 ** level;
  ({ rows, cols } = clipTile(n, level, i0, j0, rows, cols));
  const max = new Float32Array(rows * cols), sum = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let m = 0, s = 0;
      for (let i = (i0 + r) * b; i < Math.min(n, (i0 + r + 1) * b); i++) {
        let rowSum = 0;
        for (let j = (j0 + c) * b; j < Math.min(n, (j0 + c + 1) * b); j++) {
          const v = sinks.includes(j) ? 0 : w[i * n + j];
          rowSum += v; if (v > m) m = v;
        }
        s += rowSum;
      }
      max[r * cols + c] = m; sum[r * cols + c] = s;
    }
  }
  const sinkColumns = sinks.map((key) => {
    const cm = new Float32Array(rows), cs = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      let s = 0;
      for (let i = (i0 + r) * b; i < Math.min(n, (i0 + r + 1) * b); i++) { const v = w[i * n + key]; s += v; cm[r] = Math.max(cm[r], v); }
      cs[r] = s;
    }
    return { key, max: cm, sum: cs };
  });
  return { level, i0, j0, rows, cols, max, sum, ...(sinkColumns.length ? { sinkColumns } : {}) };
}

const plain = (t: HeadTile) => ({ ...t, max: Array.from(t.max), sum: Array.from(t.sum), sinkColumns: t.sinkColumns?.map((c) => ({ key: c.key, max: Array.from(c.max), sum: Array.from(c.sum) })) });

test('levels: the coarsest is the first whose side fits one tile; the pyramid\'s budget picks its deepest level', () => {
  assert.equal(mapLevels(32768), 8);
  assert.equal(levelSide(32768, 7), 256);
  assert.equal(mapLevels(4096), 5);
  assert.equal(mapLevels(600), 3);
  assert.equal(levelSide(600, 2), 150);
  assert.equal(mapLevels(256), 1);
  // 16 × 16 blocks up for a 32,768 head: 8 · (2,048² + 1,024² + 512² + 256²) bytes, and each level's sink columns.
  assert.equal(pyramidBytes(32768, 4, 0), 8 * (2048 ** 2 + 1024 ** 2 + 512 ** 2 + 256 ** 2));
  assert.ok(pyramidBytes(32768, 4) < 45e6);
  assert.equal(pyramidBase(1, 32768), 3);
  assert.ok(pyramidBytes(32768, 3) < 180e6);
  assert.ok(pyramidBytes(32768, 2) > MAX_KEPT_PYRAMID_BYTES);
  assert.equal(pyramidBase(32, 4096), 3);
  assert.ok(32 * pyramidBytes(4096, 2) > MAX_KEPT_PYRAMID_BYTES);
  assert.equal(pyramidBase(16384, 4096), undefined, 'not even the coarsest level of 16,384 heads fits');
});

test('a tile request is refused unless its level, offsets and size are whole numbers within the head and one request', () => {
  const n = 32768;
  assert.equal(tileProblem(n, 7, 0, 0, 256, 256), undefined);
  assert.equal(tileProblem(n, 0, 32767, 32767, 256, 256), undefined, 'past the edge is clipped, not refused');
  for (const level of [-1, 1.5, 8, '2', null, NaN]) assert.match(tileProblem(n, level, 0, 0, 1, 1)!, /level/);
  for (const [i0, j0] of [[-1, 0], [0, -3], [0.5, 0], [0, 2.25], [256, 0], [0, 256], ['0', 0]]) assert.match(tileProblem(n, 7, i0, j0, 1, 1)!, /within the 256 blocks/);
  for (const [rows, cols] of [[0, 1], [1, 0], [-2, 5], [1.5, 2], [2, undefined]]) assert.match(tileProblem(n, 7, 0, 0, rows, cols)!, /not counts/);
  assert.match(tileProblem(n, 0, 0, 0, 257, 256)!, /over the 65536/);
  assert.equal(tileProblem(n, 0, 0, 0, 1, MAX_TILE_CELLS), undefined);
  assert.deepEqual(clipTile(600, 2, 140, 0, 256, 256), { rows: 10, cols: 150 });
});

for (const dtype of ['F16', 'F32'] as const) {
  test(`${dtype}: a tile read from the file is the head's weights at level 0 and the dense blocks' max and sum at level L, sinks as columns`, () => {
    const n = 600;
    const a = longAttention(1, 2, n, dtype, 37);
    const w = dense(a, 0, 1);
    const sinks = sinksOf(a, 0, 1);
    assert.deepEqual(sinks, [0, 37]);
    const cases: [number, number, number, number, number][] = [[0, 0, 0, 256, 256], [0, 500, 30, 100, 40], [0, 590, 590, 256, 256], [1, 10, 0, 200, 300], [2, 0, 0, 150, 150], [2, 149, 5, 4, 4]];
    for (const [level, i0, j0, rows, cols] of cases) {
      const tile = tileFromSource(a, 0, 1, level, i0, j0, rows, cols, sinks);
      assert.deepEqual(plain(tile), plain(denseTile(w, n, sinks, level, i0, j0, rows, cols)), `level ${level} at ${i0}, ${j0}`);
      // A reader without column reads reads whole rows: the same tile.
      const rowsOnly = { ...a, columnBytes: undefined };
      assert.deepEqual(plain(tileFromSource(rowsOnly, 0, 1, level, i0, j0, rows, cols, sinks)), plain(tile));
    }
    const exact = tileFromSource(a, 0, 1, 0, 400, 100, 3, 5, sinks);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 5; c++) assert.equal(exact.max[r * 5 + c], Math.fround(w[(400 + r) * n + 100 + c]));
    assert.equal(exact.sinkColumns![1].max[2], Math.fround(w[402 * n + 37]));
  });
}

test('the pass keeps the pyramid: its tiles are the ones read from the file (F16: every sum exact), and the map\'s two scales', () => {
  const n = 600;
  const a = longAttention(1, 2, n, 'F16', 37);
  const pass = passOverHeads(a, { map: { base: 1 } });
  assert.equal(pass.maps!.length, 2);
  for (let head = 0; head < 2; head++) {
    const part = pass.maps![head];
    const sinks = sinksOf(a, 0, head);
    assert.deepEqual(part.sinks, sinks);
    assert.deepEqual(part.levels.map((l) => l.level), [1, 2]);
    for (const [level, i0, j0, rows, cols] of [[1, 0, 0, 256, 256], [1, 250, 120, 50, 180], [2, 0, 0, 150, 150], [2, 140, 3, 30, 30]] as const) {
      assert.deepEqual(plain(tileFromPyramid(part, n, level, i0, j0, rows, cols)!), plain(tileFromSource(a, 0, head, level, i0, j0, rows, cols, sinks)));
    }
    assert.equal(tileFromPyramid(part, n, 0, 0, 0, 4, 4), undefined, 'level 0 is read from the file');
    // A deep tile read without its sink columns, which come from the sinks' weights the pass kept.
    for (const [level, i0, j0] of [[0, 590, 7], [0, 0, 0], [1, 100, 250]] as const) {
      const read = tileFromSource(a, 0, head, level, i0, j0, 256, 256, sinks);
      const bare = tileFromSource(a, 0, head, level, i0, j0, 256, 256, sinks, {}, false);
      assert.equal(bare.sinkColumns, undefined);
      assert.deepEqual(plain({ ...bare, sinkColumns: sinkColumnsOf(part, n, level, i0, bare.rows) }), plain(read));
    }
    const w = dense(a, 0, head);
    let outside = 0, atSinks = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { const v = w[i * n + j]; if (sinks.includes(j)) atSinks = Math.max(atSinks, v); else outside = Math.max(outside, v); }
    assert.deepEqual(headMapOf(n, part), { n, levels: 3, sinks, max: outside, sinkMax: atSinks });
    assert.equal(headMapProblem(headMapOf(n, part), n), undefined);
  }
  // Without a pyramid (over its budget) the map's sinks and scales are still made.
  const bare = passOverHeads(a, { map: {} });
  assert.deepEqual(bare.maps!.map((m) => [m.sinks, m.max, m.sinkMax, m.levels.length]), pass.maps!.map((m) => [m.sinks, m.max, m.sinkMax, 0]));
});

test('sinks: the first token always; a key most rows lean on; never a local or needle key', () => {
  assert.deepEqual(sinksOf(longAttention(1, 1, 400, 'F32'), 0, 0), [0]);
  assert.deepEqual(sinksOf(longAttention(1, 1, 400, 'F32', 123), 0, 0), [0, 123]);
  // A head of scores (softmax asked): the sinks are those of its weights.
  const n = 300, scores = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) scores[i * n + j] = j > i ? -Infinity : j === 0 || j === 7 ? 5 : 0;
  const a = attentionFromTensors('s.safetensors', [{ name: 's', dtype: 'F32', shape: [n, n], source: memorySource('s', new Uint8Array(scores.buffer)), offset: 0 }], undefined, () => {});
  assert.deepEqual(sinksOf(a, 0, 0, { softmax: true }), [0, 7]);
});

test('a file reads a column range of rows at their offsets; keys outside the head are refused', () => {
  const a = longAttention(1, 1, 300, 'F16');
  const rows = a.rowBytes(0, 0, 10, 4), cols = a.columnBytes!(0, 0, 10, 4, 250, 50);
  for (let r = 0; r < 4; r++) assert.deepEqual(Array.from(cols.subarray(r * 100, (r + 1) * 100)), Array.from(rows.subarray(r * 600 + 500, r * 600 + 600)));
  assert.throws(() => a.columnBytes!(0, 0, 0, 1, 280, 21), /keys 280 … 300 are outside the 300 keys/);
  assert.throws(() => a.columnBytes!(0, 0, 299, 2, 0, 1), /rows 299 … 300/);
});

test('a NaN inside a tile is refused with its place', () => {
  const n = 300, v = new Float32Array(n * n).fill(1 / n);
  v[123 * n + 45] = NaN;
  const a = attentionFromTensors('nan.safetensors', [{ name: 'a', dtype: 'F32', shape: [n, n], source: memorySource('nan', new Uint8Array(v.buffer)), offset: 0 }], undefined, () => {});
  assert.throws(() => tileFromSource(a, 0, 0, 0, 100, 0, 50, 60, [0]), (e: unknown) => e instanceof TensorFileError && /query 123 on key 45 is NaN/.test(e.message));
  assert.throws(() => tileFromSource(a, 0, 0, 3, 0, 0, 1, 1, [0]), RangeError, 'level 3 of a 300-token head');
});

test('a tile as the host posts it is checked: clipped, its arrays rows × cols, its sink columns keys with rows', () => {
  const n = 600;
  const a = longAttention(1, 1, n, 'F16', 37);
  const tile = tileFromSource(a, 0, 0, 2, 140, 0, 30, 30, sinksOf(a, 0, 0)) as unknown as Record<string, unknown>;
  assert.equal(headTileProblem(tile, n), undefined);
  assert.equal(headTileProblem(tile, n, 2), undefined);
  assert.match(headTileProblem({ ...tile, rows: 30 }, n)!, /past the head/);
  assert.match(headTileProblem({ ...tile, max: new Float32Array(3) }, n)!, /rows × cols float32/);
  assert.match(headTileProblem({ ...tile, sum: Array.from(tile.sum as Float32Array) }, n)!, /rows × cols float32/);
  assert.match(headTileProblem({ ...tile, sinkColumns: [{ key: 600, max: new Float32Array(10), sum: new Float32Array(10) }] }, n)!, /sink column/);
  assert.match(headTileProblem({ ...tile, sinkColumns: undefined }, n, 2)!, /without its sink columns/);
  assert.match(headTileProblem({ ...tile, level: 5 }, n)!, /level 5/);
  assert.match(headMapProblem({ n, levels: 3, sinks: [37, 0], max: 0.5, sinkMax: 1 }, n)!, /sorted/);
  assert.match(headMapProblem({ n, levels: 2, sinks: [0], max: 0.5, sinkMax: 1 }, n)!, /levels/);
  assert.match(headMapProblem({ n, levels: 3, sinks: [0], max: NaN, sinkMax: 1 }, n)!, /maxima/);
});

test('a blank tile carries a column of zeros for each sink, so the map draws it (key 0 when the sinks are not known)', () => {
  const n = 1000, map = headMapOf(n, { sinks: [0, 40], max: 0.5, sinkMax: 0.9 });
  const blank = blankTile(n, 1, 490, 10, 20, 30, map.sinks);
  assert.deepEqual([blank.rows, blank.cols], [10, 30], 'clipped to the head');
  assert.equal(headTileProblem(blank as unknown as Record<string, unknown>, n, map.sinks.length), undefined);
  assert.deepEqual(blank.sinkColumns!.map((c) => [c.key, [...c.max], [...c.sum]]), [0, 40].map((key) => [key, Array(10).fill(0), Array(10).fill(0)]));
  const unknown = blankTile(n, 0, 0, 0, 4, 4);
  assert.deepEqual(unknown.sinkColumns!.map((c) => c.key), [0]);
  assert.equal(headTileProblem(unknown as unknown as Record<string, unknown>, n, 1), undefined);
  assert.throws(() => blankTile(n, 9, 0, 0, 1, 1), /not a whole number below/);
});
