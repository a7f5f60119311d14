// CRC-32 (the zip one: polynomial 0xEDB88320, reflected, starting and ending inverted), to check a
// zip member's bytes against its directory entry. Node's zlib.crc32 (native) where this Node has it
// (20.15 and later); otherwise a table, one byte a step.
import * as zlib from 'node:zlib';

type Crc32 = (data: Uint8Array, value?: number) => number;

let TABLE: Uint32Array | undefined;

function table(): Uint32Array {
  if (!TABLE) {
    TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      TABLE[n] = c >>> 0;
    }
  }
  return TABLE;
}

/** The table's CRC-32 of `data`, continuing from `value` (the CRC of the bytes before it). */
export function crc32Table(data: Uint8Array, value = 0): number {
  const t = table();
  let c = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: Crc32 }).crc32;

/** The CRC-32 of `data`, continuing from `value`; an unsigned 32-bit number, as a zip directory stores it. */
export function crc32(data: Uint8Array, value = 0): number {
  return native ? native(data, value) >>> 0 : crc32Table(data, value);
}
