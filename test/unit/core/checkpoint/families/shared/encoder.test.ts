// Properties of the encoders' shared description (src/core/checkpoint/families/encoder.ts) over hostile
// saves, drawn from a seeded generator: the tensors of a tiny BERT, RoBERTa or DistilBERT checkpoint
// with some deleted, renamed (the model prefix stripped from some names only, LayerNorm's weight
// spelled gamma, the head's names dropped), or reshaped, run over random ids (pad ids included). Either
// loading refuses in one line naming a tensor (or a run refuses an id naming the vocabulary), or the
// run computes: every attention row sums to 1 with finite weights, and every guess's p is in [0, 1],
// most likely first. Never a TypeError from a name the layout did not find.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ModelError } from '../../../../../../src/core/checkpoint/error.js';
import { forward } from '../../../../../../src/core/checkpoint/forward.js';
import { loadModel, topNext } from '../../../../../../src/core/checkpoint/model.js';
import type { TensorRef } from '../../../../../../src/core/tensors/attention-file.js';
import { BERT_CONFIG, DISTILBERT_CONFIG, ROBERTA_CONFIG, tinyCheckpoint } from '../../../../../support/tiny-checkpoint.js';

const FAMILIES = [
  { config: BERT_CONFIG, prefix: 'bert.' },
  { config: ROBERTA_CONFIG, prefix: 'roberta.' },
  { config: DISTILBERT_CONFIG, prefix: 'distilbert.' },
].map((f) => ({ ...f, checkpoint: tinyCheckpoint(f.config, 17) }));

type Edit = { kind: 'delete' | 'strip' | 'gamma' | 'reshape'; pick: number };

const saves = fc.record({
  family: fc.integer({ min: 0, max: FAMILIES.length - 1 }),
  edits: fc.array(fc.record({ kind: fc.constantFrom<Edit['kind']>('delete', 'strip', 'gamma', 'reshape'), pick: fc.nat() }), { maxLength: 4 }),
  stripAll: fc.boolean(),
  dropHead: fc.boolean(),
  ids: fc.array(fc.oneof(fc.integer({ min: 0, max: 39 }), fc.constantFrom(0, 1, 2, 4, 39, 40, -1)), { minLength: 1, maxLength: 12 }),
});

function edited(family: (typeof FAMILIES)[number], edits: Edit[], stripAll: boolean, dropHead: boolean): Map<string, TensorRef> {
  const out = new Map(family.checkpoint.tensors);
  const rename = (from: string, to: string) => { const t = out.get(from)!; out.delete(from); out.set(to, { ...t, name: to }); };
  if (dropHead) for (const name of [...out.keys()]) if (!name.startsWith(family.prefix)) out.delete(name);
  if (stripAll) for (const name of [...out.keys()]) if (name.startsWith(family.prefix)) rename(name, name.slice(family.prefix.length));
  for (const { kind, pick } of edits) {
    const names = [...out.keys()];
    if (names.length === 0) break;
    const name = names[pick % names.length];
    if (kind === 'delete') out.delete(name);
    else if (kind === 'strip' && name.startsWith(family.prefix)) rename(name, name.slice(family.prefix.length));
    else if (kind === 'gamma' && /LayerNorm\.weight$/.test(name)) rename(name, name.replace(/weight$/, 'gamma'));
    else if (kind === 'reshape') { const t = out.get(name)!; out.set(name, { ...t, shape: [...t.shape, 1] }); }
  }
  return out;
}

test('hostile saves of an encoder: a one-line refusal naming a tensor or an id, or a run of finite rows summing to 1', () => {
  fc.assert(fc.property(saves, ({ family, edits, stripAll, dropHead, ids }) => {
    const f = FAMILIES[family];
    let m;
    try {
      m = loadModel(f.checkpoint.configText, edited(f, edits, stripAll, dropHead), { precision: 'f64' });
    } catch (e) {
      assert.ok(e instanceof ModelError, String(e));
      assert.match(e.message, /^model\.safetensors: tensor "[^"]+" (is missing|has shape)/);
      return;
    }
    let out;
    try {
      out = forward(m.config, m.names, m.weights, ids, { precision: 'f64' });
    } catch (e) {
      assert.ok(e instanceof ModelError, String(e));
      assert.match(e.message, /^token id -?\d+ is outside the model's vocabulary of 40 \(config\.json's vocab_size\)$/);
      return;
    }
    const n = ids.length;
    for (const layer of out.attention) {
      for (let r = 0; r < layer.length / n; r++) {
        let sum = 0;
        for (let j = 0; j < n; j++) { assert.ok(Number.isFinite(layer[r * n + j])); sum += layer[r * n + j]; }
        assert.ok(Math.abs(sum - 1) < 1e-5, `row ${r} sums to ${sum}`);
      }
    }
    if (m.names.head === undefined) return;
    const guesses = topNext(out.logitsAt!(n - 1), 5, String);
    guesses.forEach((g, k) => assert.ok(g.p >= 0 && g.p <= 1 && (k === 0 || g.p <= guesses[k - 1].p)));
  }), { seed: 20261127, numRuns: 400 });
});
