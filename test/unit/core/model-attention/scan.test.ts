// The model editor's header (src/core/model-attention/scan.ts): what the reader knows of the file
// reaches the views' data, the file's own layer numbers among it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionFromTensors, type TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { headerOf, shapeOf } from '../../../../src/core/model-attention/scan.js';
import { passOverHeads } from '../../../../src/core/tensors/pass.js';

const layer = (name: string): TensorRef => ({ name, dtype: 'F32', shape: [1, 2, 2], source: memorySource('m', Buffer.from(new Float32Array([1, 0, 0.5, 0.5]).buffer)), offset: 0 });

test('layers numbered 0 and 5 in the file: the header carries [0, 5] and the note that maps them', () => {
  const a = attentionFromTensors('m.safetensors', [layer('layers.5.attn'), layer('layers.0.attn')], undefined, () => {});
  const shape = shapeOf(a);
  assert.deepEqual(shape.layerNumbers, [0, 5]);
  const header = headerOf(shape, passOverHeads(a), {});
  assert.deepEqual(header.layerNumbers, [0, 5]);
  assert.match(header.warnings[0], /^the file numbers its layers 0, 5 \(with gaps\)/);
  const plain = shapeOf(attentionFromTensors('m.safetensors', [layer('layers.1.attn'), layer('layers.0.attn')], undefined, () => {}));
  assert.equal(plain.layerNumbers, undefined);
});

test('a head past 4,096² weights is never read whole: one sentence before anything is allocated', async () => {
  const { headFloat32, readHead, MAX_WHOLE_HEAD_CELLS } = await import('../../../../src/core/model-attention/scan.js');
  const n = 32768;
  const huge = { file: 'long.safetensors', dtype: 'F16' as const, layers: 1, heads: 1, n, head: () => { throw new Error('read'); }, rowBytes: () => { throw new Error('read'); }, close: () => {} };
  assert.equal(MAX_WHOLE_HEAD_CELLS, 4096 ** 2);
  for (const read of [() => headFloat32(huge, 0, 0), () => readHead(huge, 0, 0)]) {
    assert.throws(read, /long\.safetensors: a head of 32,768 tokens is not read whole \(1,073,741,824 weights, over the 16,777,216/);
  }
});
