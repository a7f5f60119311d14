// A kept model whose precision changes (the editor's model.precision setting, model.ts's runText): the
// last run's keys and values, of the other width, cannot be reused, and are let go before the new run
// rather than held through it (the memory estimate counts the kept run in the new run's precision: a
// float64 run kept under a float32 one is twice that). The new run is the fresh run's, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModel, runText } from '../../../../src/core/checkpoint/model.js';
import type { Tokenizer } from '../../../../src/core/tokenizer/tokenizer.js';
import { GPT2_CONFIG, tinyCheckpoint } from '../../../support/tiny-checkpoint.js';
import { seeded } from '../../../support/random.js';

const ids = (list: number[]): Tokenizer => ({
  vocabSize: 40,
  encode: (_text, limit) => ({ ids: list.slice(0, limit), pieces: list.slice(0, limit).map((id) => `p${id}`) }),
  decodeOne: (id) => `t${id}`,
});

test('switching precision between runs: the kept run of the other precision is gone before the forward pass (seeded texts)', () => {
  const r = seeded(3);
  const { configText, tensors } = tinyCheckpoint(GPT2_CONFIG, 5);
  for (let i = 0; i < 8; i++) {
    const first = Array.from({ length: 2 + Math.floor(r() * 10) }, () => Math.floor(r() * 40));
    const second = [...first, ...Array.from({ length: 1 + Math.floor(r() * 6) }, () => Math.floor(r() * 40))];
    const [from, to] = i % 2 === 0 ? (['f64', 'f32'] as const) : (['f32', 'f64'] as const);
    const m = loadModel(configText, tensors, { keep: true, precision: from });
    runText(m, ids(first), 'x');
    assert.equal(m.kept?.precision, from);
    m.precision = to;
    const keptDuring: unknown[] = [];
    const run = runText(m, ids(second), 'x', { onLayer: () => keptDuring.push(m.kept) });
    assert.deepEqual(keptDuring, Array(keptDuring.length).fill(undefined), `case ${i}: nothing of the ${from} run held during the ${to} one`);
    assert.equal(run.reused, 0);
    assert.equal(m.kept?.precision, to);
    const fresh = runText(loadModel(configText, tensors, { precision: to }), ids(second), 'x');
    assert.deepEqual(run.attention, fresh.attention, `case ${i}`);
    assert.deepEqual(run.next, fresh.next, `case ${i}`);
  }
});
