// The notebook payload's check and decoding (src/protocol/attention-payload.ts over
// src/core/model-attention/payload.ts): a good float32 payload decodes to the very weights, float16 to their
// halves; every bad field is one sentence (shape, dtype, tokens, data length, base64, title, size)
// and a NaN or ±Infinity is refused with its place, in either dtype; and drawn payloads, hostile in
// every field, are refused in a sentence or opened as exactly what they declare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_PAYLOAD_BYTES, payloadProblem, readPayload } from '../../../src/protocol/attention-payload.js';
import { halfBits, payloadOf, randomPayload } from '../../support/payload.js';

test('a float32 payload decodes to the very weights, head by head, with its tokens', () => {
  const { values, payload } = randomPayload(2, 3, 5);
  const read = readPayload(payload);
  assert.ok(!('problem' in read), 'problem' in read ? read.problem : '');
  const a = read.attention;
  assert.deepEqual([a.layers, a.heads, a.n, a.dtype], [2, 3, 5, 'F32']);
  assert.deepEqual(a.tokens, payload.tokens);
  const head = a.head(1, 2);
  for (let k = 0; k < 25; k++) assert.equal(head[k], values[(1 * 3 + 2) * 25 + k]);
});

test('a float16 payload decodes to its halves, little-endian', () => {
  const weights = [0.5, 0.25, 0.125, 0.125, 1, 0, 0, 0, 0.75, 0.25, 0, 0, 0, 0, 0, 1];
  const bytes = Buffer.alloc(32);
  weights.forEach((w, i) => bytes.writeUInt16LE(halfBits(w), i * 2));
  const read = readPayload({ tokens: ['a', 'b', 'c', 'd'], shape: [1, 1, 4, 4], dtype: 'float16', data: bytes.toString('base64') });
  assert.ok(!('problem' in read));
  assert.equal(read.attention.dtype, 'F16');
  assert.deepEqual(Array.from(read.attention.head(0, 0)), weights);
});

test('each bad field is refused in one sentence that names it', () => {
  const { payload } = randomPayload(1, 2, 3);
  const cases: [unknown, RegExp][] = [
    [null, /not an Attention Lens payload/],
    [[payload], /not an Attention Lens payload/],
    [{ ...payload, shape: [1, 2, 3] }, /"shape" is not \[layers, heads, n, n\]/],
    [{ ...payload, shape: [1, 2, 3, 3.5] }, /whole numbers/],
    [{ ...payload, shape: [1, 2, 3, 4] }, /3 × 4, not square/],
    [{ ...payload, shape: [1, 1, 5000, 5000] }, /5000 tokens, more than the 4096/],
    [{ ...payload, shape: [200, 100, 3, 3] }, /more than the 16384 heads/],
    [{ ...payload, dtype: 'float64' }, /"dtype" is "float64", not "float32" or "float16"/],
    [{ ...payload, tokens: ['a', 'b'] }, /2 token\(s\) for 3 × 3 attention/],
    [{ ...payload, tokens: ['a', 'b', 3] }, /"tokens" are not a list of strings/],
    [{ ...payload, title: 7 }, /"title" is not text/],
    [{ ...payload, data: payload.data.slice(0, -4) }, /data holds 69 bytes, but \[1, 2, 3, 3\] of float32 needs 72/],
    [{ ...payload, data: `${payload.data.slice(0, -4)}*+/=` }, /not base64/],
    [{ ...payload, data: 12 }, /not base64/],
    [{ ...payload, shape: [1, 1, 4096, 4096], tokens: Array(4096).fill('x'), dtype: 'float32', data: '' }, /its data holds 0 bytes/],
  ];
  for (const [p, want] of cases) {
    const problem = payloadProblem(p);
    assert.match(problem ?? 'accepted', want, JSON.stringify(p).slice(0, 80));
    const read = readPayload(p);
    assert.ok('problem' in read && !read.problem.includes('\n'), 'one line');
  }
  assert.ok(MAX_PAYLOAD_BYTES >= 64 * 1024 * 1024, 'one 4,096-token head in float32 fits');
});

