// The float32 attention op (attend32.ts) against the core's float64 one (attend.ts) on the same
// numbers, every mask kind, softcap and grouped-query layout; and a computed suffix of queries gives
// the very bits of the whole run's rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attendEach, type KeyMask } from '../../../../src/core/attention/attend.js';
import { attendEach32 } from '../../../../src/core/attention/attend32.js';
import { between, seeded } from '../../../support/random.js';

const MASKS: KeyMask[] = ['causal', 'none', { window: 1 }, { window: 3 }, { window: 50 }];

function random(rand: () => number, count: number, scale: number): Float32Array {
  return Float32Array.from({ length: count }, () => (rand() - 0.5) * 2 * scale);
}

test('float32 attention agrees with the float64 op within float32 rounding, for every mask, softcap and head layout (seeded)', () => {
  const rand = seeded(77);
  for (let trial = 0; trial < 60; trial++) {
    const kvHeads = between(rand, 1, 3), heads = kvHeads * between(rand, 1, 3), headDim = between(rand, 1, 9);
    const n = between(rand, 1, 40), first = trial % 3 === 0 ? between(rand, 0, n - 1) : 0, rows = n - first;
    const mask = MASKS[trial % MASKS.length], softcap = trial % 4 === 1 ? 1 + rand() * 20 : undefined;
    const divisor = Math.sqrt(headDim), scale = 0.5 + rand() * 4;
    const q = random(rand, rows * heads * headDim, scale), k = random(rand, n * kvHeads * headDim, scale), v = random(rand, n * kvHeads * headDim, 1);
    const got: Float32Array[] = [], want: Float64Array[] = [];
    const out32 = attendEach32({ q, k, v, n, first, heads, kvHeads, headDim, divisor, mask, ...(softcap ? { softcap } : {}), onHead: (_, w) => got.push(w) });
    const out64 = attendEach({
      q: { rows, cols: heads * headDim, data: Float64Array.from(q) }, k: { rows: n, cols: kvHeads * headDim, data: Float64Array.from(k) },
      v: { rows: n, cols: kvHeads * headDim, data: Float64Array.from(v) }, heads, kvHeads, divisor, mask, first, ...(softcap ? { softcap } : {}),
      onHead: (_, h) => want.push(h.weights.data.slice()),
    });
    const what = `trial ${trial}: ${heads}/${kvHeads} heads of ${headDim}, n ${n} from ${first}, mask ${JSON.stringify(mask)}, softcap ${softcap}`;
    assert.equal(got.length, heads, what);
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < rows * n; i++) {
        assert.ok(Math.abs(got[h][i] - want[h][i]) <= 2e-6, `${what}: head ${h} cell ${i}: ${got[h][i]} vs ${want[h][i]}`);
        // Hidden keys are exact zeros in both.
        if (want[h][i] === 0) assert.equal(got[h][i], 0, `${what}: head ${h} cell ${i}`);
      }
    }
    for (let i = 0; i < out32.length; i++) assert.ok(Math.abs(out32[i] - out64.data[i]) <= 1e-5 * (1 + Math.abs(out64.data[i])), `${what}: output ${i}`);
  }
});

test('queries first…n − 1 computed alone give the bits of the same rows of the whole run (seeded)', () => {
  const rand = seeded(78);
  for (let trial = 0; trial < 30; trial++) {
    const kvHeads = between(rand, 1, 2), heads = kvHeads * between(rand, 1, 4), headDim = between(rand, 2, 16);
    const n = between(rand, 2, 300), first = between(rand, 1, n - 1), width = heads * headDim;
    const mask = MASKS[trial % MASKS.length];
    const q = random(rand, n * width, 2), k = random(rand, n * kvHeads * headDim, 2), v = random(rand, n * kvHeads * headDim, 1);
    const whole: Float32Array[] = [], part: Float32Array[] = [];
    const all = attendEach32({ q, k, v, n, first: 0, heads, kvHeads, headDim, divisor: 3, mask, onHead: (_, w) => whole.push(w) });
    const some = attendEach32({ q: q.slice(first * width), k, v, n, first, heads, kvHeads, headDim, divisor: 3, mask, onHead: (_, w) => part.push(w) });
    assert.deepEqual(some, all.slice(first * width), `trial ${trial} outputs`);
    for (let h = 0; h < heads; h++) assert.deepEqual(part[h], whole[h].slice(first * n), `trial ${trial} head ${h}`);
  }
});

test('a NaN or +∞ score makes its row NaN (for the forward pass to report), never a row of zeros', () => {
  for (const bad of [NaN, Infinity]) {
    const q = new Float32Array([1, bad, 1, 1]), k = new Float32Array([1, 1, 1, 1]), v = new Float32Array([1, 2, 3, 4]);
    const rows: Float32Array[] = [];
    attendEach32({ q, k, v, n: 2, first: 0, heads: 1, kvHeads: 1, headDim: 2, divisor: 1, mask: 'causal', onHead: (_, w) => rows.push(w) });
    assert.ok(Number.isNaN(rows[0][0]), `${bad}: ${rows[0]}`);
    assert.deepEqual([...rows[0].subarray(2)], [0.5, 0.5]);
  }
});

test('shapes that do not fit are refused with the sizes, not read past', () => {
  assert.throws(() => attendEach32({ q: new Float32Array(3), k: new Float32Array(4), v: new Float32Array(4), n: 2, first: 0, heads: 1, kvHeads: 1, headDim: 2, divisor: 1, mask: 'causal', onHead: () => {} }), /q, k and v hold 3, 4 and 4 numbers/);
  assert.throws(() => attendEach32({ q: new Float32Array(6), k: new Float32Array(4), v: new Float32Array(4), n: 2, first: 0, heads: 3, kvHeads: 2, headDim: 1, divisor: 1, mask: 'causal', onHead: () => {} }), /3 query heads cannot share 2/);
});
