// A tile's place on screen: its edges on device pixels, the same edge of two tiles on the same pixel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snap, tileRect } from '../../../../../../webview/views/model/map/place.js';

test('tile edges land on device pixels and a tile reaches the next one\'s first pixel', () => {
  const z = { k: 3.3, x: -123.456, y: -77.7 };
  const cell = 740 / 2048;
  for (const dpr of [1, 1.5, 2]) {
    const a = tileRect({ level: 0, i0: 512, j0: 512, rows: 256, cols: 256 }, cell, z, dpr, 2);
    const b = tileRect({ level: 0, i0: 512, j0: 768, rows: 256, cols: 256 }, cell, z, dpr, 2);
    const below = tileRect({ level: 0, i0: 768, j0: 512, rows: 256, cols: 256 }, cell, z, dpr, 2);
    for (const v of [a.x, a.y, a.x + a.width, a.y + a.height, b.x]) assert.ok(Math.abs(v * dpr - Math.round(v * dpr)) < 1e-9, `${v} at ${dpr}`);
    assert.equal(b.x, snap(z.x + 768 * cell * z.k, dpr), 'where the first tile\'s last block ends');
    assert.ok(a.x + a.width > b.x, 'the first reaches under the next');
    assert.ok(a.y + a.height > below.y);
    assert.equal(b.y, a.y);
  }
  assert.equal(snap(1.26, 0), 1, 'no ratio: a px');
});
