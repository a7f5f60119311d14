// The attention core at sizes that cross every tile and block of the matrix kernel (70 tokens: past
// the 64-row block and not a multiple of 4; d_model 300: past the 256-step block), several heads with
// different d_k and d_v, an identity head, a causal mask, W_O: against the plain reference to 1e-9, and
// the WebAssembly kernel against the plain JavaScript loops to the bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { computeAttention, computeHeads, type AttentionResult } from '../../../../src/core/attention/attention.js';
import { softmaxRow } from '../../../../src/core/attention/softmax.js';
import { weightsFromScores } from '../../../../src/core/result/derived.js';
import { weightsRowOf } from '../../../../src/core/result/attention-data.js';
import { toRows, zeros, type Matrix } from '../../../../src/core/linalg/matrix.js';
import { useWasmKernel } from '../../../../src/core/kernels/gemm.js';
import type { HeadSpec, Spec } from '../../../../src/core/spec/spec.js';
import { lcgMatrix } from '../../../support/random.js';
import { referenceAttention } from '../../../support/reference.js';

const random = lcgMatrix;

const n = 70, dModel = 300;
const x = random(n, dModel, 1);
const identity = (size: number) => {
  const m = zeros(size, size);
  for (let i = 0; i < size; i++) m.data[i * size + i] = 1;
  return { matrix: m, identity: true };
};
const heads: HeadSpec[] = [
  { name: 'wide', wq: { matrix: random(dModel, 9, 2), identity: false }, wk: { matrix: random(dModel, 9, 3), identity: false }, wv: { matrix: random(dModel, 7, 4), identity: false } },
  { name: 'narrow', wq: { matrix: random(dModel, 1, 5), identity: false }, wk: { matrix: random(dModel, 1, 6), identity: false }, wv: { matrix: random(dModel, 5, 7), identity: false } },
  { name: 'raw', wq: identity(dModel), wk: identity(dModel), wv: identity(dModel) },
];
const concatWidth = 7 + 5 + dModel;
const wo = random(concatWidth, 6, 8);

function spec(mask: 'causal' | 'none'): Spec {
  return {
    dModel, features: Array.from({ length: dModel }, (_, i) => `d${i}`), featuresGiven: false, embeddings: new Map(),
    inputs: [{ name: 'long', tokens: Array.from({ length: n }, (_, i) => ({ text: `t${i}`, embedding: x.data.slice(i * dModel, (i + 1) * dModel), inline: true })) }],
    heads, headsGiven: true, wo: { matrix: wo, identity: false }, scale: { kind: 'sqrt_dk' }, mask, views: {},
  };
}

