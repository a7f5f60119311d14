// The one attention op (src/core/attention/attend.ts): against a plain float64 reference written
// here with loops (every mask kind, an explicit mask on top, grouped-query heads, a first query
// past 0); attendEach, the path a checkpoint's forward pass takes (flat q/k/v, one head handed over
// at a time), against a reference written out here (a causal or windowed softmax, max, exp summed
// left to right, divided by the sum, with the kernel's or plain products) to the bit, on the
// WebAssembly kernel and in plain JavaScript; what it records when asked and keeps when not; and a
// query that sees no key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attend, attendEach, maskBytes, type AttendInput, type KeyMask } from '../../../../src/core/attention/attend.js';
import { matmulTransposed, type Matrix } from '../../../../src/core/linalg/matrix.js';
import { gemm, useWasmKernel } from '../../../../src/core/kernels/gemm.js';
import { seeded } from '../../../support/random.js';

function randomMatrix(rows: number, cols: number, seed: number, spread = 1): Matrix {
  const rand = seeded(seed);
  return { rows, cols, data: Float64Array.from({ length: rows * cols }, () => (rand() - 0.5) * 2 * spread) };
}

interface Case {
  readonly n: number;
  readonly first: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly dk: number;
  readonly dv: number;
  readonly mask: KeyMask;
  readonly hidden?: Uint8Array;
  readonly divisor: number;
}

/** Plain loops in float64: weights[h][r][j] and outputs[h][r][t] for queries first + r. */
function reference(c: Case, q: Matrix, k: Matrix, v: Matrix) {
  const rows = c.n - c.first, group = c.heads / c.kvHeads;
  const sees = (i: number, j: number) => {
    const byKind = c.mask === 'none' ? true : c.mask === 'causal' ? j <= i : j <= i && j > i - c.mask.window;
    return byKind && !(c.hidden && c.hidden[i * c.n + j] === 1);
  };
  const weights: number[][][] = [], outputs: number[][][] = [], empty: number[][] = [];
  for (let h = 0; h < c.heads; h++) {
    const g = Math.floor(h / group);
    const hw: number[][] = [], ho: number[][] = [], he: number[] = [];
    for (let r = 0; r < rows; r++) {
      const i = c.first + r;
      const s: number[] = [];
      for (let j = 0; j < c.n; j++) {
        let dot = 0;
        for (let t = 0; t < c.dk; t++) dot += q.data[r * q.cols + h * c.dk + t] * k.data[j * k.cols + g * c.dk + t];
        s.push(dot / c.divisor);
      }
      let max = -Infinity;
      for (let j = 0; j < c.n; j++) if (sees(i, j)) max = Math.max(max, s[j]);
      const w = new Array<number>(c.n).fill(0);
      if (max === -Infinity) he.push(i);
      else {
        let sum = 0;
        for (let j = 0; j < c.n; j++) if (sees(i, j)) sum += Math.exp(s[j] - max);
        for (let j = 0; j < c.n; j++) if (sees(i, j)) w[j] = Math.exp(s[j] - max) / sum;
      }
      hw.push(w);
      const o: number[] = [];
      for (let t = 0; t < c.dv; t++) {
        let sum = 0;
        for (let j = 0; j < c.n; j++) sum += w[j] * v.data[j * v.cols + g * c.dv + t];
        o.push(sum);
      }
      ho.push(o);
    }
    weights.push(hw); outputs.push(ho); empty.push(he);
  }
  return { weights, outputs, empty };
}

function closeTo(actual: Float64Array, expected: number[][], what: string): void {
  const flat = expected.flat();
  assert.equal(actual.length, flat.length, what);
  for (let c = 0; c < flat.length; c++) {
    assert.ok(Math.abs(actual[c] - flat[c]) <= 1e-12 * Math.max(1, Math.abs(flat[c])), `${what}[${c}] is ${actual[c]}, the reference gives ${flat[c]}`);
  }
}

function inputsOf(c: Case, seed: number) {
  const rows = c.n - c.first;
  return {
    q: randomMatrix(rows, c.heads * c.dk, seed),
    k: randomMatrix(c.n, c.kvHeads * c.dk, seed + 1),
    v: randomMatrix(c.n, c.kvHeads * c.dv, seed + 2),
  };
}

function run(c: Case, q: Matrix, k: Matrix, v: Matrix, extra: Partial<AttendInput> = {}) {
  return attend({ q, k, v, heads: c.heads, kvHeads: c.kvHeads, divisor: c.divisor, mask: c.mask, first: c.first, ...(c.hidden ? { hidden: c.hidden } : {}), ...extra });
}

