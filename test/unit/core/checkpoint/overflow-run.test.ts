// Finite weights whose numbers grow past float32's range in the float32 forward (the forward pass's
// checks of its results, src/core/checkpoint/forward.ts and finite.ts): a GPT-2 whose final norm is
// near 3e38 printed `next: "…" NaN` (JSON: "p": null) with exit 0. The run is refused in a sentence
// rather than printing NaN, the kept run is not replaced by one holding ±Infinity, and float64
// computes what it can; over seeded scales of every tensor, a run is refused or all its numbers finite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel, runText } from '../../../../src/core/checkpoint/model.js';
import { ModelError } from '../../../../src/core/checkpoint/error.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { seeded } from '../../../support/random.js';

const words = (n: number): Tokenizer => ({
  vocabSize: 40,
  encode: (_text, limit) => {
    const m = Math.min(n, limit ?? n);
    return { ids: Array.from({ length: m }, (_, i) => (i * 7) % 40), pieces: Array.from({ length: m }, (_, i) => `p${i}`) };
  },
  decodeOne: (id) => `t${id}`,
});

/** The tiny GPT-2's tensors with `name` multiplied by `factor` (each value still a finite float32). */
function scaled(name: string, factor: number, seed = 1): { configText: string; tensors: Map<string, TensorRef> } {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, seed);
  const t = tensors.get(name)!;
  const count = t.shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(t.source.read(t.offset, count * 4).slice().buffer);
  for (let i = 0; i < values.length; i++) values[i] = Math.fround(values[i] * factor);
  assert.ok(values.every(Number.isFinite), 'the weights stay finite float32s');
  tensors.set(name, { ...t, source: memorySource('model.safetensors', new Uint8Array(values.buffer)), offset: 0 });
  return { configText, tensors };
}

const allFinite = (r: ReturnType<typeof runText>) => r.attention.every((a) => a.every(Number.isFinite)) && r.next.every((t) => Number.isFinite(t.p));

test('a final norm near float32\'s largest: refused by name in float32, computed in float64', () => {
  const { configText, tensors } = scaled('ln_f.weight', 5e38);
  const f32 = loadModel(configText, tensors, { keep: true });
  assert.throws(() => runText(f32, words(6), 'x'), { name: 'ModelError', message: /^the forward pass overflows in the logits: / });
  assert.equal(f32.kept, undefined, 'nothing kept from the refused run');
  const f64 = runText(loadModel(configText, tensors, { precision: 'f64' }), words(6), 'x');
  assert.ok(allFinite(f64));
});

test('queries and keys past float32\'s range: the layer named', () => {
  const { configText, tensors } = scaled('h.1.attn.c_attn.weight', 5e38);
  assert.throws(() => runText(loadModel(configText, tensors), words(6), 'x'), { name: 'ModelError', message: /^the forward pass overflows in layer 2: / });
});

test('seeded scales of seeded tensors: every run is refused in a sentence or all its numbers are finite', () => {
  const r = seeded(7);
  const names = [...tinyCheckpoint(GPT2_CONFIG).tensors.keys()];
  let refused = 0;
  for (let i = 0; i < 60; i++) {
    const name = names[Math.floor(r() * names.length)], factor = 10 ** (30 + r() * 8.7), n = 1 + Math.floor(r() * 12);
    const { configText, tensors } = scaled(name, factor, 1 + i);
    for (const precision of ['f32', 'f64'] as const) {
      const what = `case ${i}: ${name} × ${factor}, ${n} tokens, ${precision}`;
      try {
        assert.ok(allFinite(runText(loadModel(configText, tensors, { precision }), words(n), 'x')), what);
      } catch (e) {
        assert.ok(e instanceof ModelError && /^the forward pass overflows in (layer \d+|the logits|the embeddings): /.test(e.message), `${what}: ${String(e)}`);
        refused++;
      }
    }
  }
  assert.ok(refused > 0, 'some scales overflow');
});
