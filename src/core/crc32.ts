// CRC-32 as zip and PNG store it (polynomial 0xEDB88320, reflected, starting and ending inverted),
// pure: the PNG encoder's chunks and, where Node has no native one, a zip member's check
// (core/files/crc32.ts) are this one function. Four bytes a step through four tables ("slicing by
// 4"): the grid's 144 thumbnails are 600 kB of PNG chunks at every draw, and a byte a step was a
// sixth of the grid's drawing.

let TABLES: Uint32Array | undefined;

/** Four 256-entry tables: [0] the byte-at-a-time table, [k] the CRC of a byte followed by k zero bytes. */
function tables(): Uint32Array {
  if (!TABLES) {
    const t = new Uint32Array(4 * 256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      t[n] = c >>> 0;
    }
    for (let n = 0; n < 256; n++) {
      for (let k = 1; k < 4; k++) t[k * 256 + n] = (t[(k - 1) * 256 + n] >>> 8) ^ t[t[(k - 1) * 256 + n] & 0xff];
    }
    TABLES = t;
  }
  return TABLES;
}

/** The CRC-32 of `data`, continuing from `value` (the CRC of the bytes before it); an unsigned 32-bit number. */
export function crc32Table(data: Uint8Array, value = 0): number {
  const t = tables();
  let c = (value ^ 0xffffffff) >>> 0;
  let i = 0;
  const whole = data.length - (data.length % 4);
  for (; i < whole; i += 4) {
    c ^= data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    c = t[768 + (c & 0xff)] ^ t[512 + ((c >>> 8) & 0xff)] ^ t[256 + ((c >>> 16) & 0xff)] ^ t[c >>> 24];
  }
  for (; i < data.length; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
