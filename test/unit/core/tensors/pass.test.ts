// The pass over a model file's heads (src/core/tensors/pass.ts, rows.ts): reading a block of rows at
// a time, with table-decoded half floats and their entropy terms, gives the same bits as decoding the
// whole head and computing each statistic by its definition; thumbnails are each block's maximum;
// passes over ranges of heads, put together in any order, are the one pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionFromTensors } from '../../../../src/core/tensors/attention-file.js';
import type { AttentionSource } from '../../../../src/core/tensors/attention-source.js';
import { ITEM_SIZE, type DType } from '../../../../src/core/tensors/dtype.js';
import { memorySource } from '../../../../src/core/tensors/source.js';
import { entropyTerm, forEachRow } from '../../../../src/core/tensors/rows.js';
import { PassAccumulator, passOverHeads, passWarnings, roundedSum } from '../../../../src/core/tensors/pass.js';
import { memoryAttention } from '../../../support/model-fixture.js';
import { earlierCopies, headStats, type HeadStats } from '../../../../src/core/tensors/head-stats.js';
import { poolMax } from '../../../../src/core/model-attention/data.js';
import { between, seeded } from '../../../support/random.js';

/** Little-endian bytes of `values` in `dtype` (float16/bfloat16 by truncating a float32's bits: exact for the test's purposes). */
function encode(dtype: DType, values: number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * ITEM_SIZE[dtype]);
  const view = new DataView(bytes.buffer);
  const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
  values.forEach((v, k) => {
    if (dtype === 'F64') view.setFloat64(k * 8, v, true);
    else if (dtype === 'F32') view.setFloat32(k * 4, v, true);
    else if (dtype === 'BF16') { f32[0] = v; view.setUint16(k * 2, u32[0] >>> 16, true); }
    else view.setUint16(k * 2, halfBits(v), true);
  });
  return bytes;
}

/** float16 bits of v (round toward zero; subnormals kept). */
function halfBits(v: number): number {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a >= 65520) return sign | 0x7c00; // beyond the largest half: ±Infinity
  if (a >= 2 ** -14) {
    const e = Math.floor(Math.log2(a));
    return sign | ((e + 15) << 10) | Math.floor((a / 2 ** e - 1) * 1024);
  }
  return sign | Math.floor(a / 2 ** -24);
}

/** An AttentionSource over `bytes` placed at an odd offset of a bigger buffer (typed views need copying). */
function fileOf(dtype: DType, values: number[], layers: number, heads: number, n: number, tokens?: string[]): AttentionSource {
  const raw = encode(dtype, values);
  const padded = new Uint8Array(raw.length + 3);
  padded.set(raw, 3);
  const source = memorySource('mem', padded);
  return attentionFromTensors('mem', [{ name: 'attn', dtype, shape: [layers, heads, n, n], source, offset: 3 }], tokens, () => {});
}

/** Softmax rows with a few exact zeros, subnormal-sized and negative-zero weights among them. */
function weights(layers: number, heads: number, n: number, seed: number, edges = true): number[] {
  let s = seed;
  const rand = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  const out: number[] = [];
  for (let r = 0; r < layers * heads * n; r++) {
    const row = Array.from({ length: n }, () => Math.exp(6 * rand()));
    const sum = row.reduce((a, b) => a + b, 0);
    for (let j = 0; j < n; j++) out.push(!edges ? row[j] / sum : j === r % n ? 0 : j === (r + 1) % n ? 1e-7 : j === (r + 2) % n ? -0 : row[j] / sum);
  }
  return out;
}

/** Each statistic by its definition over the whole head (the formulas), for comparison. */
function byDefinition(layer: number, head: number, a: Float64Array, n: number, tokens: string[]): HeadStats {
  let entropy = 0, confidence = 0, distance = 0, previous = 0, sink = 0, dup = 0, ind = 0, withCopies = 0;
  for (let i = 0; i < n; i++) {
    let h = 0, max = -Infinity, d = 0;
    for (let j = 0; j < n; j++) {
      const w = a[i * n + j];
      if (w > 0) h -= w * Math.log(w);
      if (w > max) max = w;
      d += w * Math.abs(i - j);
    }
    entropy += h; confidence += max; distance += d; sink += a[i * n];
    if (i >= 1) previous += a[i * n + i - 1];
    const earlier: number[] = [];
    for (let j = i - 1; j >= 0; j--) if (tokens[j] === tokens[i]) earlier.push(j);
    if (earlier.length) {
      withCopies++;
      // Each row's own sums first, as entropy and distance are: a row is one term of each mean.
      let rowDup = 0, rowInd = 0;
      for (const j of earlier) { rowDup += a[i * n + j]; rowInd += a[i * n + j + 1]; }
      dup += rowDup; ind += rowInd;
    }
  }
  return {
    layer, head, entropy: entropy / n, confidence: confidence / n, distance: distance / n,
    previousToken: n > 1 ? previous / (n - 1) : null,
    duplicateToken: withCopies ? dup / withCopies : null, induction: withCopies ? ind / withCopies : null, sink: sink / n,
  };
}

