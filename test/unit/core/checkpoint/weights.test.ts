// The tensors the architecture reads (src/core/checkpoint/weights.ts): names with or without
// GPT-2's transformer. prefix, a separate lm_head only when present, legacy buffers ignored, every
// shape checked against the config with both shapes in the message, and the lazy float32 decoding
// (F16 and BF16 exactly; a tensor larger than one read is read in slices).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTensors, namesOf, readFloat32, Weights } from '../../../../src/core/checkpoint/weights.js';
import { readModelConfig } from '../../../../src/core/checkpoint/config.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { fileSource } from '../../../../src/core/files/file-source.js';
import { readStored } from '../../../../src/core/checkpoint/stored-read.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../../support/temp-dir.js';
import { GPT2_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { between, seeded } from '../../../support/random.js';

const gpt2 = readModelConfig(JSON.stringify(GPT2_CONFIG));

test('gpt2 names: plain or transformer.-prefixed; the head is wte unless lm_head.weight exists', () => {
  const plain = namesOf(gpt2, (n) => n === 'wte.weight').names;
  assert.deepEqual([plain.embed, plain.head, plain.positions, plain.layers[1].qkv], ['wte.weight', 'wte.weight', 'wpe.weight', 'h.1.attn.c_attn.weight']);
  const prefixed = namesOf(gpt2, (n) => n === 'transformer.wte.weight' || n === 'lm_head.weight');
  assert.deepEqual([prefixed.names.embed, prefixed.names.head, prefixed.names.finalNorm], ['transformer.wte.weight', 'lm_head.weight', 'transformer.ln_f.weight']);
  assert.deepEqual(prefixed.shapes.get('transformer.h.0.mlp.c_fc.weight'), [16, 64]);
  assert.equal([...prefixed.shapes.keys()].some((n) => /\.attn\.(bias|masked_bias)$/.test(n)), false);
});

test('qwen2 names: nn.Linear [out, in] shapes, q/k/v biases, GQA widths, a tied head', () => {
  const c = readModelConfig(JSON.stringify(QWEN2_CONFIG));
  const { names, shapes } = namesOf(c, () => false);
  assert.equal(names.head, 'model.embed_tokens.weight');
  assert.deepEqual(shapes.get('model.layers.0.self_attn.q_proj.weight'), [24, 16]);
  assert.deepEqual(shapes.get('model.layers.0.self_attn.k_proj.weight'), [12, 16]);
  assert.deepEqual(shapes.get('model.layers.0.self_attn.k_proj.bias'), [12]);
  assert.deepEqual(shapes.get('model.layers.1.self_attn.o_proj.weight'), [16, 24]);
  assert.deepEqual(shapes.get('model.layers.1.mlp.down_proj.weight'), [16, 24]);
});

test('the checks: a missing tensor, a wrong shape, a dtype we do not read, each in one sentence; extra buffers pass', () => {
  const { tensors } = tinyCheckpoint(GPT2_CONFIG, 1, { 'h.0.attn.bias': [1, 1, 32, 32], 'h.0.attn.masked_bias': [] });
  const where = () => 'model.safetensors';
  assert.doesNotThrow(() => checkTensors(gpt2, tensors, where));
  const wrong = new Map(tensors);
  wrong.set('h.1.attn.c_proj.weight', { ...tensors.get('h.1.attn.c_proj.weight')!, shape: [16, 15] });
  assert.throws(() => checkTensors(gpt2, wrong, where), /model\.safetensors: tensor "h\.1\.attn\.c_proj\.weight" has shape \[16, 15\] but config\.json implies \[16, 16\]/);
  const missing = new Map(tensors);
  missing.delete('ln_f.bias');
  assert.throws(() => checkTensors(gpt2, missing, where), /tensor "ln_f\.bias" is missing/);
  const ints = new Map(tensors);
  ints.set('wpe.weight', { ...tensors.get('wpe.weight')!, dtype: 'I64' });
  assert.throws(() => checkTensors(gpt2, ints, where), /tensor "wpe\.weight" is I64/);
});

test('readFloat32: F16 and BF16 decode exactly; F32 as it is', () => {
  const f16 = new Uint16Array([0x3c00, 0xc000, 0x3555, 0x0001]); // 1, −2, 0.333…, the smallest subnormal
  const bf16 = new Uint16Array([0x3f80, 0xc040, 0x3eab]); // 1, −3, 0.333984375
  const read = (dtype: string, bytes: Uint8Array, count: number) => readFloat32({ name: 't', dtype, shape: [count], source: memorySource('m', bytes), offset: 0 });
  assert.deepEqual([...read('F16', new Uint8Array(f16.buffer), 4)], [1, -2, Math.fround(0.333251953125), Math.fround(2 ** -24)]);
  assert.deepEqual([...read('BF16', new Uint8Array(bf16.buffer), 3)], [1, -3, 0.333984375]);
  const f32 = new Float32Array([0.1, -7, 3e38]);
  assert.deepEqual([...read('F32', new Uint8Array(f32.buffer), 3)], [...f32]);
  // An F32 tensor at an odd offset is decoded too (not viewed in place).
  const odd = new Uint8Array(13);
  odd.set(new Uint8Array(f32.buffer), 1);
  assert.deepEqual([...readFloat32({ name: 't', dtype: 'F32', shape: [3], source: memorySource('m', odd), offset: 1 })], [...f32]);
});

test('Weights: read as stored on demand, kept only when asked; a vector widened to float32 is a copy, never kept', () => {
  const { tensors } = tinyCheckpoint(GPT2_CONFIG);
  const once = new Weights(tensors, false), kept = new Weights(tensors, true);
  assert.notEqual(once.matrix('wte.weight'), once.matrix('wte.weight'));
  assert.equal(kept.matrix('wte.weight'), kept.matrix('wte.weight'));
  assert.equal(kept.decoded, 1);
  assert.notEqual(kept.f32('ln_f.bias'), kept.f32('ln_f.bias'));
  assert.deepEqual([...kept.f32('ln_f.bias')], [...readFloat32(tensors.get('ln_f.bias')!)]);
});

test('a weight that is NaN or ±Infinity is refused when the tensor is read, naming the file, the tensor and the element', () => {
  // Before: an F32 NaN in h.0.ln_1.weight ran to every attention weight NaN (null in --json) and exit 0.
  for (const [bad, word] of [[NaN, 'NaN'], [Infinity, 'Infinity'], [-Infinity, '-Infinity']] as const) {
    const data = new Float32Array([1, 2, bad, 4]);
    const t = { name: 'h.0.ln_1.weight', dtype: 'F32', shape: [4], source: memorySource('model.safetensors', new Uint8Array(data.buffer)), offset: 0 };
    assert.throws(() => readFloat32(t), new RegExp(`model\\.safetensors: tensor "h\\.0\\.ln_1\\.weight" holds ${word} at element 2`));
  }
  // F16's infinity (0x7c00) and NaN (0x7e00), and BF16's (0x7f80, 0x7fc0).
  for (const [dtype, bits] of [['F16', 0x7c00], ['F16', 0x7e00], ['BF16', 0x7f80], ['BF16', 0x7fc0]] as const) {
    const data = new Uint16Array([0x3c00, bits]);
    const t = { name: 'wte.weight', dtype, shape: [2], source: memorySource('w.safetensors', new Uint8Array(data.buffer)), offset: 0 };
    assert.throws(() => readFloat32(t), /w\.safetensors: tensor "wte\.weight" holds (NaN|Infinity) at element 1/, `${dtype} ${bits.toString(16)}`);
  }
});

test('a bad word anywhere in a tensor of many read pieces is found at its element, read from a file straight into the weight (seeded places)', () => {
  // The weights are read a megabyte at a time and each piece checked as it comes: the element named
  // is counted from the tensor's start, not the piece's, in every type.
  const rand = seeded(4242), dir = tempDir();
  const count = 700_003; // 2.8 MB of F32, 1.4 MB of a 16-bit type: several pieces, a ragged last one
  for (let trial = 0; trial < 12; trial++) {
    const dtype = (['F32', 'F16', 'BF16', 'F64'] as const)[trial % 4];
    const at = trial < 4 ? count - 1 : between(rand, 0, count - 1);
    const item = dtype === 'F64' ? 8 : dtype === 'F32' ? 4 : 2, offset = 8 + (trial % 2) * item;
    const bytes = new Uint8Array(offset + count * item);
    const view = new DataView(bytes.buffer);
    const put = (i: number, bad: boolean) => {
      const o = offset + i * item;
      if (dtype === 'F64') view.setFloat64(o, bad ? NaN : 0.5, true);
      else if (dtype === 'F32') view.setFloat32(o, bad ? -Infinity : 0.5, true);
      else view.setUint16(o, dtype === 'F16' ? (bad ? 0x7e00 : 0x3800) : (bad ? 0x7fc0 : 0x3f00), true);
    };
    for (let i = 0; i < count; i++) put(i, i === at);
    const path = join(dir, `w${trial}.safetensors`);
    writeFileSync(path, bytes);
    const source = fileSource(path);
    try {
      const t = { name: 'model.embed_tokens.weight', dtype, shape: [count], source, offset };
      assert.throws(() => readStored(t), (e: Error) => e.message.endsWith(`holds ${dtype === 'F32' ? '-Infinity' : 'NaN'} at element ${at}; a weight must be a finite number`), `${dtype} at ${at}`);
      put(at, false);
      writeFileSync(path, bytes);
      const clean = readStored({ ...t, source: fileSource(path) });
      assert.equal(clean.data.length, count);
      assert.equal(readFloat32({ ...t, source: fileSource(path) })[at], 0.5);
    } finally {
      source.close();
    }
  }
});

test('a tensor read in several slices is decoded whole, for every dtype and alignment (F16, BF16, an unaligned F32)', () => {
  // Before: the F16 path (and F32/BF16 at an odd offset) wrote every slice at element 0, so a tensor
  // larger than one read (over 64M F16 numbers, e.g. a Llama embedding) kept its last slice at the
  // start and zeros after.
  const values = Array.from({ length: 23 }, (_, i) => i + 1);
  const f16 = new Uint16Array(values.map((v) => { const e = Math.floor(Math.log2(v)); return ((e + 15) << 10) | Math.round((v / 2 ** e - 1) * 1024); }));
  const bf16 = new Uint16Array(values.map((v) => new Uint32Array(new Float32Array([v]).buffer)[0] >>> 16));
  const f32 = new Float32Array(values);
  const shifted = (bytes: Uint8Array, by: number) => { const b = new Uint8Array(bytes.length + by); b.set(bytes, by); return b; };
  const cases: [string, Uint8Array, number][] = [
    ['F16', new Uint8Array(f16.buffer), 0], ['F16', shifted(new Uint8Array(f16.buffer), 1), 1],
    ['BF16', shifted(new Uint8Array(bf16.buffer), 1), 1], ['F32', shifted(new Uint8Array(f32.buffer), 2), 2],
  ];
  for (const [dtype, bytes, offset] of cases) {
    const t = { name: 'wte.weight', dtype, shape: [23], source: memorySource('w.safetensors', bytes), offset };
    assert.deepEqual(Array.from(readFloat32(t, 16)), values, `${dtype} at offset ${offset}, 4 numbers a read`);
  }
});

test('a config with millions of layers over a two-layer file: the first missing tensor is named at once, no names built for the rest', () => {
  // Before: n_layer 16777216 built every layer's names first: 48 s, 2.5 GB, then "internal error: Map maximum size exceeded".
  const { tensors } = tinyCheckpoint(GPT2_CONFIG);
  const huge = readModelConfig(JSON.stringify({ ...GPT2_CONFIG, n_layer: 1 << 24 }));
  const started = performance.now();
  assert.throws(() => checkTensors(huge, tensors, () => 'model.safetensors'), /model\.safetensors: tensor "h\.2\.ln_1\.weight" is missing/);
  assert.ok(performance.now() - started < 1000, `${performance.now() - started} ms`);
});

test('an F64 weight past float32\'s range is said to be out of range with its value, never "Infinity"; NaN and ±Infinity are said as they are (seeded family)', () => {
  const rand = seeded(20261132);
  const F32_MAX = 3.4028234663852886e38;
  for (let c = 0; c < 200; c++) {
    const n = between(rand, 1, 40);
    const data = new Float64Array(n).map(() => (rand() - 0.5) * 4);
    const at = between(rand, 0, n - 1);
    const kind = c % 5;
    // Past the range: from just above float32's largest (rounding to it would keep it finite) to 1e308.
    const big = kind === 0 ? 3.5e38 * 10 ** (rand() * 269) : kind === 1 ? -(3.41e38 * (1 + rand())) : kind === 2 ? NaN : kind === 3 ? (rand() < 0.5 ? Infinity : -Infinity) : (rand() - 0.5) * 2 * F32_MAX * 0.99;
    data[at] = big;
    const t = { name: `h.${c}.attn.c_attn.weight`, dtype: 'F64', shape: [n], source: memorySource('model.safetensors', new Uint8Array(data.buffer)), offset: 0 };
    const what = `case ${c}: ${big} at ${at}`;
    if (kind === 4) {
      assert.equal(readFloat32(t)[at], Math.fround(big), what);
      continue;
    }
    assert.throws(() => readFloat32(t), (e: unknown) => {
      const message = (e as Error).message;
      assert.ok(message.startsWith(`model.safetensors: tensor "h.${c}.attn.c_attn.weight" holds ${big} at element ${at}`), `${what}: ${message}`);
      assert.equal(/beyond float32's range/.test(message), kind < 2, `${what}: ${message}`);
      return true;
    }, what);
  }
});
