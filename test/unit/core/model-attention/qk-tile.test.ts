// A run's head map from its kept q and k against the dense run's heads at 1,024 tokens, for a
// causal, a grouped-query, a sliding-window-with-softcap and a bidirectional shape: the map's maxima
// from the forward's column maxima equal the pyramid's for any sink set; the sinks found from the
// run's rows equal the dense head's; each tile at every level (the whole head, a region, one past
// the edge) equals the tile cut from the dense head's pyramid to 1e-6 relative, and the tile read
// from its rows bit for bit, the sink columns with the same keys; requests outside the head refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { layersAttention } from '../../../../src/core/tensors/attention-source.js';
import { MapBuilder } from '../../../../src/core/tensors/map/pyramid.js';
import { findSinks } from '../../../../src/core/tensors/map/sinks.js';
import { qkAttention } from '../../../../src/core/model-attention/qk-source.js';
import { qkTile } from '../../../../src/core/model-attention/qk-tile.js';
import { qkSinks } from '../../../../src/core/model-attention/qk-sinks.js';
import { headMapOf, mapFromColumns, mapLevels, tileFromPyramid, tileFromSource, type HeadTile } from '../../../../src/core/model-attention/tiles.js';
import { QK_SHAPES, qkIds, qkModel } from '../../../support/qk-models.js';
import { memoryQkStore } from '../../../../src/core/model-attention/qk-store.js';
import { blockRows, keyRange, weightsBlock } from '../../../../src/core/attention/attend32.js';
import type { QkRun } from '../../../../src/core/model-attention/qk-source.js';
import { seeded, between } from '../../../support/random.js';

const N = 1024;

function close(got: Float32Array, want: Float32Array, what: string): void {
  assert.equal(got.length, want.length, what);
  for (let k = 0; k < want.length; k++) {
    const d = Math.abs(got[k] - want[k]);
    if (d > 1e-6 * Math.abs(want[k]) && d > 1e-30) assert.fail(`${what}: cell ${k} is ${got[k]}, the dense pyramid's ${want[k]}`);
  }
}

function closeTile(got: HeadTile, want: HeadTile, what: string): void {
  assert.deepEqual([got.level, got.i0, got.j0, got.rows, got.cols], [want.level, want.i0, want.j0, want.rows, want.cols], what);
  close(got.max, want.max, `${what} max`);
  close(got.sum, want.sum, `${what} sum`);
  assert.deepEqual((got.sinkColumns ?? []).map((c) => c.key), (want.sinkColumns ?? []).map((c) => c.key), `${what} sink keys`);
  (want.sinkColumns ?? []).forEach((c, s) => {
    close(got.sinkColumns![s].max, c.max, `${what} sink ${c.key} max`);
    close(got.sinkColumns![s].sum, c.sum, `${what} sink ${c.key} sum`);
  });
}

