// What the map's hover says: at level 0 the query and key tokens and the exact float32 weight; above,
// the block's range of queries and keys, its strongest weight and its sum; a sink key from its column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeCell, describeSink, exactWeight, tileAt } from '../../../../../../webview/views/model/map/hover.js';
import { mapOf, needleHead, tileOf } from '../../../../../support/head-map.js';

const n = 1024;
const w = needleHead(n);
const map = mapOf(w, n);
const tokens = Array.from({ length: n }, (_, i) => `t${i}`);

test('at level 0 the hover writes the tokens and the exact weight; a sink key\'s from its column', () => {
  const tile = tileOf(w, map, { level: 0, i0: 256, j0: 256, rows: 256, cols: 256 });
  const sinkTile = tileOf(w, map, { level: 0, i0: 256, j0: 0, rows: 256, cols: 256 });
  // Row 300: 0.3 + 0.2/300 on key 299 as float32.
  const cell = describeCell([tile], map, 0, 300, 299, tokens, false);
  assert.deepEqual(cell, ['query #301 "t300" → key #300 "t299"', `weight ${exactWeight(w[300 * n + 299])}`]);
  assert.equal(Math.fround(Number(cell[1].slice(7))), w[300 * n + 299], 'reads back as the same float32');
  assert.match(describeCell([sinkTile], map, 0, 300, 0, tokens, false)[0], /key #1 "t0" \(a sink key, drawn at the left\)/);
  assert.equal(describeCell([sinkTile], map, 0, 300, 0, tokens, false)[1], 'weight 0.5');
  assert.deepEqual(describeSink([sinkTile], map, 0, 300, 0, tokens, false), ['query #301 "t300" → key #1 "t0", a sink (its own scale, to 1)', 'weight 0.5']);
  // Not kept yet: said so.
  assert.match(describeCell([], map, 0, 5, 5, tokens, false)[1], /reading/);
});

test('above level 0 the hover says the block\'s range, its strongest weight and its sum', () => {
  const tile = tileOf(w, map, { level: 4, i0: 0, j0: 0, rows: 64, cols: 64 });
  const [range, values] = describeCell([tile], map, 4, 300, 290, tokens, false);
  assert.equal(range, 'queries 289–304 × keys 289–304 (a block of 16 × 16, level 4 of 64 blocks a side)');
  const k = 18 * 64 + 18;
  assert.match(values, new RegExp(`^strongest weight ${tile.max[k].toFixed(4).replace(/0+$/, '')}`));
  assert.ok(tile.max[k] > 0.3 && tile.sum[k] > 4, `a block on the diagonal: max ${tile.max[k]}, sum ${tile.sum[k]}`);
  // The finest kept tile at the level or coarser answers.
  const fine = tileOf(w, map, { level: 2, i0: 64, j0: 64, rows: 16, cols: 16 });
  assert.equal(tileAt([tile, fine], 2, 300, 290)!.tile, fine);
  assert.equal(tileAt([tile, fine], 3, 300, 290)!.tile, tile);
});
