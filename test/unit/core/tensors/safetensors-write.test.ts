// The safetensors writer (src/core/tensors/safetensors-write.ts) writes what the reader reads back:
// names, shapes, dtypes, every number, the metadata, and a header padded to 8 bytes; from numbers,
// from bytes (F16 as a payload carries them) and from a run's layers as parts never joined; and the
// very bytes each of its callers wrote before it was the one writer (their SHA-256 pinned).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { safetensorsParts, writeSafetensors } from '../../../../src/core/tensors/safetensors-write.js';
import { metadataTokens, readSafetensors } from '../../../../src/core/tensors/safetensors.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { randomAttention } from '../../../support/model-fixture.js';

test('a written file reads back: F32 and F64 tensors, their numbers and the tokens in __metadata__', () => {
  const a = new Float32Array([1.5, -2, 3.25, 0, 7, 8]);
  const b = new Float64Array([Math.PI, -Math.E]);
  const bytes = writeSafetensors([
    { name: 'attention', dtype: 'F32', shape: [1, 1, 2, 3], data: a },
    { name: 'b', dtype: 'F64', shape: [2], data: b },
  ], { tokens: JSON.stringify(['the', ' cat']) });
  const headerSize = new DataView(bytes.buffer).getUint32(0, true);
  assert.equal(headerSize % 8, 0, 'the data starts aligned');
  const { tensors, metadata } = readSafetensors(memorySource('x', bytes));
  assert.deepEqual(metadataTokens('x', metadata), ['the', ' cat']);
  assert.deepEqual(tensors.map((t) => [t.name, t.dtype, t.shape]), [['attention', 'F32', [1, 1, 2, 3]], ['b', 'F64', [2]]]);
  const read = (i: number, size: number) => tensors[i].source.read(tensors[i].offset, size);
  assert.deepEqual([...new Float32Array(read(0, 24).slice().buffer)], [...a]);
  assert.deepEqual([...new Float64Array(read(1, 16).slice().buffer)], [...b]);
});

test('a tensor whose data is not as long as its shape is refused', () => {
  assert.throws(() => writeSafetensors([{ name: 'x', dtype: 'F32', shape: [2, 2], data: new Float32Array(3) }]), /holds 4 numbers, not 3/);
});

test('written from bytes and read back: header, tokens, values; bytes that disagree with the shape are refused', () => {
  const values = randomAttention(2, 3, 5, 9);
  const file = writeSafetensors([{ name: 'attention', dtype: 'F32', shape: [2, 3, 5, 5], data: new Uint8Array(values.buffer) }], { tokens: JSON.stringify(['a', 'b', 'c', 'd', '"e"']) });
  const size = Number(new DataView(file.buffer).getBigUint64(0, true));
  assert.equal(size % 8, 0);
  const { tensors, metadata } = readSafetensors(memorySource('x.safetensors', file));
  assert.deepEqual(metadataTokens('x', metadata), ['a', 'b', 'c', 'd', '"e"']);
  const a = attentionFromTensors('x', tensors, metadataTokens('x', metadata), () => {});
  assert.deepEqual([a.layers, a.heads, a.n, a.dtype], [2, 3, 5, 'F32']);
  assert.deepEqual(Array.from(a.head(1, 1)), Array.from(values.subarray(4 * 25, 5 * 25)));
  assert.throws(() => writeSafetensors([{ name: 'a', dtype: 'F16', shape: [1, 1, 2, 2], data: new Uint8Array(6) }]), /needs 8 bytes, not 6/);
  assert.throws(() => writeSafetensors([{ name: 'a', dtype: 'F16', shape: [1], data: new Float32Array(1) }]), /from its bytes/);
});

test('a run\'s layers are parts of the file: the header, then each layer\'s own bytes (views, not copies)', () => {
  const layers = [Float32Array.from({ length: 2 * 9 }, (_, i) => i / 10), Float32Array.from({ length: 2 * 9 }, (_, i) => -i)];
  const parts = safetensorsParts([{ name: 'attention', dtype: 'F32', shape: [2, 2, 3, 3], data: layers }], { tokens: JSON.stringify(['a', ' "b"', 'ü']) });
  assert.equal(parts.length, 3);
  assert.equal((parts[0].length - 8) % 8, 0);
  assert.equal(parts[1].buffer, layers[0].buffer);
  assert.equal(parts[2].buffer, layers[1].buffer);
  const bytes = writeSafetensors([{ name: 'attention', dtype: 'F32', shape: [2, 2, 3, 3], data: layers }], { tokens: JSON.stringify(['a', ' "b"', 'ü']) });
  const { tensors, metadata } = readSafetensors(memorySource('run.safetensors', bytes));
  assert.deepEqual(tensors.map((t) => [t.name, t.dtype, t.shape]), [['attention', 'F32', [2, 2, 3, 3]]]);
  assert.deepEqual(metadataTokens('run.safetensors', metadata), ['a', ' "b"', 'ü']);
  assert.deepEqual([...new Float32Array(bytes.slice(tensors[0].offset).buffer)], [...layers[0], ...layers[1]]);
});

