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
  // Adler-32 with the modulo taken every 5,552 bytes (zlib's NMAX: the sums cannot pass 2³² before it), not every byte.
  let a = 1, s = 0;
  for (let i = 0; i < bytes.length;) {
    const end = Math.min(bytes.length, i + 5552);
    for (; i < end; i++) { a += bytes[i]; s += a; }
    a %= 65521; s %= 65521;
  }
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
  if (deflate === storedZlib && (width + 1) * height <= 65535) return storedPng(width, height, indices, palette);
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

/** The PLTE chunk of each palette (the same for every thumbnail of a draw), with the colours it was made from. */
const plteChunks = new WeakMap<readonly (readonly [number, number, number])[], { chunk: Uint8Array; colours: Uint8Array }>();

function plteChunk(palette: readonly (readonly [number, number, number])[]): Uint8Array {
  const colours = Math.max(1, Math.min(256, palette.length));
  const plte = new Uint8Array(colours * 3);
  for (let i = 0; i < colours; i++) {
    const rgb = palette[i] ?? [0, 0, 0];
    for (let k = 0; k < 3; k++) plte[i * 3 + k] = Math.max(0, Math.min(255, Math.round(Number.isFinite(rgb[k]) ? rgb[k] : 0)));
  }
  // Kept by the palette array, but only while its colours are the same (a caller may recolour its
  // array in place: the chunk of the old colours came back). The colours are cheap; the CRC is kept.
  const known = plteChunks.get(palette);
  if (known && known.colours.length === plte.length && known.colours.every((v, k) => v === plte[k])) return known.chunk;
  const made = chunk('PLTE', plte);
  plteChunks.set(palette, { chunk: made, colours: plte });
  return made;
}

const IEND = Uint8Array.of(0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82);

/**
 * encodePalettePng's bytes for a picture whose rows fit one stored block (every thumbnail): written
 * in one pass into one array, the palette's chunk reused, instead of a raw copy, a zlib copy, a
 * chunk copy and the PNG (144 thumbnails at every draw of the grid). The same bytes, byte for byte.
 */
