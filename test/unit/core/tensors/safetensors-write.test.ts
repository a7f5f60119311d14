// The safetensors writer (src/core/tensors/safetensors-write.ts) writes what the reader reads back:
// names, shapes, dtypes, every number, the metadata, and a header padded to 8 bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { metadataTokens, readSafetensors } from '../../../../src/core/tensors/safetensors.js';
import { memorySource } from '../../../../src/core/tensors/source.js';

test('a written file reads back: F32 and F64 tensors, their numbers and the tokens in __metadata__', () => {
  const a = new Float32Array([1.5, -2, 3.25, 0, 7, 8]);
  const b = new Float64Array([Math.PI, -Math.E]);
  const bytes = writeSafetensors([
    { name: 'attention', dtype: 'F32', shape: [1, 1, 2, 3], data: a },
    { name: 'b', dtype: 'F64', shape: [2], data: b },
  ], { tokens: JSON.stringify(['the', ' cat']) });
  const headerSize = new DataView(bytes.buffer).getUint32(0, true);
  assert.equal(headerSize % 8, 0, 'the data starts aligned');
  const { tensors, metadata } = readSafetensors(memorySource('x', bytes));
  assert.deepEqual(metadataTokens('x', metadata), ['the', ' cat']);
  assert.deepEqual(tensors.map((t) => [t.name, t.dtype, t.shape]), [['attention', 'F32', [1, 1, 2, 3]], ['b', 'F64', [2]]]);
  const read = (i: number, size: number) => tensors[i].source.read(tensors[i].offset, size);
  assert.deepEqual([...new Float32Array(read(0, 24).slice().buffer)], [...a]);
  assert.deepEqual([...new Float64Array(read(1, 16).slice().buffer)], [...b]);
});

test('a tensor whose data is not as long as its shape is refused', () => {
  assert.throws(() => writeSafetensors([{ name: 'x', dtype: 'F32', shape: [2, 2], data: new Float32Array(3) }]), /holds 4 numbers, not 3/);
});
