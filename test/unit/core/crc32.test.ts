// The pure CRC-32 (src/core/crc32.ts), four bytes a step, is the byte-at-a-time CRC (kept here as the
// reference) at every length around the 4-byte steps, continued from any value, and Node's zlib's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { crc32Table } from '../../../src/core/crc32.js';

function referenceCrc32(data: Uint8Array, value = 0): number {
  let c = (value ^ 0xffffffff) >>> 0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function bytes(length: number, seed: number): Uint8Array {
  let s = seed;
  return Uint8Array.from({ length }, () => (s = (s * 16807) % 2147483647) & 0xff);
}

test('four bytes a step is the byte-at-a-time CRC-32 at every length, continued from any value', () => {
  for (const length of [...Array.from({ length: 20 }, (_, k) => k), 255, 256, 257, 4161, 100_003]) {
    const data = bytes(length, length + 3);
    assert.equal(crc32Table(data), referenceCrc32(data), `${length} bytes`);
    assert.equal(crc32Table(data, 0xdeadbeef), referenceCrc32(data, 0xdeadbeef), `${length} bytes after 0xdeadbeef`);
    const cut = Math.floor(length / 3);
    assert.equal(crc32Table(data.subarray(cut), crc32Table(data.subarray(0, cut))), crc32Table(data), `${length} bytes in two parts`);
    const native = (zlib as { crc32?: (d: Uint8Array) => number }).crc32;
    if (native) assert.equal(crc32Table(data), native(data) >>> 0, `${length} bytes: zlib's`);
  }
  assert.equal(crc32Table(new TextEncoder().encode('123456789')), 0xcbf43926, 'the check value of CRC-32/ISO-HDLC');
});
