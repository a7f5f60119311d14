// One picture a layer (webview/views/model/thumbnails.ts): the layer's heads side by side, each its
// own thumbnail's indices (scaled to its own strongest weight when the data are values), and an id
// made of the PNG's own IDAT and PLTE checks and length: the same for the same picture, another for
// other colours or other weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layerIndices, layerPicture } from '../../../../../webview/views/model/thumbnails.js';
import { thumbnailIndices, type ModelViewData } from '../../../../../src/core/model/data.js';
import { heatmapIndices } from '../../../../../src/core/tensors/heatmap.js';
import { scanModel } from '../../../../../src/core/model/scan.js';
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
  const hex = (x: number) => x.toString(16).padStart(8, '0');
  assert.equal(a.id, `al-thumbnails-1-${hex(idatCrc)}-${hex(plteCrc)}-${png.length.toString(16)}`);
  assert.deepEqual(layerPicture(values, 1, light), a, 'the same picture, the same id');
  assert.notEqual(layerPicture(values, 1, dark).id, a.id, 'other colours');
  assert.notEqual(layerPicture(values, 0, light).id, a.id, 'another layer');
});