test('every caller\'s file is byte for byte what it was: a run\'s attention, a lens file, no metadata', () => {
  const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
  const layers = [Float32Array.from({ length: 2 * 9 }, (_, i) => i / 10), Float32Array.from({ length: 2 * 9 }, (_, i) => -i)];
  assert.equal(sha(writeSafetensors([{ name: 'attention', dtype: 'F32', shape: [2, 2, 3, 3], data: layers }], { tokens: JSON.stringify(['a', ' "b"', 'ü']) })),
    '123131fe95413a54b126558bbe7268ca78298aab4199d06da4ee24b0fc20f77f');
  const tensors = [
    { name: 'attention', dtype: 'F32' as const, shape: [1, 1, 2, 3], data: new Float32Array([1.5, -2, 3.25, 0, 7, 8]) },
    { name: 'b', dtype: 'F64' as const, shape: [2], data: new Float64Array([Math.PI, -Math.E]) },
    { name: 'c', dtype: 'F32' as const, shape: [3], data: new Float64Array([0.1, 0.2, 0.3]) },
  ];
  assert.equal(sha(writeSafetensors(tensors, { about: 'Attention Lens: gpt2, layer 1 head 2' })), 'f3ad082258bee35417295372d019aaa0ed5024e7a874a060bc64f4a6bdabf022');
  assert.equal(sha(writeSafetensors(tensors.slice(0, 2))), 'd4436e6e5b6c602a82d809ff3bb0c582abe54453ba1dd84d6f35bc36e1a76460');
});

test('whatever names, shapes and data it is given, the writer writes what the reader reads back, or refuses', () => {
  const name = fc.oneof(fc.constantFrom('__proto__', '__metadata__', 'constructor', 'toString', '', 'attention', 'a"b', '\u0000', '\ud800', '😀'), fc.string({ maxLength: 4 }));
  const dim = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(-1, -2, 0.5, 1.5, NaN, Infinity));
  const tensor = fc.record({ name, dtype: fc.constantFrom('F32' as const, 'F64' as const), shape: fc.array(dim, { maxLength: 3 }), extra: fc.integer({ min: -1, max: 1 }) });
  const metadata = fc.option(fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'tokens'), fc.string({ maxLength: 3 })), fc.string({ maxLength: 5 })), { nil: undefined });
  fc.assert(fc.property(fc.array(tensor, { maxLength: 4 }), metadata, fc.integer(), (specs, meta, seed) => {
    let k = seed;
    const tensors = specs.map((t) => {
      const count = Math.max(0, t.shape.reduce((a, b) => a * b, 1) + t.extra);
      const values = Array.from({ length: Number.isFinite(count) ? Math.min(count, 64) : 0 }, () => (k = (k * 1103515245 + 12345) % 2 ** 31) / 2 ** 20);
      return { name: t.name, dtype: t.dtype, shape: t.shape, data: t.dtype === 'F32' ? Float32Array.from(values) : Float64Array.from(values) };
    });
    let bytes: Uint8Array;
    try {
      bytes = writeSafetensors(tensors, meta);
    } catch (e) {
      assert.ok(e instanceof RangeError, String(e));
      return;
    }
    const back = readSafetensors(memorySource('x', bytes));
    assert.deepEqual(Object.entries(back.metadata), Object.entries(meta ?? {}));
    assert.deepEqual(back.tensors.map((t) => [t.name, t.dtype, t.shape]), tensors.map((t) => [t.name, t.dtype, [...t.shape]]));
    back.tensors.forEach((t, i) => {
      const size = tensors[i].data.byteLength;
      assert.deepEqual(new Uint8Array(t.source.read(t.offset, size)), new Uint8Array(tensors[i].data.buffer, 0, size));
    });
  }), { seed: 20261127, numRuns: 2000 });
});

test('a tensor named "__proto__" is written; a name given twice, the metadata\'s name or a fractional shape is refused', () => {
  // Before: header["__proto__"] = … set the header's prototype, JSON.stringify left the tensor out,
  // and its bytes were written under no name; a second "a" was written with one entry for both.
  const one = new Float32Array([1]);
  const back = readSafetensors(memorySource('x', writeSafetensors([{ name: '__proto__', dtype: 'F32', shape: [1], data: one }])));
  assert.deepEqual(back.tensors.map((t) => t.name), ['__proto__']);
  assert.throws(() => writeSafetensors([{ name: 'a', dtype: 'F32', shape: [1], data: one }, { name: 'a', dtype: 'F32', shape: [1], data: one }]), /^RangeError: tensor "a": named twice$/);
  assert.throws(() => writeSafetensors([{ name: '__metadata__', dtype: 'F32', shape: [1], data: one }], { tokens: '[]' }), /the name of the metadata/);
  assert.throws(() => writeSafetensors([{ name: 'a', dtype: 'F32', shape: [-1, -1], data: one }]), /shape \[-1, -1\] is not whole numbers ≥ 0/);
});
