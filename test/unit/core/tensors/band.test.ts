// A big head read in bands of rows (src/core/tensors/band.ts): the bands, arriving in any order and
// put together, give the very statistics, thumbnail, picture and map one pass over the head gives
// (`attn inspect`'s numbers, to the bit), and the row checks name the same first row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeadBands, headBands, passOverBand } from '../../../../src/core/tensors/band.js';
import { passOverHeads, passShape } from '../../../../src/core/tensors/pass.js';
import { inspectAttention } from '../../../../src/core/tensors/inspect.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { sinksOf } from '../../../../src/core/model-attention/tiles.js';
import { longAttention } from '../../../support/long-head.js';

test('bands are whole block rows of the map\'s coarsest level, about the weights asked each', () => {
  assert.deepEqual(headBands(600, 600 * 90), [[0, 88], [88, 88], [176, 88], [264, 88], [352, 88], [440, 88], [528, 72]]);
  assert.deepEqual(headBands(600, 10), [[0, 4], ...Array.from({ length: 149 }, (_, k): [number, number] => [4 + 4 * k, 4])]);
  const big = headBands(32768, 2 ** 22);
  assert.equal(big.length, 256);
  assert.deepEqual(big[1], [128, 128]);
});

for (const dtype of ['F16', 'F32'] as const) {
  test(`${dtype}: a head's bands, put together in any order, are one pass over it to the bit (inspect's statistics)`, () => {
    const n = 600;
    const tokens = Array.from({ length: n }, (_, i) => `t${i % 37}`);
    const a = longAttention(1, 2, n, dtype, 37, tokens);
    // A picture of 256 a side tiles the 64² thumbnail (the band pools its thumbnail from it), one of 300 does not.
    for (const picture of [300, 256]) {
      const options = { thumb: 64, picture, map: { base: 1 } };
      const whole = passOverHeads(a, options);
      const shape = passShape(a, options);
      const inspected = inspectAttention(a).json.stats;
      for (let head = 0; head < 2; head++) {
        const bands = headBands(n, 90 * n).map(([first, rows]) => passOverBand(a, shape, 0, head, first, rows, sinksOf(a, 0, head)));
        const merged = new HeadBands(shape, 0, head);
        const order = [3, 0, 6, 1, 5, 2, 4];
        order.forEach((k, at) => assert.equal(merged.add(bands[k]), at === order.length - 1));
        const one = merged.finish();
        assert.deepEqual(one.stats[0], whole.stats[head]);
        assert.deepEqual(one.stats[0], inspected[head]);
        assert.deepEqual(Array.from(one.thumbnails), Array.from(whole.thumbnails.subarray(head * 4096, (head + 1) * 4096)));
        assert.deepEqual(one.pictures![0].max, whole.pictures![head].max);
        assert.ok(Buffer.from(one.pictures![0].indices).equals(Buffer.from(whole.pictures![head].indices)));
        const [m, w] = [one.maps![0], whole.maps![head]];
        assert.deepEqual([m.sinks, m.max, m.sinkMax], [w.sinks, w.max, w.sinkMax]);
        for (let k = 0; k < w.levels.length; k++) {
          assert.deepEqual(Array.from(m.levels[k].max), Array.from(w.levels[k].max));
          assert.deepEqual(Array.from(m.levels[k].sum), Array.from(w.levels[k].sum), `level ${w.levels[k].level} sums`);
          assert.deepEqual(Array.from(m.levels[k].sinkSum), Array.from(w.levels[k].sinkSum));
        }
        assert.deepEqual(m.columns.map((c) => Array.from(c)), w.columns.map((c) => Array.from(c)));
      }
    }
  });
}

test('row checks in bands: counts add up and the first row named is the earliest band\'s; a band that does not fit is refused', () => {
  const n = 300, v = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) v[i * n + j] = 1 / n;
  for (const i of [250, 40, 41]) v[i * n + 5] = 0.5; // rows off 1
  v[200 * n + 3] = -0.001;
  v[290 * n + 3] = -0.002;
  const a = attentionFromTensors('off.safetensors', [{ name: 'a', dtype: 'F32', shape: [n, n], source: memorySource('off', new Uint8Array(v.buffer)), offset: 0 }], undefined, () => {});
  const shape = passShape(a, { thumb: 8 });
  const merged = new HeadBands(shape, 0, 0);
  for (const [first, rows] of [[256, 44], [0, 128], [128, 128]] as const) merged.add(passOverBand(a, shape, 0, 0, first, rows, []));
  const one = merged.finish(), whole = passOverHeads(a, { thumb: 8 });
  assert.deepEqual([one.offRows, one.firstOff, one.negatives, one.firstNegative], [whole.offRows, whole.firstOff, whole.negatives, whole.firstNegative]);
  assert.equal(one.offRows, 5);
  assert.match(one.firstOff, /query 40 /);
  assert.throws(() => merged.add(passOverBand(a, shape, 0, 0, 0, 128, [])), /does not fit/);
  assert.throws(() => new HeadBands(shape, 0, 0).finish(), /0 of 300 rows/);
});