for (const dtype of ['F64', 'F32', 'F16', 'BF16'] as DType[]) {
  test(`${dtype}: rows decode as the whole head does, with w·ln w beside them; statistics and thumbnails are the definitions' bits`, () => {
    const L = 2, H = 2, n = 70; // n > 64: thumbnails pool blocks of 1 or 2 keys
    const tokens = Array.from({ length: n }, (_, i) => ['the', 'cat', 'sat', 'the', 'mat'][i % 5] + (i % 11 === 0 ? '!' : ''));
    const a = fileOf(dtype, weights(L, H, n, 7), L, H, n, tokens);
    const whole = new Float64Array(n * n);
    const pass = passOverHeads(a, { thumb: 64 });
    for (let layer = 0; layer < L; layer++) {
      for (let head = 0; head < H; head++) {
        a.head(layer, head, whole);
        forEachRow(a, layer, head, (i, values, terms) => {
          for (let j = 0; j < n; j++) {
            assert.ok(Object.is(values[j], whole[i * n + j]), `value ${i},${j}`);
            assert.ok(Object.is(terms[j], entropyTerm(whole[i * n + j])), `term ${i},${j}`);
          }
        });
        const k = layer * H + head;
        assert.deepEqual(pass.stats[k], byDefinition(layer, head, whole, n, tokens));
        assert.deepEqual(headStats(layer, head, whole, n, earlierCopies(tokens, n)), pass.stats[k]);
        const pooled = new Float32Array(64 * 64);
        poolMax(whole, n, 64, pooled);
        assert.deepEqual(Array.from(pass.thumbnails.subarray(k * 4096, (k + 1) * 4096)), Array.from(pooled));
      }
    }
    assert.equal(pass.negatives, 0, '-0 is not a negative weight');
  });
}

test('rows that cross the 8 MiB blocks a head is read in are all visited, in order, with their bytes', () => {
  const n = 1500; // F64 rows of 12,000 bytes: 699 rows a block, so 699 + 699 + 102
  const values = weights(1, 1, n, 3);
  const a = fileOf('F64', values, 1, 1, n);
  let next = 0;
  forEachRow(a, 0, 0, (i, row) => {
    assert.equal(i, next++);
    if (i % 233 === 0 || i === 698 || i === 699 || i === n - 1) for (let j = 0; j < n; j += 97) assert.ok(Object.is(row[j], values[i * n + j]));
  }, { terms: false });
  assert.equal(next, n);
});

test('passes over ranges of heads, put together in any order, are the one pass (warnings from the earliest head)', () => {
  const L = 3, H = 2, n = 9;
  const values = weights(L, H, n, 11, false);
  values[3 * n * n + 2 * n + 4] += 0.5; // layer 1 head 1 query 2 sums to 1.5
  values[5 * n * n + 1] = -0.25; // layer 2 head 1: a negative weight, and its row is off too
  const a = fileOf('F64', values, L, H, n, Array.from({ length: n }, (_, i) => `t${i % 3}`));
  const one = passOverHeads(a, { thumb: 4 });
  const acc = new PassAccumulator(L * H, 4);
  const parts: [number, number][] = [[4, 6], [0, 1], [1, 4]];
  const grew = parts.map(([from, to]) => acc.add(from, passOverHeads(a, { thumb: 4, from, to })));
  assert.deepEqual(grew, [0, 1, 5], 'heads become readable only in order');
  assert.deepEqual(acc.result(), one);
  assert.equal(one.offRows, 2);
  assert.match(one.firstOff, /^layer 1 head 1 query 2 sums to 1\.5/);
  assert.match(one.firstNegative, /^layer 2 head 1 query 0 key 1/);
  assert.throws(() => acc.add(2, passOverHeads(a, { thumb: 4, from: 2, to: 3 })), /does not fit/);
  assert.throws(() => passOverHeads(a, { from: 5, to: 7 }), /outside/);
  assert.throws(() => passOverHeads(a, { from: 0, to: 2, onLayerMean: () => {} }), /every head/);
});

test('with pictures kept, thumbnails pooled from the picture are the ones pooled from every weight', () => {
  for (const [n, res] of [[300, 300], [1100, 512], [700, 512], [90, 90]]) {
    const a = fileOf('F32', weights(1, 2, n, n, false), 1, 2, n);
    const plain = passOverHeads(a, { thumb: 64 });
    const withPictures = passOverHeads(a, { thumb: 64, picture: res });
    assert.deepEqual(Array.from(withPictures.thumbnails), Array.from(plain.thumbnails), `n = ${n}, picture ${res}`);
    assert.equal(withPictures.pictures!.length, 2);
  }
});

