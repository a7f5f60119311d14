// Value-weighted attention of a spec's heads (src/core/attention/value-norms.ts, computed by
// attention.ts when the spec has W_O): ‖v_j W_O^h‖ from each head's own rows of W_O and the norms
// α_ij · ‖v_j W_O^h‖, against the plain long-hand reference, random specs, numpy, and the doubles' ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { headRowsOf, rowNorm, valueNorms, valueWeighted } from '../../../../src/core/attention/value-norms.js';
import { toRows, type Matrix } from '../../../../src/core/linalg/matrix.js';
import { analyzeOk } from '../../../support/specs.js';
import { referenceAttention, referenceValueNorms } from '../../../support/reference.js';
import { lcgMatrix } from '../../../support/random.js';

type M = number[][];

function close(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string, rel = 1e-12): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    assert.ok(Math.abs(actual[i] - expected[i]) <= rel * Math.max(1, Math.abs(expected[i])), `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

/** A spec of these embeddings and heads (W_Q, W_K, W_V each), with W_O when given. */
function specOf(x: M, heads: { wq: M; wk: M; wv: M }[], wo: M | undefined, causal: boolean) {
  return {
    embeddings: Object.fromEntries(x.map((r, i) => [`t${i}`, r])),
    inputs: [{ tokens: words(x.length) }],
    heads: heads.map((h, i) => ({ name: `h${i}`, ...h })),
    ...(wo ? { wo } : {}),
    scale: 'sqrt_dk', mask: causal ? 'causal' : 'none',
  };
}

const mat = (rows: number, cols: number, seed: number): M => toRows(lcgMatrix(rows, cols, seed));

test('two heads of d_v 2 and 3, causal: each head\'s ‖v_j W_O^h‖ and norms are the long-hand ones from its own rows of W_O', () => {
  const x = mat(5, 4, 1);
  const heads = [
    { wq: mat(4, 3, 2), wk: mat(4, 3, 3), wv: mat(4, 2, 4) },
    { wq: mat(4, 2, 5), wk: mat(4, 2, 6), wv: mat(4, 3, 7) },
  ];
  const wo = mat(5, 4, 8);
  const { result, json } = analyzeOk(specOf(x, heads, wo, true));
  let from = 0;
  heads.forEach((h, i) => {
    const ref = referenceAttention(x, h.wq, h.wk, h.wv, Math.sqrt(h.wq[0].length), true);
    const expected = referenceValueNorms(ref.v, wo, from, ref.weights);
    const head = result.inputs[0].heads[i];
    assert.equal(head.valueNorms!.rows, 5, 'one norm per key');
    assert.equal(head.valueNorms!.cols, 1);
    close(head.valueNorms!.data, expected.valueNorms, `head ${i} ‖v W_O‖`);
    close(head.norms!.data, expected.norms.flat(), `head ${i} norms`);
    // attn compute --json carries ‖v W_O‖ per key; the value-weighted n × n is its weights times them.
    close(json.inputs[0].heads[i].valueNorms!, expected.valueNorms, `head ${i} JSON valueNorms`);
    close(json.inputs[0].heads[i].weights.flatMap((row, q) => row.map((w, j) => w * json.inputs[0].heads[i].valueNorms![j] + 0 * q)), expected.norms.flat(), `head ${i} JSON weights × valueNorms`);
    // A masked key (causal: j > i) has weight 0, so its norm is 0.
    assert.equal(head.norms!.data[0 * 5 + 4], 0);
    from += h.wv[0].length;
  });
  // Head 2 read through head 1's rows of W_O would give other norms: the rows matter.
  const ref2 = referenceAttention(x, heads[1].wq, heads[1].wk, heads[1].wv, Math.SQRT2, true);
  const wrong = referenceValueNorms(ref2.v, wo, 1, ref2.weights).valueNorms;
  assert.ok(wrong.some((w, j) => Math.abs(w - result.inputs[0].heads[1].valueNorms!.data[j]) > 1e-6));
});

test('random specs (1–3 heads, any widths, causal or not): the norms match the long-hand reference', () => {
  const spec = fc.record({ n: fc.integer({ min: 1, max: 6 }), d: fc.integer({ min: 1, max: 5 }), dvs: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), seed: fc.integer({ min: 1, max: 1e6 }), causal: fc.boolean() });
  fc.assert(fc.property(spec, ({ n, d, dvs, seed, causal }) => {
    const x = mat(n, d, seed);
    const heads = dvs.map((dv, i) => ({ wq: mat(d, 2, seed + 10 * i + 1), wk: mat(d, 2, seed + 10 * i + 2), wv: mat(d, dv, seed + 10 * i + 3) }));
    const wo = mat(dvs.reduce((s, v) => s + v, 0), d, seed + 99);
    const { result } = analyzeOk(specOf(x, heads, wo, causal));
    let from = 0;
    heads.forEach((h, i) => {
      const ref = referenceAttention(x, h.wq, h.wk, h.wv, Math.SQRT2, causal);
      const expected = referenceValueNorms(ref.v, wo, from, ref.weights);
      close(result.inputs[0].heads[i].valueNorms!.data, expected.valueNorms, `head ${i} ‖v W_O‖`, 1e-10);
      close(result.inputs[0].heads[i].norms!.data, expected.norms.flat(), `head ${i} norms`, 1e-9);
      from += h.wv[0].length;
    });
  }), { numRuns: 60 });
});

test('a spec without W_O has no value norms: not in the result, not in attn compute --json', () => {
  const x = mat(3, 2, 11);
  const { result, json } = analyzeOk(specOf(x, [{ wq: mat(2, 2, 12), wk: mat(2, 2, 13), wv: mat(2, 2, 14) }], undefined, false));
  assert.equal(result.inputs[0].heads[0].valueNorms, undefined);
  assert.equal(result.inputs[0].heads[0].norms, undefined);
  assert.ok(!('valueNorms' in json.inputs[0].heads[0]) && !('norms' in json.inputs[0].heads[0]));
});

test('rowNorm stays finite and exact at the doubles\' ends: 1e200 and 1e-200 entries, zeros, and an infinite entry', () => {
  assert.equal(rowNorm(Float64Array.from([3, 4]), 0, 2), 5);
  close([rowNorm(Float64Array.from([3e200, 4e200]), 0, 2)], [5e200], 'squares past 1.8e308');
  close([rowNorm(Float64Array.from([3e-200, 4e-200]), 0, 2) / 1e-200], [5], 'squares below the smallest double');
  assert.equal(rowNorm(new Float64Array(4), 0, 4), 0);
  assert.equal(rowNorm(Float64Array.from([1, -Infinity]), 0, 2), Infinity);
  assert.equal(rowNorm(Float64Array.from([1.5e308, 1.5e308]), 0, 2), Infinity, 'a norm past the largest double is infinite (the overflow check names it)');
  // At an offset: only that row.
  assert.equal(rowNorm(Float64Array.from([100, 6, 8, 100]), 1, 2), 10);
});

test('a product wider than one slice (600 keys × 500 columns) gives each key its own norm, as one product would', () => {
  const v = lcgMatrix(600, 3, 21), woRows = lcgMatrix(3, 500, 22);
  const got = valueNorms(v, woRows);
  const expected = referenceValueNorms(toRows(v), toRows(woRows), 0, [[0]]).valueNorms;
  close(got.data, expected, '‖v W_O‖', 1e-12);
});

test('headRowsOf shares W_O\'s numbers and refuses rows past its end; valueWeighted scales each column by its key\'s norm', () => {
  const wo: Matrix = { rows: 3, cols: 2, data: Float64Array.from([1, 2, 3, 4, 5, 6]) };
  const rows = headRowsOf(wo, 1, 2);
  assert.deepEqual(toRows(rows), [[3, 4], [5, 6]]);
  assert.equal(rows.data.buffer, wo.data.buffer, 'a view, not a copy');
  assert.throws(() => headRowsOf(wo, 2, 2), /rows 2…3 of a W_O with 3 rows/);
  assert.throws(() => valueNorms(lcgMatrix(2, 2, 1), wo), /values of 2 columns for 3 rows of W_O/);
  const weights: Matrix = { rows: 2, cols: 2, data: Float64Array.from([1, 0, 0.25, 0.75]) };
  assert.deepEqual(Array.from(valueWeighted(weights, { rows: 2, cols: 1, data: Float64Array.from([2, 4]) }).data), [2, 0, 0.5, 3]);
  assert.throws(() => valueWeighted(weights, { rows: 3, cols: 1, data: new Float64Array(3) }), /3 value norms for 2 keys/);
});

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);

test('three heads (d_v 2, 3, 4), causal, 7 tokens: ‖v_j W_O^h‖ and the norms agree with numpy', () => {
  assert.ok(python, 'this test needs numpy (npm test\'s setup installs python3-numpy)');
  const x = mat(7, 5, 31);
  const heads = [2, 3, 4].map((dv, i) => ({ wq: mat(5, 3, 40 + i), wk: mat(5, 3, 50 + i), wv: mat(5, dv, 60 + i) }));
  const wo = mat(9, 5, 70);
  const { result } = analyzeOk(specOf(x, heads, wo, true));
  const script = `
import json, sys, numpy as np
s = json.load(sys.stdin)
x, wo = np.array(s['x']), np.array(s['wo'])
out, at = [], 0
for h in s['heads']:
    q, k, v = x @ np.array(h['wq']), x @ np.array(h['wk']), x @ np.array(h['wv'])
    a = q @ k.T / np.sqrt(q.shape[1])
    a[np.triu_indices(len(x), 1)] = -np.inf
    a = np.exp(a - a.max(axis=1, keepdims=True)); a /= a.sum(axis=1, keepdims=True)
    vn = np.linalg.norm(v @ wo[at:at + v.shape[1]], axis=1)
    out.append({'valueNorms': vn.tolist(), 'norms': (a * vn[None, :]).tolist()})
    at += v.shape[1]
print(json.dumps(out))`;
  const r = spawnSync(python!, ['-c', script], { input: JSON.stringify({ x, wo, heads }), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const ref = JSON.parse(r.stdout) as { valueNorms: number[]; norms: M }[];
  ref.forEach((h, i) => {
    close(result.inputs[0].heads[i].valueNorms!.data, h.valueNorms, `head ${i} ‖v W_O‖ vs numpy`);
    close(result.inputs[0].heads[i].norms!.data, h.norms.flat(), `head ${i} norms vs numpy`);
  });
});
