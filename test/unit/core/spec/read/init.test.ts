// Generated weights in a spec ({ "init", "shape", "seed" }): the variances of the named rules,
// reproducible numbers, and every bad case refused at its exact place, before anything is allocated.
import { test } from 'node:test';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { readSpec } from '../../../../../src/core/spec/read.js';
import { analyze } from '../../../../../src/core/index.js';
import { createRandom } from '../../../../../src/core/linalg/random.js';
import { MAX_GENERATED_CELLS, initVariance } from '../../../../../src/core/spec/read/init.js';

const BASE = { features: ['a', 'b', 'c'], embeddings: { x: [1, 0, 2], y: [0, 1, -1] }, inputs: [{ name: 'in', tokens: ['x', 'y'] }] };
const spec = (heads: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ ...BASE, heads, ...extra }, null, 2);

function errorsOf(text: string) {
  return readSpec(text).problems.filter((p) => p.severity === 'error').map((p) => ({ path: p.path, message: p.message, at: text.slice(p.span.offset, p.span.offset + p.span.length) }));
}
function only(text: string) {
  const ps = errorsOf(text);
  assert.equal(ps.length, 1, JSON.stringify(ps));
  return ps[0];
}

test('lecun, xavier, kaiming and a number give 1/d_in, 2/(d_in + d_out), 2/d_in and the number, and the spec computes', () => {
  const text = spec([{ name: 'gen', wq: { init: 'xavier', shape: [3, 2], seed: 7 }, wk: { init: 'kaiming', shape: [3, 2], seed: 8 }, wv: { init: 'lecun', shape: [3, 4], seed: 9 } }],
    { wo: { init: { variance: 0.02 }, shape: [4, 3], seed: 10 } });
  const { spec: s, problems } = readSpec(text);
  assert.deepEqual(problems, []);
  const h = s!.heads[0];
  assert.deepEqual(h.wq.generated, { init: 'xavier', variance: 2 / 5, seed: 7 });
  assert.deepEqual(h.wk.generated, { init: 'kaiming', variance: 2 / 3, seed: 8 });
  assert.deepEqual(h.wv.generated, { init: 'lecun', variance: 1 / 3, seed: 9 });
  assert.deepEqual(s!.wo!.generated, { init: 'variance', variance: 0.02, seed: 10 });
  assert.deepEqual([h.wq.matrix.rows, h.wq.matrix.cols, h.wv.matrix.cols, s!.wo!.matrix.rows, s!.wo!.matrix.cols], [3, 2, 4, 4, 3]);
  for (const w of [h.wq, h.wk, h.wv, s!.wo!]) assert.equal(w.identity, false);
  // The span is the whole { ... } object, so hovers and problems point at it.
  assert.ok(text.slice(h.wq.span!.offset, h.wq.span!.offset + h.wq.span!.length).startsWith('{') && text.slice(h.wq.span!.offset).includes('"xavier"'));
  assert.equal(initVariance('xavier', 512, 64), 2 / 576);
  const a = analyze(text);
  assert.deepEqual(a.problems, []);
  assert.equal(a.result!.inputs[0].heads[0].q.cols, 2);
});

test('the numbers are the seed\'s normal stream, row by row, scaled by √variance', () => {
  const { spec: s } = readSpec(spec([{ wq: { init: { variance: 4 }, shape: [3, 2], seed: 7 }, wk: { init: 'lecun', shape: [3, 2], seed: 1 } }]));
  const r = createRandom(7);
  assert.deepEqual(Array.from(s!.heads[0].wq.matrix.data), Array.from({ length: 6 }, () => 2 * r.gaussian()));
});

test('the same seed gives the same matrix on every read; another seed another; no seed: different per place, same on every read', () => {
  const text = (seed: number) => spec([{ wq: { init: 'xavier', shape: [3, 2], seed }, wk: { init: 'xavier', shape: [3, 2] }, wv: { init: 'xavier', shape: [3, 2] } }]);
  const a = readSpec(text(7)).spec!.heads[0], b = readSpec(text(7)).spec!.heads[0], c = readSpec(text(8)).spec!.heads[0];
  assert.deepEqual(a.wq.matrix.data, b.wq.matrix.data);
  assert.notDeepEqual(a.wq.matrix.data, c.wq.matrix.data);
  assert.deepEqual(a.wk.matrix.data, c.wk.matrix.data, 'no seed: the same numbers on every read');
  assert.notDeepEqual(a.wk.matrix.data, a.wv.matrix.data, 'no seed: W_K and W_V of the same shape still differ');
  assert.equal(typeof a.wk.generated!.seed, 'number');
});