/** An n × n mask hiding about a fifth of the cells, never every key of a query. */
function someHidden(n: number, seed: number): Uint8Array {
  const rand = seeded(seed);
  const hidden = Uint8Array.from({ length: n * n }, () => (rand() < 0.2 ? 1 : 0));
  for (let i = 0; i < n; i++) hidden[i * n] = 0;
  return hidden;
}

const cases: [string, Case][] = [
  ['no mask', { n: 9, first: 0, heads: 2, kvHeads: 2, dk: 3, dv: 2, mask: 'none', divisor: Math.sqrt(3) }],
  ['causal', { n: 11, first: 0, heads: 3, kvHeads: 3, dk: 4, dv: 5, mask: 'causal', divisor: 2 }],
  ['a window of 3', { n: 12, first: 0, heads: 2, kvHeads: 1, dk: 4, dv: 3, mask: { window: 3 }, divisor: 2 }],
  ['a window wider than the text', { n: 5, first: 0, heads: 1, kvHeads: 1, dk: 2, dv: 2, mask: { window: 50 }, divisor: 1 }],
  ['an explicit mask alone', { n: 10, first: 0, heads: 2, kvHeads: 2, dk: 3, dv: 3, mask: 'none', hidden: someHidden(10, 7), divisor: 1.5 }],
  ['an explicit mask on causal', { n: 10, first: 0, heads: 2, kvHeads: 2, dk: 3, dv: 3, mask: 'causal', hidden: someHidden(10, 8), divisor: 1.5 }],
  ['an explicit mask on a window', { n: 13, first: 0, heads: 4, kvHeads: 2, dk: 2, dv: 2, mask: { window: 4 }, hidden: someHidden(13, 9), divisor: 1 }],
  ['grouped-query: 6 query heads on 2 key/value heads', { n: 14, first: 0, heads: 6, kvHeads: 2, dk: 4, dv: 4, mask: 'causal', divisor: 2 }],
  ['first query 5 of 12, grouped-query, causal', { n: 12, first: 5, heads: 4, kvHeads: 2, dk: 3, dv: 2, mask: 'causal', divisor: Math.sqrt(3) }],
  ['first query 7 of 10, a window and an explicit mask', { n: 10, first: 7, heads: 2, kvHeads: 1, dk: 3, dv: 2, mask: { window: 2 }, hidden: someHidden(10, 10), divisor: 1 }],
  ['the last query alone', { n: 8, first: 7, heads: 2, kvHeads: 2, dk: 3, dv: 2, mask: 'none', divisor: 1 }],
];

for (const [name, c] of cases) {
  test(`${name}: each head's weights and output are the plain reference's, the heads side by side`, () => {
    const { q, k, v } = inputsOf(c, 100);
    const ref = reference(c, q, k, v);
    const got = run(c, q, k, v);
    assert.equal(got.heads.length, c.heads);
    got.heads.forEach((h, i) => {
      assert.equal(h.weights.rows, c.n - c.first);
      assert.equal(h.weights.cols, c.n);
      closeTo(h.weights.data, ref.weights[i], `head ${i} weights`);
      closeTo(h.output.data, ref.outputs[i], `head ${i} output`);
      assert.deepEqual(h.emptyRows, ref.empty[i]);
      // Hidden keys weigh exactly 0, not a tiny number.
      ref.weights[i].flat().forEach((w, cell) => { if (w === 0) assert.equal(h.weights.data[cell], 0); });
    });
    const concat = ref.outputs[0].map((_, r) => ref.outputs.flatMap((o) => o[r]));
    closeTo(got.concat.data, concat, 'concat');
    assert.equal(got.concat.cols, c.heads * c.dv);
    // One head at a time (attendEach): the same bits, handed over in order, the outputs side by side.
    const each: number[] = [];
    const joined = attendEach({ q, k, v, heads: c.heads, kvHeads: c.kvHeads, divisor: c.divisor, mask: c.mask, first: c.first, ...(c.hidden ? { hidden: c.hidden } : {}),
      onHead: (h, head) => { each.push(h); assert.deepEqual(head.weights.data, got.heads[h].weights.data); assert.deepEqual(head.output.data, got.heads[h].output.data); } });
    assert.deepEqual(each, Array.from({ length: c.heads }, (_, h) => h));
    assert.deepEqual(joined.data, got.concat.data);
  });
}

