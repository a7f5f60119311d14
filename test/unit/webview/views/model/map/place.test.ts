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

test('edges are snapped where they land in the picture, the frame\'s own place added: at 1.25 a frame at 130 px is 162.5 device px', () => {
  const dpr = 1.25, origin = { x: 130, y: 201 };
  const z = { k: 2.7, x: -41.3, y: -9.9 };
  const cell = 724 / 8200;
  const t = { level: 1, i0: 256, j0: 512, rows: 256, cols: 256 };
  const r = tileRect(t, cell, z, dpr, 2, origin);
  for (const v of [origin.x + r.x, origin.x + r.x + r.width, origin.y + r.y, origin.y + r.y + r.height]) {
    assert.ok(Math.abs(v * dpr - Math.round(v * dpr)) < 1e-9, `${v} px is ${v * dpr} device px`);
  }
  // Snapped in the frame instead, the same tile's edge is half a device pixel off.
  const inFrame = tileRect(t, cell, z, dpr, 2);
  assert.ok(Math.abs((origin.x + inFrame.x) * dpr - Math.round((origin.x + inFrame.x) * dpr)) > 0.25);
  assert.ok(Math.abs(r.x - (z.x + 512 * 2 * cell * z.k)) <= 0.5 / dpr, 'within half a device pixel of its place');
});
