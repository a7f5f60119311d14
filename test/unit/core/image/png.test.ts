// The page's base64 (src/core/image/png.ts): base64 (the engine's encoder, or our loop where there is
// none) and fromBase64, rewritten to work in blocks, give
// exactly what the character-at-a-time versions gave (kept here as the reference) and Node's Buffer,
// on every length around the 3-byte groups and the 8,192-character blocks, and on text with "=",
// line breaks and other characters between the 64. storedZlib's Adler-32, its modulo taken every
// 5,552 bytes, is the byte-at-a-time one and what Node's zlib checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { base64, base64Loop, encodePalettePng, fromBase64, storedZlib } from '../../../../src/core/image/png.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function referenceFromBase64(text: string): Uint8Array {
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

function bytes(length: number, seed: number): Uint8Array {
  let s = seed;
  return Uint8Array.from({ length }, () => (s = (s * 16807) % 2147483647) & 0xff);
}

test('base64 is Buffer\'s base64 and fromBase64 reads it back, at every length around the blocks', () => {
  const lengths = [...Array.from({ length: 40 }, (_, k) => k), 6141, 6142, 6143, 6144, 6145, 6146, 12288, 12289, 100_000];
  for (const length of lengths) {
    const b = bytes(length, length + 1);
    const text = base64(b);
    assert.equal(text, Buffer.from(b).toString('base64'), `${length} bytes`);
    assert.equal(base64Loop(b), text, `${length} bytes by the loop used where the engine has no encoder`);
    assert.deepEqual(fromBase64(text), b, `${length} bytes back`);
    assert.deepEqual(fromBase64(text), referenceFromBase64(text));
  }
});

test('fromBase64 skips what is not base64 and reads a cut-off tail as the character-at-a-time version did', () => {
  const text = base64(bytes(301, 9));
  const texts = [
    '', 'A', 'AB', 'ABC', 'ABCD', 'ABCDE', 'AB==', 'ABC=', text, text.slice(0, -1), text.slice(0, -2), text.slice(0, -3),
    text.replace(/(.{76})/g, '$1\n'), ` ${text}\r\n`, text.slice(0, 50) + 'é€ -_' + text.slice(50),
  ];
  for (const t of texts) assert.deepEqual(fromBase64(t), referenceFromBase64(t), JSON.stringify(t.slice(0, 20)));
});

test('storedZlib: the Adler-32 with the modulo every 5,552 bytes is the byte-at-a-time one, and zlib inflates it back (it checks it)', () => {
  const adler = (b: Uint8Array) => {
    let a = 1, s = 0;
    for (let i = 0; i < b.length; i++) { a = (a + b[i]) % 65521; s = (s + a) % 65521; }
    return ((s << 16) | a) >>> 0;
  };
  for (const length of [0, 1, 5551, 5552, 5553, 65535, 65536, 200_000]) {
    for (const data of [bytes(length, length + 7), new Uint8Array(length).fill(255)]) {
      const z = storedZlib(data);
      const view = new DataView(z.buffer, z.byteOffset, z.byteLength);
      assert.equal(view.getUint32(z.length - 4), adler(data), `Adler-32 of ${length} bytes`);
      assert.deepEqual(new Uint8Array(inflateSync(z)), data, `${length} bytes inflate back`);
    }
  }
});

test('a picture that fits one stored block is written in one pass, byte for byte the chunk-by-chunk PNG, palette clamping included', () => {
  const palettes = [
    Array.from({ length: 256 }, (_, k) => [k, 255 - k, (k * 7) & 255] as [number, number, number]),
    [[0, 0, 0], [300, -4, Number.NaN], [1.4, 2.6, 250]] as [number, number, number][],
  ];
  // A deflate that is storedZlib but not the same function: the general path, kept as the reference.
  const general = (b: Uint8Array) => storedZlib(b);
  for (const palette of palettes) {
    for (const [w, h] of [[1, 1], [3, 5], [64, 64], [63, 1], [200, 300], [255, 256]]) {
      const indices = bytes(w * h + 3, w * 31 + h);
      const fast = encodePalettePng(w, h, indices, palette);
      assert.deepEqual(fast, encodePalettePng(w, h, indices, palette, general), `${w} × ${h}, ${palette.length} colours`);
      assert.deepEqual(encodePalettePng(w, h, indices, palette), fast, 'the palette\'s chunk reused gives the same bytes');
    }
  }
  // Past one stored block ((w + 1) × h > 65,535): the general path, still valid for zlib.
  const big = encodePalettePng(300, 300, bytes(90_000, 5), palettes[0]);
  assert.deepEqual(big, encodePalettePng(300, 300, bytes(90_000, 5), palettes[0], general));
});

test('a palette changed in place is written as it is now, in the one-pass PNG as in the general one', () => {
  // The one-pass PNG kept each palette's PLTE chunk by the palette array: a caller that recoloured
  // its array got the old colours from a thumbnail-sized picture and the new ones from a larger one.
  const palette = Array.from({ length: 4 }, (_, k) => [k, k, k] as [number, number, number]);
  const indices = bytes(16, 3);
  const before = encodePalettePng(4, 4, indices, palette);
  palette[1] = [200, 100, 50];
  palette[2][0] = 77;
  const after = encodePalettePng(4, 4, indices, palette);
  assert.deepEqual(after, encodePalettePng(4, 4, indices, palette, (b) => storedZlib(b)), 'the colours of now');
  assert.notDeepEqual(after, before);
  palette.push([9, 9, 9]);
  assert.deepEqual(encodePalettePng(4, 4, indices, palette), encodePalettePng(4, 4, indices, palette, (b) => storedZlib(b)), 'a colour added');
});
