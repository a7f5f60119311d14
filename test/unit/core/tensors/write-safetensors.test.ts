// A .safetensors written from bytes in memory (src/core/tensors/write-safetensors.ts) is what our
// reader reads: its header size a multiple of 8, the tensor's dtype and shape, the tokens in its
// metadata and the very values; a tensor whose bytes disagree with its shape is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safetensorsBytes } from '../../../../src/core/tensors/write-safetensors.js';
import { metadataTokens, readSafetensors } from '../../../../src/core/tensors/safetensors.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { randomAttention } from '../../../support/model-fixture.js';

test('written and read back: header, tokens, values', () => {
  const values = randomAttention(2, 3, 5, 9);
  const file = safetensorsBytes([{ name: 'attention', dtype: 'F32', shape: [2, 3, 5, 5], bytes: new Uint8Array(values.buffer) }], { tokens: JSON.stringify(['a', 'b', 'c', 'd', '"e"']) });
  const size = Number(new DataView(file.buffer).getBigUint64(0, true));
  assert.equal(size % 8, 0);
  const { tensors, metadata } = readSafetensors(memorySource('x.safetensors', file));
  assert.deepEqual(metadataTokens('x', metadata), ['a', 'b', 'c', 'd', '"e"']);
  const a = attentionFromTensors('x', tensors, metadataTokens('x', metadata), () => {});
  assert.deepEqual([a.layers, a.heads, a.n, a.dtype], [2, 3, 5, 'F32']);
  assert.deepEqual(Array.from(a.head(1, 1)), Array.from(values.subarray(4 * 25, 5 * 25)));
});

test('bytes that disagree with the shape are refused', () => {
  assert.throws(() => safetensorsBytes([{ name: 'a', dtype: 'F16', shape: [1, 1, 2, 2], bytes: new Uint8Array(6) }]), /needs 8 bytes, not 6/);
});