function storedPng(width: number, height: number, indices: Uint8Array, palette: readonly (readonly [number, number, number])[]): Uint8Array {
  const plte = plteChunk(palette);
  const last = plte.length / 3 - 4 - 1; // the palette's last index (the chunk is 12 bytes around 3 a colour)
  const rawLength = (width + 1) * height;
  const idatData = 2 + 5 + rawLength + 4;
  const png = new Uint8Array(8 + 25 + plte.length + 12 + idatData + IEND.length);
  const view = new DataView(png.buffer);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // IHDR: 8 bits, palette, deflate, filter 0, no interlace.
  view.setUint32(8, 13);
  png.set([0x49, 0x48, 0x44, 0x52], 12);
  view.setUint32(16, width); view.setUint32(20, height);
  png.set([8, 3, 0, 0, 0], 24);
  view.setUint32(29, crc32(png, 12, 29));
  png.set(plte, 33);
  let o = 33 + plte.length;
  const idat = o;
  view.setUint32(o, idatData);
  png.set([0x49, 0x44, 0x41, 0x54, 0x78, 0x01, 1, rawLength & 0xff, rawLength >>> 8, ~rawLength & 0xff, (~rawLength >>> 8) & 0xff], o + 4);
  o += 15;
  // The rows, each after its filter byte (0: none), and their Adler-32 (fewer than 5,552 bytes a
  // modulo would need: a row's sums are taken modulo at its end).
  let a = 1, b = 0;
  for (let y = 0; y < height; y++) {
    png[o++] = 0;
    b += a;
    const row = y * width;
    if (last === 255) {
      // Every index is a colour: the row is copied as it is, then summed.
      png.set(indices.subarray(row, row + width), o);
      for (let x = 0; x < width; x++) { a += png[o + x]; b += a; }
      o += width;
    } else {
      for (let x = 0; x < width; x++) {
        const v = indices[row + x];
        const k = v > last ? last : v;
        png[o++] = k;
        a += k; b += a;
      }
    }
    a %= 65521; b %= 65521;
  }
  const adler = ((b << 16) | a) >>> 0;
  view.setUint32(o, adler);
  o += 4;
  view.setUint32(o, crc32(png, idat + 4, o));
  o += 4;
  png.set(IEND, o);
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
/** Each base64 character's value by char code (−1: not one); and each 12-bit value's two characters' codes. */
const B64_VALUE = Int16Array.from({ length: 128 }, (_, c) => B64.indexOf(String.fromCharCode(c)));
const B64_PAIR = new Uint16Array(8192);
for (let v = 0; v < 4096; v++) {
  B64_PAIR[2 * v] = B64.charCodeAt(v >> 6);
  B64_PAIR[2 * v + 1] = B64.charCodeAt(v & 63);
}

/** The engine's own base64 of a byte array (Chromium 140+, Node 25+): a tenth of the time of ours. */
const nativeToBase64 = (Uint8Array.prototype as { toBase64?: (this: Uint8Array) => string }).toBase64;
/** The engine's own base64 of a "binary string" (one char per byte), in browsers, jsdom and Node 16+. */
const nativeBtoa = (globalThis as { btoa?: (binary: string) => string }).btoa;
/** The engine's own base64 decoder (Chromium 140+, Node 25+). */
const nativeFromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
/** Bytes per btoa call: a multiple of 3 (so the pieces join into one base64 text) small enough for fromCharCode.apply. */
const BTOA_BYTES = 3 * 8192;

/**
 * Base64 of `bytes`, as Buffer writes it. The 144 thumbnails of a 12 × 12 page are 800 kB of PNGs made
 * at every draw, and our loop was a third of the grid's drawing: the engine's own encoder is used where
 * it exists (Uint8Array.prototype.toBase64, else btoa over binary strings 24 kB at a time), and the
 * loop only where neither does.
 */
export function base64(bytes: Uint8Array): string {
  if (nativeToBase64) return nativeToBase64.call(bytes);
  if (nativeBtoa) {
    const parts: string[] = [];
    for (let i = 0; i < bytes.length; i += BTOA_BYTES) {
      parts.push(nativeBtoa(String.fromCharCode.apply(null, bytes.subarray(i, i + BTOA_BYTES) as unknown as number[])));
    }
    return parts.join('');
  }
  return base64Loop(bytes);
}

/**
 * Base64 without Buffer, btoa or toBase64. Four characters per three bytes written as char codes into
 * a buffer, turned into text 8,192 at a time (a string concatenation per three bytes cost a frame).
 */
export function base64Loop(bytes: Uint8Array): string {
  const parts: string[] = [];
  const codes = new Uint16Array(8192);
  let at = 0;
  const whole = bytes.length - (bytes.length % 3);
  for (let i = 0; i < whole; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    const hi = (v >> 12) * 2, lo = (v & 4095) * 2;
    codes[at] = B64_PAIR[hi]; codes[at + 1] = B64_PAIR[hi + 1]; codes[at + 2] = B64_PAIR[lo]; codes[at + 3] = B64_PAIR[lo + 1];
    at += 4;
    if (at === 8192) { parts.push(String.fromCharCode.apply(null, codes as unknown as number[])); at = 0; }
  }
  parts.push(String.fromCharCode.apply(null, codes.subarray(0, at) as unknown as number[]));
  const rest = bytes.length - whole;
  if (rest > 0) {
    const a = bytes[whole], b = rest === 2 ? bytes[whole + 1] : undefined;
    parts.push(B64[a >> 2] + B64[((a & 3) << 4) | ((b ?? 0) >> 4)] + (b === undefined ? '=' : B64[(b & 15) << 2]) + '=');
  }
  return parts.join('');
}

/**
 * The inverse of base64 (for data embedded in the --html page): characters other than the 64 are
 * skipped ("=" and line breaks); four characters make three bytes, a last two or three make one or two.
 */
export function fromBase64(text: string): Uint8Array {
  // The engine's decoder where there is one (Chromium 140+): a tenth of the time; it refuses what
  // is not base64 (where ours skips it), and then ours reads the text as it always did.
  if (nativeFromBase64) {
    try {
      return nativeFromBase64(text);
    } catch {
      // not plain base64: read below
    }
  }
  const clean = /[^A-Za-z0-9+/]/.test(text) ? text.replace(/[^A-Za-z0-9+/]/g, '') : text;
  const length = clean.length;
  const out = new Uint8Array(Math.floor(length * 3 / 4));
  const value = B64_VALUE;
  let o = 0, i = 0;
  for (; i + 4 <= length; i += 4) {
    const v = (value[clean.charCodeAt(i)] << 18) | (value[clean.charCodeAt(i + 1)] << 12) | (value[clean.charCodeAt(i + 2)] << 6) | value[clean.charCodeAt(i + 3)];
    out[o++] = v >> 16;
    out[o++] = (v >> 8) & 0xff;
    out[o++] = v & 0xff;
  }
  const rest = length - i;
  if (rest >= 2) {
    const v = (value[clean.charCodeAt(i)] << 18) | (value[clean.charCodeAt(i + 1)] << 12) | (rest === 3 ? value[clean.charCodeAt(i + 2)] << 6 : 0);
    out[o++] = v >> 16;
    if (rest === 3) out[o++] = (v >> 8) & 0xff;
  }
  return out.subarray(0, o);
}