test('a NaN or an infinity is refused with its place, in float32 and in float16', () => {
  const values = new Float32Array(2 * 2 * 9).fill(1 / 3);
  values[(1 * 2 + 1) * 9 + 2 * 3 + 1] = NaN;
  const f32 = readPayload(payloadOf(values, 2, 2, 3));
  assert.ok('problem' in f32);
  assert.equal(f32.problem, 'the weight of query 2 on key 1 in layer 1 head 1 is NaN: attention must be finite');
  const bytes = Buffer.alloc(2 * 9);
  for (let k = 0; k < 9; k++) bytes.writeUInt16LE(halfBits(k === 4 ? -Infinity : 0.25), k * 2);
  const f16 = readPayload({ tokens: ['a', 'b', 'c'], shape: [1, 1, 3, 3], dtype: 'float16', data: bytes.toString('base64') });
  assert.ok('problem' in f16);
  assert.equal(f16.problem, 'the weight of query 1 on key 1 in layer 0 head 0 is -Infinity: attention must be finite');
});

test('whatever a renderer sends as a payload, it is refused in one sentence or opened as exactly what it declares, every weight finite', () => {
  const dim = fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, 4097, '2', null));
  const payload = fc.record({
    shape: fc.oneof(
      { arbitrary: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })).map(([l, h, n]) => [l, h, n, n]), weight: 3 },
      { arbitrary: fc.array(dim, { minLength: 3, maxLength: 5 }), weight: 2 },
      { arbitrary: fc.constantFrom('[1,1,2,2]', null, {}), weight: 1 },
    ),
    dtype: fc.constantFrom('float32', 'float32', 'float16', 'float16', 'float64', 'FLOAT32', undefined),
    tokens: fc.oneof(fc.constant('fit'), fc.constant('fit'), fc.array(fc.string({ maxLength: 2 }), { maxLength: 4 }), fc.constant([1, 2]), fc.constant('ab')),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 200 }),
    dataKind: fc.constantFrom('fit', 'fit', 'fit', 'raw', 'base64', 'cut', 'junk', 'number'),
    title: fc.option(fc.oneof(fc.string({ maxLength: 3 }), fc.constant(7)), { nil: undefined, freq: 2 }),
  });
  let opened = 0;
  fc.assert(fc.property(payload, (p) => {
    // 'fit': as many bytes as the shape declares (when it is whole numbers), cycled from the drawn ones.
    const declared = Array.isArray(p.shape) && p.shape.every((d) => typeof d === 'number' && Number.isInteger(d) && d >= 1 && d <= 3)
      ? (p.shape as number[]).reduce((a, b) => a * b, 1) * (p.dtype === 'float16' ? 2 : 4) : -1;
    // Finite values from the drawn bytes (b / 255), as float32 or float16 bits; 'raw' cycles the bytes themselves (NaNs among them).
    const finite = (count: number) => {
      const v = Array.from({ length: count }, (_, i) => p.bytes[i % p.bytes.length] / 255);
      const typed = p.dtype === 'float16' ? Uint16Array.from(v, halfBits) : Float32Array.from(v);
      return new Uint8Array(typed.buffer);
    };
    const size = p.dtype === 'float16' ? 2 : 4;
    const bytes = declared > 0 && p.dataKind === 'fit' ? finite(declared / size)
      : declared > 0 && p.dataKind === 'raw' ? Uint8Array.from({ length: declared }, (_, i) => p.bytes[i % p.bytes.length]) : p.bytes;
    const base64 = Buffer.from(bytes).toString('base64');
    const data = p.dataKind === 'base64' || p.dataKind === 'fit' || p.dataKind === 'raw' ? base64 : p.dataKind === 'cut' ? base64.slice(0, -1) : p.dataKind === 'junk' ? `${base64}!` : 12;
    const side = Array.isArray(p.shape) ? Number(p.shape[2]) : 0;
    const tokens = p.tokens === 'fit' ? Array.from({ length: Number.isInteger(side) && side >= 0 && side <= 8 ? side : 0 }, (_, i) => `t${i}`) : p.tokens;
    const sent: Record<string, unknown> = { shape: p.shape, dtype: p.dtype, tokens, data, ...(p.title !== undefined ? { title: p.title } : {}) };
    const read = readPayload(sent);
    if (!('problem' in read)) opened++;
    if ('problem' in read) {
      assert.match(read.problem, /^[^\n]{1,300}$/);
      return;
    }
    const { attention } = read;
    const [layers, heads, n] = p.shape as number[];
    assert.deepEqual([attention.layers, attention.heads, attention.n], [layers, heads, n]);
    assert.equal(layers * heads * n * n * (p.dtype === 'float16' ? 2 : 4), bytes.length);
    assert.deepEqual(attention.tokens, tokens);
    for (let l = 0; l < layers; l++) for (let h = 0; h < heads; h++) assert.ok(attention.head(l, h).every(Number.isFinite));
  }), { seed: 20261127, numRuns: 3000 });
  assert.ok(opened > 20, `only ${opened} payloads were opened: the property tests little`);
});
