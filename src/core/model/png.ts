// A small PNG encoder for heatmaps, pure (no canvas, no zlib), so `attn render` on jsdom, the
// --html page and the webview draw the same bitmap: an 8-bit palette image (one byte a pixel, at
// most 256 colours), compressed only when the caller passes a zlib `deflate` (the CLI passes
// node:zlib's); otherwise written as stored deflate blocks (valid, larger).

import { crc32Table } from '../crc32.js';

/** zlib data (RFC 1950) of `bytes`; the default stores without compressing. */
export type Deflate = (bytes: Uint8Array) => Uint8Array;

/** The CRC-32 of bytes start … end − 1 (a PNG chunk's type and data). */
const crc32 = (bytes: Uint8Array, start: number, end: number) => crc32Table(bytes.subarray(start, end));

/** zlib with stored (uncompressed) blocks of at most 65,535 bytes, and its Adler-32. */
export function storedZlib(bytes: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(bytes.length / 65535));
  const out = new Uint8Array(2 + bytes.length + blocks * 5 + 4);
  out[0] = 0x78; out[1] = 0x01;
  let o = 2;
  for (let b = 0; b < blocks; b++) {
    const start = b * 65535, len = Math.min(65535, bytes.length - start);
    out[o++] = b === blocks - 1 ? 1 : 0;
    out[o++] = len & 0xff; out[o++] = len >>> 8;
    out[o++] = ~len & 0xff; out[o++] = (~len >>> 8) & 0xff;
    out.set(bytes.subarray(start, start + len), o);
    o += len;
  }
  let a = 1, s = 0;
  for (let i = 0; i < bytes.length; i++) { a = (a + bytes[i]) % 65521; s = (s + a) % 65521; }
  const adler = ((s << 16) | a) >>> 0;
  out[o++] = adler >>> 24; out[o++] = (adler >>> 16) & 0xff; out[o++] = (adler >>> 8) & 0xff; out[o++] = adler & 0xff;
  return out;
}

/**
 * A PNG of `width` × `height` palette indices (row-major, one byte each) with `palette` as
 * [r, g, b] triples (≤ 256). Indices past the palette are the caller's bug: they are clamped.
 */
export function encodePalettePng(width: number, height: number, indices: Uint8Array, palette: readonly (readonly [number, number, number])[], deflate: Deflate = storedZlib): Uint8Array {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0) || indices.length < width * height) throw new RangeError(`encodePalettePng: ${width} × ${height} needs ${width * height} indices`);
  const colours = Math.max(1, Math.min(256, palette.length));
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = Math.min(colours - 1, indices[y * width + x]);
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width); view.setUint32(4, height);
  ihdr.set([8, 3, 0, 0, 0], 8); // 8 bits, palette, deflate, filter 0, no interlace
  const plte = new Uint8Array(colours * 3);
  for (let i = 0; i < colours; i++) {
    const c = palette[i] ?? [0, 0, 0];
    for (let k = 0; k < 3; k++) plte[i * 3 + k] = Math.max(0, Math.min(255, Math.round(Number.isFinite(c[k]) ? c[k] : 0)));
  }
  const chunks = [chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('IDAT', deflate(raw)), chunk('IEND', new Uint8Array())];
  const total = 8 + chunks.reduce((s, c) => s + c.length, 0);
  const png = new Uint8Array(total);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let o = 8;
  for (const c of chunks) { png.set(c, o); o += c.length; }
  return png;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Base64 without Buffer or btoa (neither exists everywhere this runs). */
export function base64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let line = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i], b = bytes[i + 1], c = bytes[i + 2];
    line += B64[a >> 2] + B64[((a & 3) << 4) | ((b ?? 0) >> 4)]
      + (b === undefined ? '=' : B64[((b & 15) << 2) | ((c ?? 0) >> 6)])
      + (c === undefined ? '=' : B64[c & 63]);
    if (line.length >= 8192) { parts.push(line); line = ''; }
  }
  parts.push(line);
  return parts.join('');
}

/** The inverse of base64 (for data embedded in the --html page). */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor(clean.length * 3 / 4));
  const value = new Uint8Array(128);
  for (let i = 0; i < 64; i++) value[B64.charCodeAt(i)] = i;
  let o = 0, bits = 0, acc = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = ((acc << 6) | value[clean.charCodeAt(i)]) & 0xffffff;
    bits += 6;
    if (bits >= 8) { bits -= 8; out[o++] = (acc >> bits) & 0xff; }
  }
  return out.subarray(0, o);
}
