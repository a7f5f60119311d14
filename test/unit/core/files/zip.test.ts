// The .npz reader (src/core/files/zip.ts, open.ts) against crafted archives: a zip's directory
// is data from the file, so names said twice, entries sharing one member's bytes (the overlapping
// zip bomb) and declared sizes that add up past the cap are refused before anything is inflated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findTensors } from '../../../../src/core/files/open.js';
import { memorySource, TensorFileError } from '../../../../src/core/tensors/source.js';
import { MAX_INFLATED_BYTES } from '../../../../src/core/files/zip.js';
import { crc32 } from '../../../../src/core/files/crc32.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { forEachRow } from '../../../../src/core/tensors/rows.js';
import { npyBytes, npyDict, npyFloat32, zipOf } from '../../../support/tensor-files.js';
import { between, seeded } from '../../../support/random.js';

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

// Properties over generated archives: each class of crafted or damaged .npz has a family, not one
// example. Every reader outcome is either the tensors numpy would read or a TensorFileError naming the
// file: never another error (a RangeError from a DataView, a typed array's alignment) or a wrong answer.

const sameError = (e: unknown) => e instanceof TensorFileError && /^w\.npz/.test(e.message);

test('300 members with one byte changed (stored and deflated, any length): each is refused for its CRC-32, as numpy refuses it', () => {
  const rand = seeded(7);
  for (let c = 0; c < 300; c++) {
    const values = Array.from({ length: between(rand, 1, 40) }, () => rand());
    const data = npy(values);
    const deflate = rand() < 0.5;
    const bytes = zip([{ name: 'w.npy', data, deflate }]);
    assert.deepEqual(open(bytes).tensors.map((t) => t.shape), [[1, values.length]], `case ${c}: the sound archive opens`);
    // Damage the member after its header was read right: the CRC alone can tell.
    const bad = Buffer.from(data);
    const at = between(rand, 128, bad.length - 1);
    bad[at] ^= 1 << between(rand, 0, 7);
    assert.throws(() => open(zip([{ name: 'w.npy', data: bad, deflate, crc: crc32(data) }])), /w\.npz: w\.npy: its bytes do not match the zip's CRC-32/, `case ${c}: byte ${at}`);
  }
});

test('200 archive comments, some holding a fake end record: the real end record (its comment reaching the end) is read', () => {
  const rand = seeded(11);
  const fake = Buffer.alloc(22);
  fake.writeUInt32LE(0x06054b50, 0);
  fake.writeUInt32LE(0xffff, 12); // a directory at nowhere
  for (let c = 0; c < 200; c++) {
    const parts: Buffer[] = [];
    for (let k = between(rand, 0, 3); k > 0; k--) {
      parts.push(Buffer.from(Array.from({ length: between(rand, 0, 60) }, () => between(rand, 32, 126))));
      if (rand() < 0.7) parts.push(fake);
    }
    const bytes = zip([{ name: 'wq.npy', data: npy([1, 2]) }, { name: 'wk.npy', data: npy([3]), deflate: true }], Buffer.concat(parts));
    assert.deepEqual(open(bytes).tensors.map((t) => t.name), ['wq', 'wk'], `case ${c}`);
  }
});

test('ZIP64 extra fields of every length, some running past their entry: a clear refusal or the right tensors, never a DataView error', () => {
  const rand = seeded(13);
  for (let c = 0; c < 300; c++) {
    const len = between(rand, 0, 40), room = between(rand, 0, 40);
    const extra = Buffer.alloc(4 + room);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(len, 2);
    const bytes = zip([{ name: 'w.npy', data: npy([1, 2]), extra }]);
    try {
      assert.deepEqual(open(bytes).tensors.map((t) => t.shape), [[1, 2]], `case ${c}`);
      assert.ok(len <= room, `case ${c}: a field of ${len} bytes in ${room} opened`);
    } catch (e) {
      assert.ok(sameError(e), `case ${c} (field ${len} in ${room}): ${String(e)}`);
      if (len > room) assert.match((e as Error).message, /an extra field of its zip directory entry runs past the entry/);
    }
  }
});

test('deflated and stored F16, F32 and F64 members whose data starts off its element boundary read the same values', () => {
  const values = [0.5, -0.25, 1.5, 3];
  const data = { '<f2': Buffer.from(new Uint16Array([0x3800, 0xb400, 0x3e00, 0x4200]).buffer), '<f4': Buffer.from(new Float32Array(values).buffer), '<f8': Buffer.from(new Float64Array(values).buffer) };
  for (const [descr, bytes] of Object.entries(data)) {
    for (let misalign = 0; misalign < 8; misalign++) {
      for (const deflate of [false, true]) {
        const member = npyBytes(npyDict(descr, [2, 2]), bytes, misalign);
        const [t] = open(zip([{ name: 'a.npy', data: member, deflate }])).tensors;
        const a = attentionFromTensors('w.npz', [t], undefined, () => {});
        assert.deepEqual(Array.from(a.head(0, 0)), values, `${descr}, ${misalign} bytes off, ${deflate ? 'deflated' : 'stored'}`);
        const rows: number[] = [];
        forEachRow(a, 0, 0, (_, v) => rows.push(...v));
        assert.deepEqual(rows, values, `${descr}, ${misalign} bytes off, ${deflate ? 'deflated' : 'stored'}: row by row`);
      }
    }
  }
});

test('2,000 archives with random bytes changed: each opens or is refused with a TensorFileError naming the file', () => {
  const rand = seeded(17);
  const sound = zip([{ name: 'wq.npy', data: npy([1, 2, 3]) }, { name: 'wk.npy', data: npy([4, 5]), deflate: true }], Buffer.from('comment'));
  let refused = 0;
  for (let c = 0; c < 2000; c++) {
    const bytes = Buffer.from(sound);
    for (let k = between(rand, 1, 4); k > 0; k--) bytes[between(rand, 0, bytes.length - 1)] = between(rand, 0, 255);
    try {
      for (const t of open(bytes).tensors) attentionFromTensors('w.npz', [t], undefined, () => {});
    } catch (e) {
      refused++;
      assert.ok(e instanceof TensorFileError && e.message.startsWith('w.npz'), `case ${c}: ${String(e)}`);
    }
  }
  assert.ok(refused > 1000, `most damaged archives are refused (${refused} of 2,000)`);
});
