// The model data's small helpers (src/core/model-attention/data.ts): thumbnailValues, a lookup a pixel, gives
// exactly the division it replaced, index / 255 as a float32, for every index and in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { thumbnailValues } from '../../../../src/core/model-attention/data.js';

test('thumbnailValues is index / 255 in float32 for all 256 indices, in their order', () => {
  const indices = Uint8Array.from({ length: 600 }, (_, k) => (k * 97 + 13) & 255);
  const values = thumbnailValues(indices);
  assert.equal(values.length, indices.length);
  for (let k = 0; k < indices.length; k++) assert.equal(values[k], Math.fround(indices[k] / 255), `index ${indices[k]}`);
  assert.equal(values[indices.indexOf(255)], 1);
  assert.equal(values[indices.indexOf(0)], 0);
  assert.deepEqual(thumbnailValues(new Uint8Array()), new Float32Array());
});