test('a 512 × 64 Xavier matrix has sample variance near 2/576 and mean near 0', () => {
  const d = 512;
  const text = JSON.stringify({ embeddings: { x: new Array(d).fill(0) }, inputs: [{ tokens: ['x'] }],
    heads: [{ wq: { init: 'xavier', shape: [d, 64], seed: 7 }, wk: { init: 'xavier', shape: [d, 64], seed: 8 }, wv: { init: 'xavier', shape: [d, 64], seed: 9 } }] });
  const { spec: s, problems } = readSpec(text);
  assert.deepEqual(problems, []);
  const x = s!.heads[0].wq.matrix.data;
  assert.equal(x.length, 32768);
  let mean = 0;
  for (const v of x) mean += v / x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  const variance = ss / (x.length - 1);
  // The sample variance's standard error is σ²·√(2/(n−1)), 0.8% here: allow 4%.
  assert.ok(Math.abs(variance / (2 / 576) - 1) < 0.04, `variance ${variance} vs ${2 / 576}`);
  assert.ok(Math.abs(mean) < 5 * Math.sqrt(2 / 576 / x.length), `mean ${mean}`);
});

test('a negative variance is refused on the number', () => {
  const p = only(spec([{ wq: { init: { variance: -0.5 }, shape: [3, 2] }, wk: { init: 'lecun', shape: [3, 2] } }]));
  assert.deepEqual(p, { path: 'heads[0].wq.init.variance', at: '-0.5', message: 'a variance cannot be negative, got -0.5 (it is the mean square of the numbers drawn)' });
});

test('a variance that overflows to Infinity is refused on the number', () => {
  const text = spec([{ wq: { init: { variance: 1 }, shape: [3, 2] }, wk: { init: 'lecun', shape: [3, 2] } }]).replace('"variance": 1', '"variance": 1e999');
  const p = only(text);
  assert.deepEqual(p, { path: 'heads[0].wq.init.variance', at: '1e999', message: '1e999 is too large: it overflows to Infinity' });
});

test('an unknown init name is refused on the name; a number or an object without "variance" too', () => {
  const p = only(spec([{ wq: { init: 'glorot', shape: [3, 3] } }]));
  assert.deepEqual(p, { path: 'heads[0].wq.init', at: '"glorot"', message: 'unknown init "glorot": expected "lecun", "xavier", "kaiming" or { "variance": a number ≥ 0 }' });
  const q = only(spec([{ wq: { init: 0.02, shape: [3, 3] } }]));
  assert.deepEqual(q, { path: 'heads[0].wq.init', at: '0.02', message: 'expected "lecun", "xavier", "kaiming" or { "variance": a number ≥ 0 }, got the number 0.02' });
  const r = only(spec([{ wq: { init: {}, shape: [3, 3] } }]));
  assert.deepEqual(r, { path: 'heads[0].wq.init', at: '{}', message: 'expected { "variance": a number ≥ 0 }, with no "variance" in it' });
});

test('a shape whose rows are not d_model is refused on the row count; W_O on its rows or its columns', () => {
  const p = only(spec([{ wq: { init: 'xavier', shape: [4, 2] }, wk: { init: 'xavier', shape: [3, 2] } }]));
  assert.deepEqual(p, { path: 'heads[0].wq.shape[0]', at: '4', message: '4 rows, expected 3 (d_model)' });
  const rows = only(spec([{ wv: { init: 'xavier', shape: [3, 2] } }], { wo: { init: 'xavier', shape: [3, 3] } }));
  assert.deepEqual(rows, { path: 'wo.shape[0]', at: '3', message: '3 rows, expected 2 (d_v of the one head)' });
  const cols = only(spec([{ wv: { init: 'xavier', shape: [3, 2] } }, { wv: { init: 'xavier', shape: [3, 1] } }], { wo: { init: 'kaiming', shape: [3, 5] } }));
  assert.deepEqual(cols, { path: 'wo.shape[1]', at: '5', message: '5 columns, expected 3 (d_model: W_O maps the heads\' outputs back to d_model)' });
});

test('a W_K generated narrower than W_Q is refused as for written matrices (scores are q · k)', () => {
  const p = only(spec([{ wq: { init: 'xavier', shape: [3, 2] }, wk: { init: 'xavier', shape: [3, 1] } }]));
  assert.equal(p.path, 'heads[0].wk');
  assert.match(p.message, /^1 column, expected 2 \(d_k/);
  assert.ok(p.at.startsWith('{'));
});

test('bad shapes: not two numbers, not whole, below 1; missing init or shape', () => {
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: [3] } }])), { path: 'heads[0].wq.shape', at: '[\n          3\n        ]', message: 'expected a shape [rows, columns], got a list of 1' });
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: [3, 2.5] } }])), { path: 'heads[0].wq.shape[1]', at: '2.5', message: 'a column count must be a whole number ≥ 1, got 2.5' });
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: [3, 0] } }])), { path: 'heads[0].wq.shape[1]', at: '0', message: 'a column count must be a whole number ≥ 1, got 0' });
  // 2^53 and beyond are whole: the message says they are too large, not that they are not whole.
  for (const big of [2 ** 53, 2 ** 60, 1e300]) {
    assert.match(only(spec([{ wq: { init: 'xavier', shape: [3, big] } }])).message, /^a column count of \S+ is too large to count exactly/, String(big));
  }
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: ['3', 2] } }])), { path: 'heads[0].wq.shape[0]', at: '"3"', message: 'expected a number, got a string "3"' });
  const noInit = only(spec([{ wq: { shape: [3, 3] } }]));
  assert.equal(noInit.path, 'heads[0].wq');
  assert.match(noInit.message, /^a generated weight needs "init"/);
  const noShape = only(spec([{ wq: { init: 'lecun' } }]));
  assert.equal(noShape.path, 'heads[0].wq');
  assert.equal(noShape.message, 'a generated weight needs "shape": [rows, columns], with 3 rows (d_model)');
});

