// Tensor files built byte by byte for the readers' tests: a float32 .npy (version 1) and a zip
// (.npz) whose members may be stored or deflated, declare a size they do not have, or point at an
// earlier member's bytes (the overlapping zip bomb).
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../../src/core/files/crc32.js';

/**
 * An .npy version 1: the magic, the header `dict` padded with spaces so the data starts at a multiple
 * of 64 (numpy's rule), then `data`. `misalign`: that many more spaces, so the data starts off any
 * element boundary (numpy reads such a file; writing one takes a hand like this).
 */
export function npyBytes(dict: string, data: Buffer, misalign = 0): Buffer {
  const header = dict + ' '.repeat((64 - ((10 + dict.length + 1) % 64)) % 64 + misalign) + '\n';
  return Buffer.concat([Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]), Buffer.from(header, 'latin1'), data]);
}

/** The header dict numpy writes for a C-order array of `shape`. */
export function npyDict(descr: string, shape: readonly number[]): string {
  return `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
}

/** A C-order little-endian float32 .npy of `shape` holding `values`. */
export function npyFloat32(shape: readonly number[], values: readonly number[]): Buffer {
  return npyBytes(npyDict('<f4', shape), Buffer.from(new Float32Array(values).buffer));
}

/**
 * A zip member: `crc` overrides the true CRC-32 of `data` (a damaged member), `extra` is the
 * directory entry's extra field as given (a crafted ZIP64 field).
 */
export interface Member { name: string; data: Buffer; deflate?: boolean; declaredSize?: number; sameAs?: number; crc?: number; extra?: Buffer }

/** A zip: each member's local header and bytes, then the directory (a member may point at an earlier one's bytes), then the end record with `comment`. */
export function zipOf(members: Member[], comment: Buffer = Buffer.alloc(0)): Buffer {
  const parts: Buffer[] = [], dir: Buffer[] = [], offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    const stored = m.deflate ? deflateRawSync(m.data) : m.data;
    const name = Buffer.from(m.name);
    if (m.sameAs === undefined) {
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(m.deflate ? 8 : 0, 8);
      local.writeUInt32LE(m.crc ?? crc32(m.data), 14);
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
    central.writeUInt32LE(m.crc ?? crc32(m.data), 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(m.declaredSize ?? m.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offsets[offsets.length - 1], 42);
    central.writeUInt16LE(m.extra?.length ?? 0, 30);
    dir.push(central, name, m.extra ?? Buffer.alloc(0));
  }
  const cd = Buffer.concat(dir);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  end.writeUInt16LE(comment.length, 20);
  return Buffer.concat([...parts, cd, end, comment]);
}

