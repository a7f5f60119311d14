// The mass scale of the map: a coarser tile standing in for the level in view is put on that level's
// scale (its mass per query over 2^Δ is the mean of the blocks it covers), and the scale's top is the
// largest block mass seen, the bound only until a tile comes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockValue, levelMassTop, massTop, tileMassMax, tileShades } from '../../../../../../webview/views/model/map/shades.js';
import { mapOf, needleHead, tileOf } from '../../../../../support/head-map.js';

const n = 1024;
const w = needleHead(n);
const map = mapOf(w, n);

test('a coarse block drawn at a finer level is the mean of the finer blocks it covers: its mass per query over 2^Δ, not 4^Δ', () => {
  const coarse = tileOf(w, map, { level: 3, i0: 10, j0: 8, rows: 4, cols: 4 });
  const fine = tileOf(w, map, { level: 1, i0: 40, j0: 32, rows: 16, cols: 16 });
  let checked = 0;
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    let mean = 0;
    for (let fr = 0; fr < 4; fr++) for (let fc = 0; fc < 4; fc++) mean += blockValue(fine, n, 'mass', r * 4 + fr, c * 4 + fc) / 16;
    const standIn = blockValue(coarse, n, 'mass', r, c, 1);
    assert.ok(Math.abs(standIn - mean) <= 1e-6 * Math.max(1, mean), `block ${r},${c}: ${standIn} vs the finer blocks' mean ${mean}`);
    if (mean > 1e-3) {
      checked++;
      // Over 4^Δ would be a quarter of it: the coarse block's per-query sum already divides by its 2^Δ more queries.
      assert.ok(Math.abs(blockValue(coarse, n, 'mass', r, c) / 16 - mean) > 0.5 * mean);
    }
  }
  assert.ok(checked >= 4, `${checked} blocks on the diagonal with mass`);
  // The max is the same at every level.
  assert.equal(blockValue(coarse, n, 'max', 1, 1, 0), coarse.max[5]);
});

test('a stand-in is shaded on the scale of the level in view', () => {
  const coarse = tileOf(w, map, { level: 2, i0: 64, j0: 64, rows: 8, cols: 8 });
  const at = { level: 0, top: 0.4 };
  const shades = tileShades(coarse, map, 'mass', 'linear', false, at);
  const own = tileShades(coarse, map, 'mass', 'linear', false);
  for (let k = 0; k < shades.length; k++) {
    const v = blockValue(coarse, n, 'mass', Math.floor(k / 8), k % 8) / 4;
    assert.equal(shades[k], v > 0 ? Math.max(1, Math.min(255, Math.round((v / 0.4) * 255))) : 0);
  }
  // On its own level's scale (top min(1, 4 × 0.4)) the diagonal is brighter than at level 0's.
  assert.notDeepEqual([...shades], [...own]);
});

test('the mass scale\'s top is the largest block mass seen at the level, or a coarser one\'s over 2^Δ; the bound before any', () => {
  const tile = tileOf(w, map, { level: 1, i0: 0, j0: 0, rows: 64, cols: 64 });
  const top = tileMassMax(tile, n);
  let expected = 0;
  for (let k = 0; k < tile.sum.length; k++) expected = Math.max(expected, tile.sum[k] / 2);
  assert.equal(top, expected);
  assert.ok(top < massTop(map, 1, false), `${top} is under the bound ${massTop(map, 1, false)}`);
  assert.equal(levelMassTop(new Map(), map, 1, false), massTop(map, 1, false));
  assert.equal(levelMassTop(new Map([[1, top]]), map, 1, false), top);
  assert.equal(levelMassTop(new Map([[3, 0.6]]), map, 1, false), 0.15, 'a level-3 block of mass 0.6 has a level-1 block of at least 0.6 / 4');
  assert.equal(levelMassTop(new Map([[1, 0.1], [3, 0.6]]), map, 1, false), 0.15);
  assert.equal(levelMassTop(new Map([[0, 0.9]]), map, 1, false), massTop(map, 1, false), 'a finer level says nothing of a coarser one');
  assert.equal(levelMassTop(new Map([[1, 5]]), map, 1, false), massTop(map, 1, false), 'never past the bound');
});

test('a stand-in of the head\'s last, short key block (n not a power of two) is the mean of the view blocks it really covers', () => {
  // 8,200 tokens, every query spreading its attention evenly (1/n a key): a view block's mass per
  // query is its keys / n, so each stand-in must equal the view blocks it covers, not be darker.
  const big = 8200, level = 5, b = 2 ** level;
  const last = Math.floor((big - 1) / b); // keys 8,192…8,199: 8 of 32
  const keys = (lv: number, j: number) => Math.min(2 ** lv, big - j * 2 ** lv);
  const cols = 2, j0 = last - 1, rows = 2;
  const sum = new Float32Array(rows * cols), max = new Float32Array(rows * cols).fill(1 / big);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) sum[r * cols + c] = b * keys(level, j0 + c) / big;
  const tile = { level, i0: 0, j0, rows, cols, max, sum };
  for (const viewLevel of [0, 2, 3, 4]) {
    for (let c = 0; c < cols; c++) {
      const first = ((j0 + c) * b) / 2 ** viewLevel, covered = Math.ceil(keys(level, j0 + c) / 2 ** viewLevel);
      let mean = 0;
      for (let v = 0; v < covered; v++) mean += keys(viewLevel, first + v) / big / covered;
      const got = blockValue(tile, big, 'mass', 0, c, viewLevel);
      assert.ok(Math.abs(got - mean) < 1e-6 * mean, `level ${level} block ${j0 + c} drawn at ${viewLevel}: ${got} against ${mean}`);
    }
  }
});