for (const [name, config] of Object.entries(QK_SHAPES)) {
  test(`${name}: a run's head map and tiles from q and k equal the dense run's pyramid`, () => {
    const m = qkModel(config);
    const c = m.config, ids = qkIds(N, c.vocab);
    const dense = forward(c, m.names, m.weights, ids);
    const run = forward(c, m.names, m.weights, ids, { attention: 'qk' });
    const want = layersAttention('the run', dense.attention, c.heads, N);
    const source = qkAttention(run.qk!.run, { file: 'the run' });
    const levels = mapLevels(N);
    for (const [layer, head] of [[0, 0], [c.layers - 1, c.heads - 1]]) {
      const flat = layer * c.heads + head;
      const found = findSinks(source, layer, head);
      assert.deepEqual(found, findSinks(want, layer, head), `layer ${layer} head ${head}: the sinks from the run's rows`);
      assert.deepEqual(qkSinks(run.qk!.run, layer, head), found, `layer ${layer} head ${head}: the sinks from the sampled rows at once`);
      // Without the rows' scales each sampled row is computed whole: the same sinks.
      assert.deepEqual(qkSinks({ ...run.qk!.run, scales: undefined }, layer, head), found);
      const weights = want.head(layer, head);
      for (const sinks of [found, [0, 3, 511, 1023]]) {
        const pyramid = new MapBuilder(N, sinks, 0);
        const row = new Float64Array(N);
        for (let i = 0; i < N; i++) { row.set(weights.subarray(i * N, (i + 1) * N)); pyramid.addRow(i, row); }
        const part = pyramid.result();
        assert.deepEqual(mapFromColumns(N, sinks, run.qk!.pass.columnMaxes![flat]), headMapOf(N, part), `layer ${layer} head ${head} sinks ${sinks}: the map`);
        const asks = [[levels - 1, 0, 0, 256, 256], [1, 100, 0, 200, 256], [0, 700, 300, 64, 512], [0, 1000, 990, 40, 40], [2, 255, 255, 9, 9]];
        for (const [level, i0, j0, rows, cols] of asks) {
          const what = `layer ${layer} head ${head} sinks ${sinks} level ${level} at ${i0}, ${j0}`;
          const tile = qkTile(run.qk!.run, layer, head, level, i0, j0, rows, cols, sinks);
          closeTile(tile, tileFromPyramid(part, N, level, i0, j0, rows, cols)!, what);
          assert.deepEqual(tile, tileFromSource(want, layer, head, level, i0, j0, rows, cols, sinks), `${what}: the dense rows' tile, bit for bit`);
        }
      }
    }
    assert.throws(() => qkTile(run.qk!.run, 0, 0, levels, 0, 0, 1, 1, [0]), /not a whole number below 3/);
    assert.throws(() => qkTile(run.qk!.run, 0, 0, 0, 0, N, 1, 1, [0]), /within the 1024 blocks/);
    assert.throws(() => qkTile(run.qk!.run, 0, 0, 0, 0, 0, 257, 256, [0]), /over the 65536/);
    assert.throws(() => qkTile(run.qk!.run, c.layers, 0, 0, 0, 0, 1, 1, [0]), RangeError);
    source.close();
  });
}

test('a map from column maxima refuses maxima of another length', () => {
  assert.throws(() => mapFromColumns(300, [0], new Float32Array(299)), /299 column maxima for a head of 300 keys/);
  assert.deepEqual(mapFromColumns(300, [0, 7], Float32Array.from({ length: 300 }, (_, j) => (j === 7 ? 0.9 : j === 0 ? 0.8 : j / 1000))), { n: 300, levels: 2, sinks: [0, 7], max: Math.fround(0.299), sinkMax: Math.fround(0.9) });
});

test('a head whose key 5 takes most of every row: its sinks from the sampled rows at once are the rows\' own, tiles leave it out', () => {
  const n = 600, D = 8, rand = seeded(5);
  const u = Array.from({ length: D }, () => between(rand, -1, 1));
  const q = Float32Array.from({ length: n * D }, (_, k) => between(rand, -0.3, 0.3) + u[k % D]);
  const k = Float32Array.from({ length: n * D }, (_, x) => (Math.floor(x / D) === 5 ? 6 * u[x % D] : between(rand, -0.3, 0.3)));
  const store = memoryQkStore({ layers: 1, heads: 1, kvHeads: 1, headDim: D, n });
  store.write(0, 'q', 0, q);
  store.write(0, 'k', 0, k);
  // The rows' softmax max and sum, as the forward keeps them.
  const scales = new Float64Array(2 * n), shape = { n, headDim: D, divisor: Math.sqrt(D), mask: 'causal' as const };
  for (let r0 = 0, step = blockRows(n); r0 < n; r0 += step) {
    const count = Math.min(step, n - r0), { from, to } = keyRange(r0, r0 + count, n, 'causal');
    weightsBlock(shape, store.read(0, 'q', 0, r0, count), count, r0, store.read(0, 'k', 0, from, to - from), from, to, scales.subarray(2 * r0, 2 * (r0 + count)));
  }
  const run: QkRun = { store, masks: ['causal'], divisor: Math.sqrt(D), scales: [scales] };
  const source = qkAttention(run, { file: 'the run' });
  const sinks = findSinks(source, 0, 0);
  assert.deepEqual(sinks, [0, 5], 'key 5 is a sink');
  assert.deepEqual(qkSinks(run, 0, 0), sinks);
  const tile = qkTile(run, 0, 0, 2, 0, 0, 256, 256, sinks);
  assert.deepEqual(tile, tileFromSource(source, 0, 0, 2, 0, 0, 256, 256, sinks));
  assert.ok(tile.sinkColumns![1].max.slice(2).every((w) => w > 0.3), 'the sink column holds key 5\'s weights');
  // Past the first queries (which see key 5 and few others), no block holds a weight near key 5's.
  assert.ok(tile.max.slice(2 * tile.cols).every((w) => w < 0.3), 'the blocks leave it out');
});
