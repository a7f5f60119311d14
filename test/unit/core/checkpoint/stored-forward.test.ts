// The weights kept as their files store them (weights.ts, stored-read.ts) under both forwards
// (precision.ts): a BF16 or F16 checkpoint of exactly representable values gives the very numbers
// of its F32 copy; a kept model holds its weights' stored bytes and nothing wider; a fused tensor's
// parts are views over its rows; a NaN in a BF16 weight is refused by name; and a run that reuses a
// kept prefix equals the whole run bit for bit, in float32 and in float64, for GPT-2 and a RoPE model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forward } from '../../../../src/core/checkpoint/forward.js';
import { loadModel, runText } from '../../../../src/core/checkpoint/model.js';
import { readStored } from '../../../../src/core/checkpoint/stored-read.js';
import { readFloat32 } from '../../../../src/core/checkpoint/weights.js';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { between, seeded } from '../../../support/random.js';
import { GPT2_CONFIG, PHI3_MINI_4K_CONFIG, PYTHIA_70M_CONFIG, QWEN2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

const LLAMA_CONFIG = { ...QWEN2_CONFIG, model_type: 'llama', num_attention_heads: 6, num_key_value_heads: 2, head_dim: 4, rope_theta: 500 };
const CONFIGS = [['gpt2', GPT2_CONFIG], ['llama', LLAMA_CONFIG], ['phi3', { ...PHI3_MINI_4K_CONFIG, sliding_window: null }], ['gpt_neox', PYTHIA_70M_CONFIG]] as const;
const PRECISIONS = ['f32', 'f64'] as const;

/** A value's 16-bit word in `dtype`, for values exact in both (k / 64, |k| < 256). */
function word(v: number, dtype: 'F16' | 'BF16'): number {
  if (dtype === 'BF16') return new Uint32Array(new Float32Array([v]).buffer)[0] >>> 16;
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const e = Math.floor(Math.log2(Math.abs(v)));
  return (v < 0 ? 0x8000 : 0) | ((e + 15) << 10) | Math.round((Math.abs(v) / 2 ** e - 1) * 1024);
}

/** The checkpoint's tensors, every value rounded to k / 64, saved as `dtype`. */
function recast(tensors: ReadonlyMap<string, TensorRef>, dtype: 'F32' | 'F16' | 'BF16'): Map<string, TensorRef> {
  const out = new Map<string, TensorRef>();
  for (const [name, t] of tensors) {
    const values = [...readFloat32(t)].map((v) => Math.max(-255, Math.min(255, Math.round(v * 64))) / 64);
    const bytes = dtype === 'F32' ? new Uint8Array(new Float32Array(values).buffer) : new Uint8Array(new Uint16Array(values.map((v) => word(v, dtype))).buffer);
    out.set(name, { name, dtype, shape: t.shape, source: memorySource(`${dtype}.safetensors`, bytes), offset: 0 });
  }
  return out;
}

const IDS = [1, 17, 5, 5, 39, 0, 12, 8, 3, 21];
const bits = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test('BF16 and F16 checkpoints give the very numbers of their F32 copy, in both precisions, every family layout', () => {
  for (const [name, config] of CONFIGS) {
    const { configText, tensors } = tinyCheckpoint(config, 7);
    for (const precision of PRECISIONS) {
      const runs = (['F32', 'F16', 'BF16'] as const).map((dtype) => {
        const m = loadModel(configText, recast(tensors, dtype), { precision });
        return forward(m.config, m.names, m.weights, IDS, { precision });
      });
      for (const [i, dtype] of [[1, 'F16'], [2, 'BF16']] as const) {
        runs[0].attention.forEach((a, l) => assert.ok(bits(a).equals(bits(runs[i].attention[l])), `${name} ${precision} ${dtype}: layer ${l}`));
        assert.ok(bits(runs[0].logits).equals(bits(runs[i].logits)), `${name} ${precision} ${dtype}: logits`);
      }
      assert.ok(runs[0].logits.length > 0 && runs[0].logits.every(Number.isFinite), name);
    }
  }
});

test('a kept model holds its weights as stored, once: the bytes it holds are the files\' bytes, no float32 or float64 copy', () => {
  for (const [name, config] of CONFIGS) {
    const { configText, tensors } = tinyCheckpoint(config, 3);
    for (const dtype of ['F32', 'BF16'] as const) {
      for (const precision of PRECISIONS) {
        const m = loadModel(configText, recast(tensors, dtype), { keep: true, precision });
        forward(m.config, m.names, m.weights, IDS, { precision });
        assert.equal(m.weights.bytes, m.elements.bytes.total, `${name} ${dtype} ${precision}`);
        assert.equal(m.elements.bytes.total, m.elements.total * (dtype === 'F32' ? 4 : 2));
        // Every tensor the pass read is held in its stored type: 16-bit words for BF16.
        for (const l of m.names.layers) {
          for (const n of [l.qkv, l.q, l.k, l.v, l.o, l.fc, l.proj, l.gate, l.up, l.down]) {
            if (n !== undefined) assert.equal(m.weights.matrix(n).data.constructor, dtype === 'F32' ? Float32Array : Uint16Array, `${name}: ${n}`);
          }
        }
      }
    }
  }
});

test('a fused tensor\'s part is a view over its rows where they are contiguous (phi3\'s qkv_proj), over shared memory', () => {
  const { configText, tensors } = tinyCheckpoint({ ...PHI3_MINI_4K_CONFIG, sliding_window: null }, 5);
  const m = loadModel(configText, tensors, { keep: true });
  const l = m.names.layers[0];
  const q = m.weights.matrix(l.q!), k = m.weights.matrix(l.k!), v = m.weights.matrix(l.v!);
  assert.equal(q.data.buffer, k.data.buffer);
  assert.equal(k.data.buffer, v.data.buffer);
  assert.equal(q.data.buffer.constructor, SharedArrayBuffer);
  assert.deepEqual([q.rows, q.cols, k.data.byteOffset - q.data.byteOffset], [16, 16, 16 * 16 * 4]);
  assert.deepEqual([...q.data.subarray(0, 4)], [...readFloat32(tensors.get(m.names.parts!.get(l.q!)!.of)!).subarray(0, 4)]);
});

test('a NaN or ±Infinity in a BF16 or F16 weight is refused by the tensor\'s name, read on its 16-bit words', () => {
  const { configText, tensors } = tinyCheckpoint(LLAMA_CONFIG, 9);
  for (const [dtype, bad] of [['BF16', 0x7fc0], ['BF16', 0xff80], ['F16', 0x7e00], ['F16', 0x7c00]] as const) {
    const stored = recast(tensors, dtype);
    const name = 'model.layers.1.mlp.down_proj.weight', t = stored.get(name)!;
    const words = new Uint16Array(t.shape[0] * t.shape[1]).fill(word(0.5, dtype));
    words[7] = bad;
    stored.set(name, { ...t, source: memorySource('model.safetensors', new Uint8Array(words.buffer)) });
    const m = loadModel(configText, stored);
    assert.throws(() => forward(m.config, m.names, m.weights, IDS), (e: Error) => e.name === 'ModelError'
      && /^model\.safetensors: tensor "model\.layers\.1\.mlp\.down_proj\.weight" holds (NaN|-?Infinity) at element 7; a weight must be a finite number$/.test(e.message), `${dtype} ${bad.toString(16)}`);
  }
  // The words themselves, not a widened copy: the stored array is 16-bit.
  const t = recast(tensors, 'BF16').get('model.norm.weight')!;
  assert.equal(readStored(t).data.constructor, Uint16Array);
});

test('a NaN or ±Infinity anywhere in any tensor a run reads is refused by that tensor\'s name and element, in both precisions (seeded places)', () => {
  // Matrices are not looked at as they are read but through what the pass computes from them
  // (finite.ts); a bad number in an embedding or position row this text never looks up changes
  // nothing it shows, so the run must then succeed with finite numbers instead.
  const rand = seeded(3131);
  let refused = 0, unread = 0;
  for (const [family, config] of CONFIGS) {
    const { configText, tensors } = tinyCheckpoint(config, 5);
    const names = [...tensors.keys()];
    for (let trial = 0; trial < 10; trial++) {
      const dtype = (['F32', 'BF16', 'F16'] as const)[trial % 3], precision = PRECISIONS[trial % 2];
      const name = names[between(rand, 0, names.length - 1)];
      const stored = recast(tensors, dtype), t = stored.get(name)!;
      const count = t.shape.reduce((a, b) => a * b, 1), at = between(rand, 0, count - 1);
      const bytes = new Uint8Array(t.source.read(0, t.source.size));
      const badWord = [[0x7fc0, 0xff80, 0x7f80], [0x7e00, 0xfc00, 0x7c00]][dtype === 'F16' ? 1 : 0][trial % 3];
      if (dtype === 'F32') new Float32Array(bytes.buffer)[at] = [NaN, -Infinity, Infinity][trial % 3];
      else new Uint16Array(bytes.buffer)[at] = badWord;
      stored.set(name, { ...t, source: memorySource('model.safetensors', bytes) });
      const m = loadModel(configText, stored, { precision });
      const run = () => forward(m.config, m.names, m.weights, IDS, { precision });
      const what = `${family} ${name}[${at}] ${dtype} ${precision}`;
      const width = t.shape.length === 2 ? t.shape[1] : 0;
      const lookedUp = name.includes('wte') || name.includes('wpe') || name.includes('embed') ? (width > 0 ? [...new Set(IDS.map((id, i) => (name.includes('wpe') ? i : id)))] : []) : undefined;
      const read = lookedUp === undefined || lookedUp.includes(Math.floor(at / width)) || m.names.head === name;
      if (!m.names.layers.some((l) => Object.values(l).includes(name)) && !Object.values(m.names).includes(name) && !partOfRead(m.names, name)) continue;
      if (read) {
        assert.throws(run, (e: Error) => e.name === 'ModelError' && e.message.startsWith(`model.safetensors: tensor ${JSON.stringify(name)} holds `) && e.message.includes(` at element ${at}; a weight must be a finite number`), what);
        refused++;
      } else {
        const out = run();
        assert.ok(out.attention.every((a) => a.every(Number.isFinite)) && out.logits.every(Number.isFinite), what);
        unread++;
      }
    }
  }
  // A position past the text's: never read, the run's numbers unchanged.
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 5);
  const wpe = tensors.get('wpe.weight')!, width = wpe.shape[1];
  const bytes = new Uint8Array(wpe.source.read(wpe.offset, wpe.shape[0] * width * 4));
  const clean = loadModel(configText, tensors);
  new Float32Array(bytes.buffer)[IDS.length * width + 3] = NaN;
  const m = loadModel(configText, new Map([...tensors, ['wpe.weight', { ...wpe, offset: 0, source: memorySource('model.safetensors', bytes) }]]));
  assert.deepEqual(forward(m.config, m.names, m.weights, IDS).logits, forward(clean.config, clean.names, clean.weights, IDS).logits);
  unread++;
  assert.ok(refused >= 25, `${refused} refused, ${unread} unread`);
});

