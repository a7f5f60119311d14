// One picture a layer (webview/views/model/thumbnails.ts): the layer's heads side by side, each its
// own thumbnail's indices (scaled to its own strongest weight when the data are values), and an id
// made of the PNG's own IDAT and PLTE checks and length: the same for the same picture, another for
// other colours or other weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layerIndices, layerPicture } from '../../../../../webview/views/model/thumbnails.js';
import { thumbnailIndices, type ModelViewData } from '../../../../../src/core/model-attention/data.js';
import { heatmapIndices } from '../../../../../src/core/tensors/heatmap.js';
import { scanModel } from '../../../../../src/core/model-attention/scan.js';
import { makeTheme } from '../../../../../webview/kit/colour.js';
import { crc32Table } from '../../../../../src/core/crc32.js';
import { memoryAttention, randomAttention } from '../../../../support/model-fixture.js';
import { decodePalettePng } from '../../../../support/grid-thumbnails.js';

const L = 2, H = 3, N = 5;
const scanned = scanModel(memoryAttention(randomAttention(L, H, N, 4), L, H, N));
const values: ModelViewData = { header: scanned.header, thumbnails: scanned.thumbnails };
const indexed: ModelViewData = { ...values, thumbIndices: thumbnailIndices(scanned.thumbnails, scanned.header.thumb) };

test('a layer\'s indices hold each head\'s thumbnail in its own columns, from values or from colour indices alike', () => {
  const t = scanned.header.thumb;
  for (let layer = 0; layer < L; layer++) {
    const fromValues = layerIndices(values, layer);
    assert.deepEqual(layerIndices(indexed, layer), fromValues, 'the editor\'s indices and the values draw the same');
    for (let head = 0; head < H; head++) {
      const offset = (layer * H + head) * t * t;
      let max = 0;
      for (let k = offset; k < offset + t * t; k++) max = Math.max(max, scanned.thumbnails[k]);
      const own = heatmapIndices(scanned.thumbnails, offset, t, t, t, max);
      for (let y = 0; y < t; y++) {
        assert.deepEqual(Array.from(fromValues.subarray(y * H * t + head * t, y * H * t + (head + 1) * t)), Array.from(own.subarray(y * t, (y + 1) * t)), `layer ${layer} head ${head} row ${y}`);
      }
    }
  }
});

test('a layer\'s picture is its indices as a PNG, named by the PNG\'s own checks', () => {
  const light = makeTheme('light'), dark = makeTheme('dark');
  const a = layerPicture(values, 1, light);
  const png = Buffer.from(a.href.replace(/^data:image\/png;base64,/, ''), 'base64');
  assert.deepEqual(decodePalettePng(a.href).indices, layerIndices(values, 1));
  const idat = png.indexOf('IDAT'), plte = png.indexOf('PLTE');
  const idatCrc = crc32Table(png.subarray(idat, idat + 4 + png.readUInt32BE(idat - 4)));
  const plteCrc = crc32Table(png.subarray(plte, plte + 4 + png.readUInt32BE(plte - 4)));
  const ihdrCrc = crc32Table(png.subarray(12, 29));
  const hex = (x: number) => x.toString(16).padStart(8, '0');
  assert.equal(a.id, `al-thumbnails-1-${hex(idatCrc)}-${hex(plteCrc)}-${hex(ihdrCrc)}-${png.length.toString(16)}`);
  assert.deepEqual(layerPicture(values, 1, light), a, 'the same picture, the same id');
  assert.notEqual(layerPicture(values, 1, dark).id, a.id, 'other colours');
  assert.notEqual(layerPicture(values, 0, light).id, a.id, 'another layer');
});

test('two pictures of other sizes whose pixel bytes are the same have other ids', () => {
  // Layer 0 of 2 heads of 2 × 2 (rows 4 wide) and of 9 heads of 1 × 1 (one row 9 wide) whose ninth…
  // pixels are the first's rows joined by a filter byte's 0: the same IDAT, PLTE and length. Two
  // grids in one notebook would show the first one's picture in the second one's cells.
  const header = (heads: number, thumb: number) => ({ ...scanned.header, layers: 1, heads, thumb });
  const square: ModelViewData = { header: header(2, 2), thumbnails: new Float32Array(8), thumbIndices: Uint8Array.of(255, 10, 20, 30, 40, 50, 60, 70) };
  const row: ModelViewData = { header: header(9, 1), thumbnails: new Float32Array(9), thumbIndices: Uint8Array.of(255, 10, 40, 50, 0, 20, 30, 60, 70) };
  const light = makeTheme('light');
  const a = layerPicture(square, 0, light), b = layerPicture(row, 0, light);
  const idat = (href: string) => { const png = Buffer.from(href.slice(href.indexOf(',') + 1), 'base64'); const at = png.indexOf('IDAT'); return png.subarray(at, at + 8 + png.readUInt32BE(at - 4)); };
  assert.deepEqual(idat(a.href), idat(b.href), 'the same pixel bytes');
  assert.notEqual(a.href, b.href);
  assert.notEqual(a.id, b.id, 'another size, another picture');
});