const close = (actual: number[][], expected: number[][], what: string) => {
  assert.equal(actual.length, expected.length, what);
  actual.forEach((r, i) => r.forEach((v, j) => {
    const e = expected[i][j];
    assert.ok(Math.abs(v - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${what}[${i}][${j}] is ${v}, the reference gives ${e}`);
  }));
};

for (const mask of ['causal', 'none'] as const) {
  test(`${n} tokens, d_model ${dModel}, three heads, ${mask} mask, W_O: every intermediate matches the plain reference`, () => {
    const result = computeAttention(spec(mask)).inputs[0];
    const outputs: number[][][] = [];
    result.heads.forEach((h, index) => {
      const head = heads[index];
      const ref = referenceAttention(toRows(x), toRows(head.wq.matrix), toRows(head.wk.matrix), toRows(head.wv.matrix), Math.sqrt(h.dk), mask === 'causal');
      close(toRows(h.q), ref.q, `${h.name} q`); close(toRows(h.k), ref.k, `${h.name} k`); close(toRows(h.v), ref.v, `${h.name} v`);
      close(toRows(h.scores), ref.scores, `${h.name} scores`);
      close(toRows(h.weights), ref.weights, `${h.name} weights`);
      close(toRows(h.output), ref.output, `${h.name} output`);
      outputs.push(ref.output);
    });
    // Masked scores are still the raw dot products (the views show them); only their weights are 0.
    if (mask === 'causal') assert.notEqual(result.heads[0].scores.data[1], 0);
    const concat = outputs[0].map((_, i) => outputs.flatMap((o) => o[i]));
    const expected = concat.map((r) => Array.from({ length: wo.cols }, (_, j) => r.reduce((s, v, t) => s + v * wo.data[t * wo.cols + j], 0)));
    close(toRows(result.output), expected, 'concat · W_O');
  });
}

test('the WebAssembly kernel and the plain JavaScript loops give the same bits for the whole layer', () => {
  const withKernel = computeAttention(spec('causal'));
  let plain: AttentionResult;
  useWasmKernel(false);
  try {
    plain = computeAttention(spec('causal'));
  } finally {
    useWasmKernel(true);
  }
  const a = withKernel.inputs[0], b = plain.inputs[0];
  a.heads.forEach((h, i) => {
    for (const part of ['q', 'k', 'v', 'scores', 'scaled', 'weights', 'output'] as const) {
      assert.deepEqual(h[part].data, b.heads[i][part].data, `${h.name} ${part}`);
    }
  });
  assert.deepEqual(a.output.data, b.output.data);
});

test('weights are softmaxRow of the scaled scores to the bit, and what the webview derives from the scores, masks and overflow included', () => {
  const size = 23;
  const masked = new Uint8Array(size * size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) if (j > i || (i * 7 + j) % 5 === 0) masked[i * size + j] = 1;
  for (let j = 0; j < size; j++) masked[4 * size + j] = 1; // a row with every key masked
  const xs = random(size, 6, 11);
  xs.data[9 * 6] = 1e200; // scores past a double in row 9: NaN and ±Infinity reach the softmax
  const head: HeadSpec = { name: 'h', wq: { matrix: random(6, 3, 12), identity: false }, wk: { matrix: random(6, 3, 13), identity: false }, wv: { matrix: random(6, 2, 14), identity: false } };
  const [{ result: h, emptyRows: empty }] = computeHeads(xs, [head], { kind: 'sqrt_dk' }, masked);
  for (let i = 0; i < size; i++) {
    const expected = new Float64Array(size);
    const ok = softmaxRow(h.scaled.data.subarray(i * size, (i + 1) * size), expected, (j) => masked[i * size + j] === 1);
    assert.deepEqual(h.weights.data.subarray(i * size, (i + 1) * size), expected, `row ${i}`);
    assert.equal(empty.includes(i), !ok, `row ${i} reported as empty`);
  }
  assert.ok(empty.includes(4));
  assert.ok(Array.from(h.weights.data).some(Number.isNaN), 'the overflow case (a NaN sum) is exercised');
  // The webview's decode (weightsFromScores) derives the same bits from the scores alone.
  assert.deepEqual(weightsFromScores(h.scores, h.divisor, h.masked).data, h.weights.data);
});

test('the core\'s weights, the webview\'s decode and a hover\'s row are one kernel\'s bytes, for heads that overflow (NaN, ±Infinity) and masks of every kind', () => {
  // Byte for byte: a NaN's sign bit too, which three loops written apart did not always agree on.
  const entry = fc.oneof({ weight: 8, arbitrary: fc.double({ min: -10, max: 10, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(1e200, -1e200, Infinity, NaN) });
  fc.assert(fc.property(
    fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }),
    fc.array(entry, { minLength: 60, maxLength: 60 }), fc.array(fc.boolean(), { minLength: 81, maxLength: 81 }),
    (size, d, dk, values, maskBits) => {
      let k = 0;
      const matrix = (rows: number, cols: number): Matrix => ({ rows, cols, data: Float64Array.from({ length: rows * cols }, () => values[k++ % values.length]) });
      const masked = Uint8Array.from({ length: size * size }, (_, c) => (maskBits[c] ? 1 : 0));
      const head: HeadSpec = { name: 'h', wq: { matrix: matrix(d, dk), identity: false }, wk: { matrix: matrix(d, dk), identity: false }, wv: { matrix: matrix(d, 1), identity: false } };
      const [{ result: h }] = computeHeads(matrix(size, d), [head], { kind: 'sqrt_dk' }, masked);
      assert.deepEqual(weightsFromScores(h.scores, h.divisor, h.masked).data, h.weights.data, 'the decode');
      for (let i = 0; i < size; i++) assert.deepEqual(weightsRowOf(h, i), h.weights.data.slice(i * size, (i + 1) * size), `the hover's row ${i}`);
    }), { numRuns: 500 });
});