test('300 files with one weight not finite or too large to add up (F64, F32, F16, BF16): the pass refuses each, naming the head, never a statistic that is not finite', () => {
  const rand = seeded(21);
  const bad = [NaN, Infinity, -Infinity, 1e308, 1.7e308, 4e307];
  let refused = 0;
  for (let c = 0; c < 300; c++) {
    const dtype = (['F64', 'F32', 'F16', 'BF16'] as const)[between(rand, 0, 3)];
    const layers = between(rand, 1, 2), heads = between(rand, 1, 3), n = between(rand, 2, 6);
    const values = weights(layers, heads, n, c + 1, false);
    const at = between(rand, 0, values.length - 1);
    const drawn = bad[between(rand, 0, bad.length - 1)];
    // Huge finite values only where the dtype holds them (F64); in the others they are +Infinity.
    const v = dtype !== 'F64' && Number.isFinite(drawn) ? Infinity : drawn;
    values[at] = v;
    if (dtype === 'F64' && Math.abs(v) < Infinity && Math.abs(v) > 1e300) for (let j = 0; j < 3 && at + j < values.length; j++) values[at + j] = v;
    const a = fileOf(dtype, values, layers, heads, n);
    try {
      const pass = passOverHeads(a, { thumb: Math.min(n, 4) });
      assert.ok(Number.isFinite(v), `case ${c}: ${v} at ${at} (${dtype}) was not refused`);
      for (const s of pass.stats) for (const k of ['entropy', 'confidence', 'distance', 'previousToken', 'sink'] as const) assert.ok(s[k] === null || Number.isFinite(s[k]), `case ${c}: ${k} ${s[k]}`);
    } catch (e) {
      if (e instanceof assert.AssertionError) throw e;
      refused++;
      const layer = Math.floor(at / (heads * n * n)), head = Math.floor(at / (n * n)) % heads;
      assert.match((e as Error).message, new RegExp(`^mem: layer ${layer} head ${head}: `), `case ${c} (${dtype}, ${v} at ${at})`);
    }
  }
  assert.ok(refused >= 200, `refused ${refused} of 300`);
});

test('a row\'s sum in the warning is rounded to 4 significant digits, more only when 4 would read as 1', () => {
  assert.equal(roundedSum(-6.020170748233795), '-6.02');
  assert.equal(roundedSum(1.5), '1.5');
  assert.equal(roundedSum(0.99984321), '0.9998');
  assert.equal(roundedSum(1.000043), '1.00004', 'off by more than the F32 tolerance, never written "1"');
  const n = 4;
  const values = weights(1, 1, n, 5, false);
  for (let j = 0; j < n; j++) values[j] = [-7, 0.3, 0.4, 0.2797292517662048][j];
  const one = passOverHeads(fileOf('F64', values, 1, 1, n), {});
  assert.match(one.firstOff, /sums to -6\.02$/);
  assert.doesNotMatch(one.firstOff, /\d{6}/, 'no run of digits');
});

test('rows of zeros are masked queries, counted apart from rows that look like scores; 120 generated files, each also passed in 3 ranges', () => {
  const rand = seeded(4242);
  for (let k = 0; k < 120; k++) {
    const L = between(rand, 1, 3), H = between(rand, 1, 3), n = between(rand, 2, 9);
    const values = new Float32Array(L * H * n * n);
    let zeros = 0, scores = 0, firstZero = '';
    for (let r = 0; r < L * H * n; r++) {
      const kind = rand();
      const row = values.subarray(r * n, (r + 1) * n);
      if (kind < 0.2) {
        if (zeros++ === 0) firstZero = `layer ${Math.floor(r / (H * n))} head ${Math.floor(r / n) % H} query ${r % n}`;
        continue; // all zero: a masked query
      }
      if (kind < 0.35) { scores++; row.forEach((_, j) => { row[j] = 2 + 3 * rand(); }); continue; } // scores: positive, summing far past 1
      let sum = 0;
      row.forEach((_, j) => { row[j] = Math.exp(3 * rand()); sum += row[j]; });
      row.forEach((_, j) => { row[j] /= sum; });
    }
    const a = memoryAttention(values, L, H, n);
    const pass = passOverHeads(a);
    assert.equal(pass.zeroRows, zeros, `file ${k}: zero rows`);
    assert.equal(pass.offRows, scores, `file ${k}: rows off 1`);
    const warnings = passWarnings(pass);
    const zeroWarning = warnings.find((w) => w.includes('all zero'));
    if (zeros > 0) assert.equal(zeroWarning, `${zeros} query row(s) are all zero (masked queries? first: ${firstZero})`, `file ${k}`);
    else assert.equal(zeroWarning, undefined, `file ${k}`);
    assert.equal(warnings.some((w) => w.endsWith('were scores saved before the softmax?')), scores > 0, `file ${k}: the softmax advice only for scores`);
    // Passes over three ranges, put together, say the same.
    const total = L * H, cut1 = between(rand, 0, total), cut2 = between(rand, cut1, total);
    const acc = new PassAccumulator(total, 0);
    for (const [from, to] of [[cut2, total], [0, cut1], [cut1, cut2]]) if (to > from) acc.add(from, passOverHeads(a, { from, to }));
    assert.deepEqual(passWarnings(acc.result()), warnings, `file ${k}: ranges`);
  }
});