test('per-head matrices give the flat layout\'s very bits, and a grouped head reads its key/value head', () => {
  const c: Case = { n: 10, first: 2, heads: 4, kvHeads: 2, dk: 3, dv: 2, mask: 'causal', divisor: 1.7 };
  const { q, k, v } = inputsOf(c, 300);
  const flat = run(c, q, k, v, { record: { q: true, k: true, v: true } });
  const cols = (m: Matrix, from: number, width: number): Matrix => ({ rows: m.rows, cols: width, data: Float64Array.from({ length: m.rows * width }, (_, x) => m.data[Math.floor(x / width) * m.cols + from + (x % width)]) });
  const split = attend({
    q: [0, 1, 2, 3].map((h) => cols(q, h * 3, 3)), k: [0, 1].map((g) => cols(k, g * 3, 3)), v: [0, 1].map((g) => cols(v, g * 2, 2)),
    divisor: [1.7, 1.7, 1.7, 1.7], mask: 'causal', first: 2,
  });
  flat.heads.forEach((h, i) => {
    assert.deepEqual(h.weights.data, split.heads[i].weights.data);
    assert.deepEqual(h.output.data, split.heads[i].output.data);
  });
  assert.deepEqual(flat.concat.data, split.concat.data);
  // Heads 0 and 1 share key/value head 0 (one object), 2 and 3 share head 1.
  assert.equal(flat.heads[0].k, flat.heads[1].k);
  assert.equal(flat.heads[2].v, flat.heads[3].v);
  assert.notEqual(flat.heads[1].k, flat.heads[2].k);
  assert.deepEqual(flat.heads[3].k!.data, cols(k, 3, 3).data);
});

// A reference for causal and windowed attention, written out plainly: each row divided by the
// scale, its max, exp summed left to right, divided by the sum, exact zeros elsewhere, with products
// by the kernel or plain loops. attendEach, as a checkpoint's forward pass calls it, must give these
// bits exactly.
function referenceMatmul(a: Float64Array, n: number, k: number, b: Float64Array, m: number, transposed: boolean): Float64Array {
  const fast = gemm({ rows: n, cols: k, data: a }, transposed ? { rows: m, cols: k, data: b } : { rows: k, cols: m, data: b }, transposed);
  if (fast) return fast;
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = 0;
      if (transposed) for (let t = 0; t < k; t++) s += a[i * k + t] * b[j * k + t];
      else for (let t = 0; t < k; t++) s += a[i * k + t] * b[t * m + j];
      out[i * m + j] = s;
    }
  }
  return out;
}

function referenceColumns(x: Float64Array, n: number, stride: number, from: number, width: number): Float64Array {
  const out = new Float64Array(n * width);
  for (let i = 0; i < n; i++) out.set(x.subarray(i * stride + from, i * stride + from + width), i * width);
  return out;
}

function referenceSoftmax(scores: Float64Array, n: number, scale: number, first: number, window: number): void {
  for (let i = first; i < n; i++) {
    const row = (i - first) * n;
    const from = Math.max(0, i - window + 1);
    let top = -Infinity;
    for (let j = from; j <= i; j++) {
      scores[row + j] /= scale;
      if (scores[row + j] > top) top = scores[row + j];
    }
    let sum = 0;
    for (let j = from; j <= i; j++) {
      const e = Math.exp(scores[row + j] - top);
      scores[row + j] = e;
      sum += e;
    }
    for (let j = from; j <= i; j++) scores[row + j] /= sum;
    for (let j = 0; j < from; j++) scores[row + j] = 0;
    for (let j = i + 1; j < n; j++) scores[row + j] = 0;
  }
}

function referenceAttend(H: number, KVH: number, D: number, q: Float64Array, k: Float64Array, v: Float64Array, n: number, first: number, window: number) {
  const group = H / KVH, rows = n - first;
  const weights = new Float64Array(H * rows * n), mixed = new Float64Array(rows * H * D);
  const scale = Math.sqrt(D);
  for (let head = 0; head < H; head++) {
    const kvHead = Math.floor(head / group);
    const keys = referenceColumns(k, n, KVH * D, kvHead * D, D);
    const values = referenceColumns(v, n, KVH * D, kvHead * D, D);
    const scores = referenceMatmul(referenceColumns(q, rows, H * D, head * D, D), rows, D, keys, n, true);
    referenceSoftmax(scores, n, scale, first, window);
    weights.set(scores, head * rows * n);
    const out = referenceMatmul(scores, rows, n, values, D, false);
    for (let i = 0; i < rows; i++) mixed.set(out.subarray(i * D, (i + 1) * D), i * H * D + head * D);
  }
  return { weights, mixed };
}

