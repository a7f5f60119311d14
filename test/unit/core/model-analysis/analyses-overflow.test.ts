// The analyses' own numbers past float32's range while the run's are not (analyze-text.ts): a run
// whose last position's logits are finite can still have an earlier position's, through the logit
// lens, overflow; a value's norm through W_O can pass 3.4e38 while each of its numbers (and so the
// run) stays finite. Either would print as null in --json (NaN p, Infinity norms, 0 · Infinity for a
// masked key): each is refused in one sentence naming where, and the float64 run of the same
// checkpoint gives finite numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel } from '../../../../src/core/checkpoint/model.js';
import { ModelError } from '../../../../src/core/checkpoint/error.js';
import type { TensorRef } from '../../../../src/core/tensors/attention-file.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { analyzeText } from '../../../../src/core/model-analysis/analyze-text.js';
import { idsTokenizer } from '../../../support/ids-tokenizer.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';

/** The tiny GPT-2 with every layer's tensors 0, its final norm the identity, no positions, and then `edit`'s changes. */
function edited(edit: (name: string, data: Float32Array) => void): { configText: string; tensors: Map<string, TensorRef> } {
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 5);
  const parts = [...tensors.values()].map((t) => {
    const count = t.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(t.source.read(t.offset, count * 4).slice().buffer);
    if (t.name.startsWith('h.') || t.name === 'wpe.weight' || t.name === 'ln_f.bias') data.fill(0);
    if (t.name === 'ln_f.weight') data.fill(1);
    edit(t.name, data);
    return { t, data };
  });
  const all = new Float32Array(parts.reduce((s, p) => s + p.data.length, 0));
  const source = memorySource('model.safetensors', new Uint8Array(all.buffer));
  const out = new Map<string, TensorRef>();
  let at = 0;
  for (const { t, data } of parts) {
    all.set(data, at);
    out.set(t.name, { ...t, source, offset: at * 4 });
    at += data.length;
  }
  return { configText, tensors: out };
}

const E = 16;

test('the logit lens of a position whose logit passes float32\'s range is refused, the run\'s own being finite', () => {
  // Token 5's embedding (the tied head's row too) is 1e38 in its first dimension: normed, that
  // dimension is √15, so token 5's logit at its own position is 3.9e38. Token 7's first dimension is
  // the mean of its others: normed, 0, so the last position's logits are finite.
  const checkpoint = edited((name, data) => {
    if (name !== 'wte.weight') return;
    data.fill(0, 5 * E, 6 * E);
    data[5 * E] = 1e38;
    let mean = 0;
    for (let e = 1; e < E; e++) mean += data[7 * E + e];
    data[7 * E] = mean / (E - 1);
  });
  const m = loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f32' });
  const run = analyzeText(m, idsTokenizer(40), '5 7', {});
  assert.ok(run.next.every((t) => Number.isFinite(t.p)), 'the run itself is finite');
  assert.throws(() => analyzeText(m, idsTokenizer(40), '5 7', { logitLens: true }),
    (e: Error) => e instanceof ModelError && /^the forward pass overflows in the logit lens after layer 1: /.test(e.message) && !e.message.includes('\n'));
  const wide = loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f64' });
  const lens = analyzeText(wide, idsTokenizer(40), '5 7', { logitLens: true }).analyses.logitLens!;
  assert.ok(lens.flat(2).every((t) => Number.isFinite(t.p)));
  assert.equal(lens[0][0][0].id, 5);
});

test('value-weighted norms past float32\'s range are refused naming the layer; in float64 they are finite', () => {
  // Head 1's value is the bias (1, 0, 0, 0) at every key, and the first row of W_O is 1e38 across:
  // every number of v W_O is 1e38 (finite, and so is the run: the layer's output is the same at every
  // dimension, which the next norm centres to 0), but its norm is 4e38.
  const checkpoint = edited((name, data) => {
    if (name === 'h.0.attn.c_attn.bias') data[2 * E] = 1;
    if (name === 'h.0.attn.c_proj.weight') data.fill(1e38, 0, E);
  });
  const m = loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f32' });
  assert.ok(analyzeText(m, idsTokenizer(40), '5 7 9', {}).next.every((t) => Number.isFinite(t.p)), 'the run itself is finite');
  assert.throws(() => analyzeText(m, idsTokenizer(40), '5 7 9', { norms: true }),
    (e: Error) => e instanceof ModelError && /^the forward pass overflows in layer 1's value-weighted norms: /.test(e.message) && !e.message.includes('\n'));
  const wide = loadModel(checkpoint.configText, checkpoint.tensors, { precision: 'f64' });
  const norms = analyzeText(wide, idsTokenizer(40), '5 7 9', { norms: true }).analyses;
  assert.ok(norms.norms!.every((layer) => layer.every(Number.isFinite)));
  assert.ok(Math.abs(norms.valueNorms![0][0] / 4e38 - 1) < 1e-6, String(norms.valueNorms![0][0]));
});