test('a head fed row by row to a HeadPass makes what the pass over the source makes', async () => {
  const { HeadPass, emptyPass, passShape } = await import('../../../../src/core/tensors/pass.js');
  const rand = seeded(11);
  const n = 40, layers = 1, heads = 2;
  const tokens = Array.from({ length: n }, (_, i) => ['a', 'b', 'c'][i % 3]);
  const a = memoryAttention(Float32Array.from({ length: layers * heads * n * n }, () => between(rand, 0, 1)), layers, heads, n, tokens);
  const whole = passOverHeads(a, { thumb: 8, picture: 20 });
  const shape = passShape(a, { thumb: 8, picture: 20 });
  const fed = emptyPass(heads, 8, 20);
  const copies = earlierCopies(a.tokens, n);
  for (let head = 0; head < heads; head++) {
    const pass = new HeadPass(shape, 0, head, fed, head * 64, copies);
    forEachRow(a, 0, head, (i, row, terms) => pass.addRow(i, row, terms));
    pass.finish();
  }
  assert.deepEqual(fed.stats, whole.stats);
  assert.deepEqual(fed.thumbnails, whole.thumbnails);
  assert.deepEqual(fed.pictures, whole.pictures);
  assert.equal(fed.offRows, whole.offRows);
  const short = new HeadPass(shape, 0, 0, emptyPass(1, 8), 0, copies);
  assert.throws(() => short.finish(), /0 of 40 rows/);
});

test('a row fed with the keys it may weigh gives the bits of the whole row', async () => {
  const { HeadPass, emptyPass, passShape } = await import('../../../../src/core/tensors/pass.js');
  const rand = seeded(5);
  const n = 37;
  const tokens = Array.from({ length: n }, (_, i) => ['x', 'y'][i % 2]);
  const shape = passShape({ file: 'rows', dtype: 'F32', n, tokens }, { thumb: 8, picture: 16 });
  const copies = earlierCopies(tokens, n);
  const whole = emptyPass(1, 8, 16), bounded = emptyPass(1, 8, 16);
  const a = new HeadPass(shape, 0, 0, whole, 0, copies), b = new HeadPass(shape, 0, 0, bounded, 0, copies);
  for (let i = 0; i < n; i++) {
    // A sliding window of 9 keys ending at the query, the rest +0.
    const lo = Math.max(0, i - 8), hi = i + 1;
    const row = new Float64Array(n), terms = new Float64Array(n);
    let sum = 0;
    for (let j = lo; j < hi; j++) sum += row[j] = Math.fround(between(rand, 0.01, 1));
    for (let j = lo; j < hi; j++) { row[j] /= sum; terms[j] = entropyTerm(row[j]); }
    a.addRow(i, row, terms);
    b.addRow(i, row, terms, lo, hi);
  }
  a.finish(); b.finish();
  assert.deepEqual(bounded.stats, whole.stats);
  assert.deepEqual(bounded.thumbnails, whole.thumbnails);
  assert.deepEqual(bounded.pictures, whole.pictures);
});

test('with columnMax a pass keeps each head\'s strongest weight on each key, the other results unchanged', () => {
  const rand = seeded(11), layers = 2, heads = 3, n = 37;
  const values = Float32Array.from({ length: layers * heads * n * n }, () => between(rand, 0, 1));
  const a = memoryAttention(values, layers, heads, n);
  const pass = passOverHeads(a, { thumb: 4, columnMax: true });
  assert.equal(pass.columnMaxes!.length, layers * heads);
  for (let h = 0; h < layers * heads; h++) {
    const want = new Float32Array(n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) want[j] = Math.max(want[j], values[h * n * n + i * n + j]);
    assert.deepEqual(pass.columnMaxes![h], want, `head ${h}`);
  }
  const { columnMaxes, ...rest } = pass;
  assert.ok(columnMaxes);
  assert.deepEqual(rest, passOverHeads(a, { thumb: 4 }));
});
