// The .npz reader (src/core/tensors/zip.ts, open.ts) against crafted archives: a zip's directory
// is data from the file, so names said twice, entries sharing one member's bytes (the overlapping
// zip bomb) and declared sizes that add up past the cap are refused before anything is inflated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { findTensors } from '../../src/core/tensors/open.js';
import { memorySource } from '../../src/core/tensors/source.js';
import { MAX_INFLATED_BYTES } from '../../src/core/tensors/zip.js';

/** An .npy of one float32 row. */
function npy(values: number[]): Buffer {
  const header = `{'descr': '<f4', 'fortran_order': False, 'shape': (1, ${values.length}), }`.padEnd(117, ' ') + '\n';
  return Buffer.concat([Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length, 0]), Buffer.from(header, 'latin1'), Buffer.from(new Float32Array(values).buffer)]);
}

interface Member { name: string; data: Buffer; deflate?: boolean; declaredSize?: number; sameAs?: number }

/** A zip: each member's local header and bytes, then the directory (a member may point at an earlier one's bytes). */
function zip(members: Member[]): Buffer {
  const parts: Buffer[] = [], dir: Buffer[] = [], offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    const stored = m.deflate ? deflateRawSync(m.data) : m.data;
    const name = Buffer.from(m.name);
    if (m.sameAs === undefined) {
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(m.deflate ? 8 : 0, 8);
      local.writeUInt32LE(stored.length, 18);
      local.writeUInt32LE(m.declaredSize ?? m.data.length, 22);
      local.writeUInt16LE(name.length, 26);
      offsets.push(at);
      parts.push(local, name, stored);
      at += 30 + name.length + stored.length;
    } else {
      offsets.push(offsets[m.sameAs]);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(m.deflate ? 8 : 0, 10);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(m.declaredSize ?? m.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offsets[offsets.length - 1], 42);
    dir.push(central, name);
  }
  const cd = Buffer.concat(dir);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...parts, cd, end]);
}

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
