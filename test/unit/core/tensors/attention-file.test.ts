// What shapes mean (src/core/tensors/attention-file.ts): an axis of length 0 holds nothing however
// long the others are, and layers numbered with gaps are shown in order with a note that says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionFromTensors, elementCount, type TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { between, seeded } from '../../../support/random.js';

test('100 shapes with an axis of 0 and others up to 2^53: 0 elements, not "more than can be counted"', () => {
  const rand = seeded(3);
  for (let c = 0; c < 100; c++) {
    const shape = Array.from({ length: between(rand, 2, 6) }, () => (rand() < 0.5 ? Number.MAX_SAFE_INTEGER : between(rand, 1, 2 ** 40)));
    shape[between(rand, 0, shape.length - 1)] = 0;
    assert.equal(elementCount('f', 't', shape), 0, JSON.stringify(shape));
  }
  assert.throws(() => elementCount('f', 't', [2 ** 40, 2 ** 40]), /more elements than can be counted/);
});

const layer = (name: string): TensorRef => ({ name, dtype: 'F32', shape: [1, 2, 2], source: memorySource('m', Buffer.from(new Float32Array([1, 0, 0.5, 0.5]).buffer)), offset: 0 });

test('100 sets of layer numbers: with gaps, a note says how they are shown; numbered 0, 1, 2, … no note', () => {
  const rand = seeded(4);
  for (let c = 0; c < 100; c++) {
    const count = between(rand, 2, 12);
    const numbers = new Set<number>();
    const gaps = rand() < 0.5;
    while (numbers.size < count) numbers.add(gaps ? between(rand, 0, 40) : numbers.size);
    const sorted = [...numbers].sort((x, y) => x - y);
    const contiguous = sorted.every((v, i) => v === i);
    const a = attentionFromTensors('m.safetensors', [...numbers].map((v) => layer(`layers.${v}.attn`)), undefined, () => {});
    assert.equal(a.layers, count);
    if (contiguous) assert.deepEqual([a.notes, a.layerNumbers], [undefined, undefined], `case ${c}: ${sorted}`);
    else {
      assert.equal(a.notes?.length, 1, `case ${c}: ${sorted}`);
      assert.match(a.notes![0], new RegExp(`^the file numbers its layers ${sorted.slice(0, 8).join(', ')}`));
      assert.match(a.notes![0], new RegExp(`\\(--layer 0 and L1 are its ${sorted[0]}, --layer 1 and L2 are its ${sorted[1]}`));
      assert.deepEqual(a.layerNumbers, sorted, 'the file\'s own numbers, in the order of the layers');
    }
  }
});