test('a seed that is not a whole number is refused on the seed', () => {
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: [3, 3], seed: 1.5 } }])), { path: 'heads[0].wq.seed', at: '1.5', message: 'a seed must be a whole number (up to ±9,007,199,254,740,991), got 1.5' });
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: [3, 3], seed: 1e300 } }])), { path: 'heads[0].wq.seed', at: '1e+300', message: 'a seed must be a whole number (up to ±9,007,199,254,740,991), got 1e+300' });
  assert.deepEqual(only(spec([{ wq: { init: 'xavier', shape: [3, 3], seed: '7' } }])), { path: 'heads[0].wq.seed', at: '"7"', message: 'expected a number, got a string "7"' });
  const neg = readSpec(spec([{ wq: { init: 'xavier', shape: [3, 3], seed: -3 } }]));
  assert.deepEqual(neg.problems, []);
});

test('every problem of one generated weight is reported at once', () => {
  const ps = errorsOf(spec([{ wq: { init: 'glorot', shape: [4, 3], seed: 0.5 } }]));
  assert.deepEqual(ps.map((p) => p.path), ['heads[0].wq.init', 'heads[0].wq.shape[0]', 'heads[0].wq.seed']);
});

test('an unknown key is a warning on the key, and the weight is still generated', () => {
  const text = spec([{ wq: { init: 'lecun', shape: [3, 3], sede: 7 } }]);
  const { spec: s, problems } = readSpec(text);
  assert.ok(s);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].severity, 'warning');
  assert.equal(problems[0].path, 'heads[0].wq.sede');
  assert.equal(text.slice(problems[0].span.offset, problems[0].span.offset + problems[0].span.length), '"sede"');
});

test('a shape too big to generate is refused on the shape from its numbers alone (1e15 columns allocates nothing)', () => {
  const huge = only(spec([{ wq: { init: 'xavier', shape: [3, 1e15] } }]));
  assert.equal(huge.path, 'heads[0].wq.shape');
  assert.match(huge.message, new RegExp(`^3 × 1,000,000,000,000,000 = 3,000,000,000,000,000 numbers to generate, over the ${MAX_GENERATED_CELLS.toLocaleString('en-US')} limit`));
  assert.ok(huge.at.startsWith('['));
  // Two matrices under the cap each, over it together: the second is refused, naming the first's share.
  const cols = Math.floor(MAX_GENERATED_CELLS / 3 / 2) + 1;
  const p = only(spec([{ wq: { init: 'xavier', shape: [3, cols], seed: 1 }, wk: { init: 'xavier', shape: [3, cols], seed: 2 } }]));
  assert.equal(p.path, 'heads[0].wk.shape');
  assert.match(p.message, new RegExp(`\\(with the ${(3 * cols).toLocaleString('en-US')} generated before it\\), over the`));
});

test('any JSON in "init", "shape" and "seed" is read or refused, never thrown, with every range inside the text and no NaN in a matrix', () => {
  const value = fc.oneof(
    fc.constantFrom('lecun', 'xavier', 'kaiming', 'glorot', '', 'identity'),
    fc.double(), fc.integer(), fc.constantFrom(-0, 1e308, -1e-320, 2 ** 53, 2 ** 53 + 2),
    fc.constant(null), fc.boolean(),
    fc.record({ variance: fc.oneof(fc.double(), fc.string(), fc.constant(null)) }),
    fc.array(fc.oneof(fc.integer({ min: -3, max: 8 }), fc.double(), fc.string()), { maxLength: 3 }),
  );
  fc.assert(fc.property(value, value, value, fc.boolean(), (init, shape, seed, withSeed) => {
    const text = spec([{ wq: { init, shape, ...(withSeed ? { seed } : {}) }, wk: { init: 'lecun', shape: [3, 2] } }]);
    const { spec: s, problems } = readSpec(text);
    for (const p of problems) {
      assert.ok(p.span.offset >= 0 && p.span.offset + p.span.length <= text.length, JSON.stringify(p));
      assert.ok(p.message.length > 0 && !/undefined|NaN/.test(p.message), p.message);
    }
    if (s) for (const v of s.heads[0].wq.matrix.data) assert.ok(Number.isFinite(v));
  }), { numRuns: 300 });
});