/** Whether `name` is a saved tensor whose parts the run reads (a fused q/k/v or gate/up). */
function partOfRead(names: { parts?: ReadonlyMap<string, { of: string }> }, name: string): boolean {
  return [...(names.parts?.values() ?? [])].some((p) => p.of === name);
}

const chars: Tokenizer = {
  vocabSize: 40,
  encode: (t) => ({ ids: [...t].map((ch) => ch.charCodeAt(0) % 40), pieces: [...t] }),
  decodeOne: (id) => `t${id}`,
};

test('a run that reuses a kept prefix equals the whole run bit for bit, float32 and float64, GPT-2 and a RoPE model', () => {
  for (const [name, config] of [CONFIGS[0], CONFIGS[1]]) {
    const { configText, tensors } = tinyCheckpoint(config, 11);
    for (const precision of PRECISIONS) {
      const kept = loadModel(configText, tensors, { keep: true, precision });
      for (const [text, reused] of [['The cat sat on the mat', 0], ['The cat sat on a hat', 15], ['The c', 4]] as const) {
        const got = runText(kept, chars, text), whole = runText(loadModel(configText, tensors, { precision }), chars, text);
        assert.equal(got.reused, reused, `${name} ${precision}: ${text}`);
        assert.equal(got.model.precision, precision);
        got.attention.forEach((a, l) => assert.ok(bits(a).equals(bits(whole.attention[l])), `${name} ${precision} ${text}: layer ${l}`));
        assert.deepEqual(got.next.map((t) => [t.id, t.p]), whole.next.map((t) => [t.id, t.p]), `${name} ${precision}: ${text}`);
      }
      // Kept keys and values are of the run's precision; the other precision computes afresh.
      assert.equal(kept.kept!.keys[0].constructor, precision === 'f32' ? Float32Array : Float64Array);
    }
    const kept = loadModel(configText, tensors, { keep: true, precision: 'f32' });
    runText(kept, chars, 'The cat sat on the mat');
    kept.precision = 'f64';
    assert.equal(runText(kept, chars, 'The cat sat on a hat').reused, 0, `${name}: float32 keys reused by a float64 run`);
  }
});
