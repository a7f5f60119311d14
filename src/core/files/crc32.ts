// CRC-32 to check a zip member's bytes against its directory entry: Node's zlib.crc32 (native) where
// this Node has it (20.15 and later), else the pure table (core/crc32.ts), which gives the same numbers.
import * as zlib from 'node:zlib';
import { crc32Table } from '../crc32.js';

export { crc32Table };

type Crc32 = (data: Uint8Array, value?: number) => number;

const native = (zlib as { crc32?: Crc32 }).crc32;

/** The CRC-32 of `data`, continuing from `value`; an unsigned 32-bit number, as a zip directory stores it. */
export function crc32(data: Uint8Array, value = 0): number {
  return native ? native(data, value) >>> 0 : crc32Table(data, value);
}
