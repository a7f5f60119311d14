// The reader's matrices (src/core/spec/read/values.ts): ragged rows are each named, against the width
// most rows have, in time linear in the rows however many are ragged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../../src/core/index.js';

/** A spec whose W_Q, W_K and W_V have `d` rows, every odd one a number short. */
function ragged(d: number): string {
  const w = Array.from({ length: d }, (_, i) => (i % 2 ? [0] : [0, 0]));
  return JSON.stringify({ embeddings: { x: new Array(d).fill(0) }, inputs: [{ name: 'i', tokens: ['x'] }], heads: [{ name: 'h', wq: w, wk: w, wv: w }] });
}

test('a ragged row is named with the width the others have', () => {
  const a = analyze(ragged(4));
  const first = a.problems.find((p) => p.path === 'heads[0].wq[1]');
  assert.equal(first?.message, 'row 1 has 1 number but the other 2 rows have 2: every row must be as long');
  const one = analyze(JSON.stringify({ embeddings: { x: [0, 0] }, inputs: [{ name: 'i', tokens: ['x'] }], heads: [{ name: 'h', wq: [[0, 0], [0]], wk: [[0], [0]], wv: [[0], [0]] }] }));
  assert.equal(one.problems.find((p) => p.path === 'heads[0].wq[1]')?.message, 'row 1 has 1 number but row 0 has 2: every row must be as long');
});

test('100,000 rows, half of them ragged, are read in linear time (counting the others per row took minutes)', () => {
  const text = ragged(100_000);
  const started = Date.now();
  const a = analyze(text);
  const took = Date.now() - started;
  assert.ok(a.problems.some((p) => /the other 50000 rows have 2/.test(p.message)));
  assert.ok(took < 15_000, `${took} ms`);
});
