// CRC-32 as zip and PNG store it (polynomial 0xEDB88320, reflected, starting and ending inverted),
// pure, one table lookup a byte: the PNG encoder's chunks and, where Node has no native one, a zip
// member's check (core/files/crc32.ts) are this one function.

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

/** The CRC-32 of `data`, continuing from `value` (the CRC of the bytes before it); an unsigned 32-bit number. */
export function crc32Table(data: Uint8Array, value = 0): number {
  const t = table();
  let c = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