for (const kernel of [true, false]) {
  test(`a checkpoint's causal and sliding-window attention to the bit (${kernel ? 'WebAssembly kernel' : 'plain JavaScript'}): grouped-query heads, first 0 and first > 0`, () => {
    useWasmKernel(kernel);
    try {
      // 70 positions cross the kernel's 4-row panels and 64-row blocks; 5 stays under its size threshold.
      const cases: [number, number, number, number, number, number][] = [
        [70, 0, 6, 2, 16, Infinity], [70, 33, 6, 2, 16, Infinity], [70, 69, 4, 4, 8, Infinity], [5, 0, 2, 1, 4, Infinity], [5, 3, 2, 2, 4, Infinity], [130, 0, 2, 1, 64, Infinity],
        [70, 0, 6, 2, 16, 9], [70, 33, 4, 1, 16, 20], [70, 0, 2, 2, 8, 1], [5, 2, 2, 1, 4, 3], [40, 0, 2, 2, 8, 40],
      ];
      for (const [n, first, H, KVH, D, window] of cases) {
        const rows = n - first;
        const q = randomMatrix(rows, H * D, n + first, 2), k = randomMatrix(n, KVH * D, n + first + 1, 2), v = randomMatrix(n, KVH * D, n + first + 2, 2);
        const expected = referenceAttend(H, KVH, D, q.data, k.data, v.data, n, first, window);
        const mask: KeyMask = window === Infinity ? 'causal' : { window };
        // Into one [heads, rows, n] array as forward keeps a layer's attention (not zeroed first: every cell is written).
        const into = new Float64Array(H * rows * n).fill(7);
        const mixed = attendEach({ q, k, v, heads: H, kvHeads: KVH, divisor: Math.sqrt(D), mask, first, onHead: (h, head) => into.set(head.weights.data, h * rows * n) });
        assert.deepEqual(into, expected.weights, `n ${n} first ${first} weights`);
        assert.deepEqual(mixed.data, expected.mixed, `n ${n} first ${first} outputs`);
        assert.deepEqual(attend({ q, k, v, heads: H, kvHeads: KVH, divisor: Math.sqrt(D), mask, first }).concat.data, expected.mixed, `n ${n} first ${first} attend`);
      }
    } finally {
      useWasmKernel(true);
    }
  });
}

test('recording: nothing but the weights and outputs when not asked, the weights made in the scores\' buffer', () => {
  const c: Case = { n: 16, first: 4, heads: 2, kvHeads: 1, dk: 4, dv: 3, mask: 'causal', divisor: 2 };
  const { q, k, v } = inputsOf(c, 500);
  const bare = run(c, q, k, v);
  for (const h of bare.heads) {
    assert.deepEqual(Object.keys(h).sort(), ['divisor', 'emptyRows', 'output', 'weights']);
    // One rows × n array per head: the weights own their buffer, nothing n × n beside them.
    assert.equal(h.weights.data.buffer.byteLength, 12 * 16 * 8);
  }
  assert.equal('mask' in bare, false);
});

test('recording: q, k, v, the raw and scaled scores and the mask, when asked', () => {
  const c: Case = { n: 12, first: 3, heads: 4, kvHeads: 2, dk: 3, dv: 2, mask: { window: 4 }, hidden: someHidden(12, 12), divisor: 0.8 };
  const { q, k, v } = inputsOf(c, 600);
  const bare = run(c, q, k, v);
  const all = run(c, q, k, v, { record: { q: true, k: true, v: true, scores: true, scaled: true, mask: true } });
  const rows = c.n - c.first;
  const mask = all.mask!;
  assert.deepEqual(mask, maskBytes(c.n, c.mask, c.hidden, c.first));
  assert.equal(mask.length, rows * c.n);
  all.heads.forEach((h, i) => {
    // The same weights and outputs whether or not anything is recorded.
    assert.deepEqual(h.weights.data, bare.heads[i].weights.data);
    assert.deepEqual(h.output.data, bare.heads[i].output.data);
    assert.deepEqual(h.scores!.data, matmulTransposed(h.q!, h.k!).data);
    assert.notEqual(h.scores!.data.buffer, h.weights.data.buffer);
    for (let r = 0; r < rows; r++) {
      const i0 = c.first + r;
      for (let j = 0; j < c.n; j++) {
        const cell = r * c.n + j;
        const inWindow = j <= i0 && j > i0 - 4;
        assert.equal(mask[cell], inWindow && c.hidden![i0 * c.n + j] === 0 ? 0 : 1, `mask ${r} ${j}`);
        assert.equal(h.scaled!.data[cell], mask[cell] ? -Infinity : h.scores!.data[cell] / c.divisor, `scaled ${r} ${j}`);
      }
    }
  });
});

