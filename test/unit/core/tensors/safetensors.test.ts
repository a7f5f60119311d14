// The safetensors reader (src/core/tensors/safetensors.ts) as strict as the reference: a name given
// twice anywhere in the header is refused (JSON.parse would keep the last), a dtype named after an
// inherited property is "not one we read", and headers damaged at random are refused with a sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSafetensors, repeatedName } from '../../../../src/core/tensors/safetensors.js';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import { memorySource, TensorFileError } from '../../../../src/core/tensors/source.js';
import { between, seeded } from '../../../support/random.js';

function file(header: string, data: Buffer = Buffer.alloc(0)): Buffer {
  const size = Buffer.alloc(8);
  size.writeUInt32LE(Buffer.byteLength(header), 0);
  return Buffer.concat([size, Buffer.from(header), data]);
}
const read = (bytes: Buffer) => readSafetensors(memorySource('m.safetensors', bytes));
const entry = (begin: number) => `{"dtype":"F32","shape":[1,1,2,2],"data_offsets":[${begin},${begin + 16}]}`;

test('200 headers naming one tensor twice, at random places among others: refused, naming the name', () => {
  const rand = seeded(5);
  for (let c = 0; c < 200; c++) {
    const names = Array.from({ length: between(rand, 1, 6) }, (_, i) => `t${i}`);
    const twice = names[between(rand, 0, names.length - 1)];
    names.splice(between(rand, 0, names.length), 0, twice);
    const header = `{${names.map((n, i) => `${JSON.stringify(n)}:${entry(i * 16)}`).join(',')}}`;
    assert.throws(() => read(file(header, Buffer.alloc(16 * names.length))), new RegExp(`m\\.safetensors: the header names "${twice}" twice`), `case ${c}: ${header}`);
  }
});

test('a name given twice within a tensor\'s entry or the metadata is refused too, and says where', () => {
  assert.throws(() => read(file('{"a":{"dtype":"F32","dtype":"F64","shape":[1,1,2,2],"data_offsets":[0,16]}}', Buffer.alloc(16))), /names "dtype" twice within "a"/);
  assert.throws(() => read(file('{"__metadata__":{"tokens":"[]","tokens":"[\\"x\\"]"}}')), /names "tokens" twice within "__metadata__"/);
  assert.equal(repeatedName('{"a":{"x":1},"b":{"x":2}}'), undefined, 'one name in two objects is not a repeat');
});

test('every property every object inherits, as a dtype: "not one we read", never a sum with NaN', () => {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    const bytes = file(`{"a":{"dtype":${JSON.stringify(name)},"shape":[1,1,2,2],"data_offsets":[0,16]}}`, Buffer.alloc(16));
    const { tensors } = read(bytes);
    assert.throws(() => attentionFromTensors('m.safetensors', tensors, undefined, () => {}), new RegExp(`dtype ${name.replace(/[_$]/g, '\\$&')} is not one we read`), name);
  }
});

test('1,000 headers with random bytes changed: each reads or is refused with a TensorFileError naming the file', () => {
  const rand = seeded(9);
  const sound = file(`{"__metadata__":{"tokens":"[\\"a\\",\\"b\\"]"},"layers.0":${entry(0)},"layers.1":${entry(16)}}`, Buffer.alloc(32));
  for (let c = 0; c < 1000; c++) {
    const bytes = Buffer.from(sound);
    for (let k = between(rand, 1, 3); k > 0; k--) bytes[between(rand, 0, bytes.length - 33)] = between(rand, 0, 255);
    try {
      const { tensors } = read(bytes);
      if (tensors.length > 0) attentionFromTensors('m.safetensors', tensors, undefined, () => {});
    } catch (e) {
      assert.ok(e instanceof TensorFileError && e.message.startsWith('m.safetensors'), `case ${c}: ${String(e)}`);
    }
  }
});
