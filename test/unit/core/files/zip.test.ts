// The .npz reader (src/core/files/zip.ts, open.ts) against crafted archives: a zip's directory
// is data from the file, so names said twice, entries sharing one member's bytes (the overlapping
// zip bomb) and declared sizes that add up past the cap are refused before anything is inflated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findTensors } from '../../../../src/core/files/open.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { MAX_INFLATED_BYTES } from '../../../../src/core/files/zip.js';
import { npyFloat32, zipOf } from '../../../support/tensor-files.js';

/** An .npy of one float32 row. */
const npy = (values: number[]) => npyFloat32([1, values.length], values);
const zip = zipOf;

const open = (bytes: Buffer, wanted?: string) => findTensors(memorySource('w.npz', bytes), wanted);

test('a well-formed .npz, stored and deflated, still opens by name', () => {
  const bytes = zip([{ name: 'wq.npy', data: npy([1, 2]) }, { name: 'wk.npy', data: npy([3, 4]), deflate: true }]);
  assert.deepEqual(open(bytes).tensors.map((t) => t.name), ['wq', 'wk']);
  assert.deepEqual(open(bytes, 'wk').tensors.map((t) => t.shape), [[1, 2]]);
});

test('an .npz naming one member twice is refused: which of the two is "w"?', () => {
  const bytes = zip([{ name: 'w.npy', data: npy([1, 2]) }, { name: 'w.npy', data: npy([5, 6]) }]);
  assert.throws(() => open(bytes, 'w'), /w\.npz: two members are named "w\.npy"/);
});

test('directory entries sharing one member\'s bytes (the overlapping zip bomb) are refused before inflating', () => {
  const bytes = zip([{ name: 'a.npy', data: npy([1, 2]), deflate: true }, ...['b', 'c', 'd'].map((n) => ({ name: `${n}.npy`, data: npy([1, 2]), deflate: true, sameAs: 0 }))]);
  assert.throws(() => open(bytes), /w\.npz: "b\.npy" and "a\.npy" share their bytes at offset 0/);
});

test('deflated members whose declared sizes add up past the cap are refused from the directory, none inflated', () => {
  const each = Math.floor(MAX_INFLATED_BYTES / 3) + 1;
  // The declared size is not the real one: had anything been inflated, the message would say so instead.
  const bytes = zip(['a', 'b', 'c'].map((n) => ({ name: `${n}.npy`, data: npy([1, 2]), deflate: true, declaredSize: each })));
  assert.throws(() => open(bytes), new RegExp(`w\\.npz: its deflated members would take ${3 * each} bytes inflated, over the ${MAX_INFLATED_BYTES}-byte limit`));
  assert.throws(() => open(bytes, 'a'), /a\.npy: inflated to \d+ bytes, not the declared/, 'one member alone is within the cap');
});