test('a query that sees no key gets zero weights and a zero output, and is reported in every head', () => {
  const n = 6;
  const hidden = new Uint8Array(n * n);
  hidden.fill(1, 2 * n, 3 * n); // query 2 sees nothing
  hidden[4 * n + 4] = 1; // query 4 of a window of 1 sees only key 4: hidden too
  const c: Case = { n, first: 0, heads: 2, kvHeads: 1, dk: 2, dv: 2, mask: { window: 1 }, hidden, divisor: 1 };
  const { q, k, v } = inputsOf(c, 700);
  const got = run(c, q, k, v, { record: { scaled: true } });
  for (const h of got.heads) {
    assert.deepEqual(h.emptyRows, [2, 4]);
    for (const i of [2, 4]) {
      assert.deepEqual(Array.from(h.weights.data.subarray(i * n, (i + 1) * n)), [0, 0, 0, 0, 0, 0]);
      assert.deepEqual(Array.from(h.output.data.subarray(i * 2, (i + 1) * 2)), [0, 0]);
      assert.ok(Array.from(h.scaled!.data.subarray(i * n, (i + 1) * n)).every((s) => s === -Infinity));
    }
    assert.ok(h.weights.data.every((w) => !Number.isNaN(w)));
  }
});

test('shapes that do not fit are refused, naming what is wrong', () => {
  const q = randomMatrix(4, 6, 1), k = randomMatrix(4, 4, 2), v = randomMatrix(4, 4, 3);
  assert.throws(() => attend({ q, k, v, heads: 3, kvHeads: 2, divisor: 1 }), /3 query heads cannot share 2/);
  assert.throws(() => attend({ q, k, v, heads: 4, kvHeads: 2, divisor: 1 }), /6 columns cannot be split into 4 heads/);
  assert.throws(() => attend({ q, k, v, heads: 2, kvHeads: 2, divisor: 1, first: 1 }), /head 0 has 4 queries/);
  assert.throws(() => attend({ q, k, v, heads: 2, kvHeads: 2, divisor: 1, mask: { window: 0 } }), /a window of 0/);
  assert.throws(() => attend({ q, k, v, heads: 2, kvHeads: 2, divisor: 1, hidden: new Uint8Array(3) }), /3 bytes for 4 × 4/);
});

test('a softcap c: each scaled score s becomes c · tanh(s / c) before the softmax; the raw scores stay raw, the scaled ones are capped', () => {
  const q = randomMatrix(6, 4, 71, 3), k = randomMatrix(6, 4, 72, 3), v = randomMatrix(6, 3, 73);
  const cap = 2, divisor = 1.5;
  const plain = attend({ q: [q], k: [k], v: [v], divisor, mask: { window: 4 } }).heads[0];
  const capped = attend({ q: [q], k: [k], v: [v], divisor, mask: { window: 4 }, softcap: cap, record: { scores: true, scaled: true } }).heads[0];
  const raw = matmulTransposed(q, k).data;
  for (let i = 0; i < 6; i++) {
    const seen = [0, 1, 2, 3, 4, 5].filter((j) => j <= i && j > i - 4);
    const s = seen.map((j) => cap * Math.tanh(raw[i * 6 + j] / divisor / cap));
    const top = Math.max(...s), sum = s.reduce((a, x) => a + Math.exp(x - top), 0);
    seen.forEach((j, t) => {
      assert.ok(Math.abs(capped.weights.data[i * 6 + j] - Math.exp(s[t] - top) / sum) < 1e-15);
      assert.equal(capped.scores!.data[i * 6 + j], raw[i * 6 + j]);
      assert.equal(capped.scaled!.data[i * 6 + j], s[t]);
    });
    for (let j = 0; j < 6; j++) if (!seen.includes(j)) assert.equal(capped.weights.data[i * 6 + j], 0);
  }
  // The cap changes these weights (scores of up to 3 · 3 · 4 / 1.5 are well past a cap of 2).
  assert.ok(capped.weights.data.some((w, i) => Math.abs(w - plain.weights.data[i]) > 1e-3));
  // attendEach, the checkpoint's path, gives the same weights as attend with the weights in the scores' buffer.
  const each: number[] = [];
  attendEach({ q: [q], k: [k], v: [v], divisor, mask: { window: 4 }, softcap: cap, onHead: (_, h) => each.push(...h.weights.data) });
  assert.deepEqual(each, [...capped.weights.data]);
  for (const bad of [0, -1, Infinity, NaN]) assert.throws(() => attend({ q: [q], k: [k], v: [v], divisor, softcap: bad }), /attend: a softcap of/);
});
