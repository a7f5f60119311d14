// The payload's decoding (src/core/model-attention/payload.ts): base64's byte count from its length and padding,
// the first non-finite weight's place in float32 and float16 (NaN, +∞, −∞ by their bits), and the
// attention it opens as a one-tensor file the readers take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTENTION_MIME, base64Bytes, firstNonFinite, payloadAttention, payloadBytes } from '../../../../src/core/model-attention/payload.js';
import { halfBits, randomPayload } from '../../../support/payload.js';

test('the MIME type is the one the Python package writes', () => {
  assert.equal(ATTENTION_MIME, 'application/vnd.attention-lens.v1+json');
});

test('base64Bytes counts the padding', () => {
  for (const n of [0, 1, 2, 3, 4, 5, 72]) assert.equal(base64Bytes(Buffer.alloc(n).toString('base64')), n);
});

test('firstNonFinite finds the first NaN or infinity and its place', () => {
  const f32 = new Float32Array(2 * 3 * 4 * 4);
  f32[(1 * 3 + 2) * 16 + 3 * 4 + 0] = Infinity;
  const bytes = new Uint8Array(f32.buffer);
  assert.deepEqual(firstNonFinite(bytes, { shape: [2, 3, 4, 4], dtype: 'float32' }), { at: [1, 2, 3, 0], value: Infinity });
  assert.equal(firstNonFinite(new Uint8Array(64), { shape: [1, 1, 4, 4], dtype: 'float32' }), undefined);
  const half = Buffer.alloc(8);
  [0.5, 65504, NaN, 0].forEach((v, i) => half.writeUInt16LE(halfBits(v), i * 2));
  assert.deepEqual(firstNonFinite(new Uint8Array(half), { shape: [1, 1, 2, 2], dtype: 'float16' }), { at: [0, 0, 1, 0], value: NaN });
});

test('payloadAttention opens the payload as the readers open a file', () => {
  const { values, payload } = randomPayload(2, 2, 3, 5, { title: 'gpt2' });
  const a = payloadAttention(payload, payloadBytes(payload));
  assert.equal(a.file, 'gpt2');
  assert.deepEqual(Array.from(a.head(1, 0)), Array.from(values.subarray(18, 27)));
});
