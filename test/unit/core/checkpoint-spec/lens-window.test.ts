// The lens on a head of a long run: the window of tokens a spec can hold (every reader limit and the
// tensor file's byte cap, the largest count that passes), where it sits (ending at the query, or
// centred on an encoder's), and the cut lens (the run's rows, weights renormalised over the window).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LENS_MAX_BYTES, lensFileNumbers, lensLimit, lensTokenLimit, lensWindowStart, windowLens, windowRange, windowSentence } from '../../../../src/core/checkpoint-spec/lens-window.js';
import { MAX_TOKENS } from '../../../../src/core/spec/read/inputs.js';
import { fakeHeadLens } from '../../../support/head-lens.js';

const LLAMA_1B = { dModel: 2048, headDim: 64, rotary: true };

test('8,192 tokens of a 2,048-wide RoPE model: 2,048 tokens, a tensor file of about 72 MB, under the cap', () => {
  const { count, limit } = lensTokenLimit(LLAMA_1B, 8192);
  assert.equal(count, MAX_TOKENS);
  assert.equal(limit, 'a spec holds at most 2,048 tokens');
  const bytes = lensFileNumbers(LLAMA_1B, count) * 8;
  assert.ok(bytes > 70e6 && bytes < 80e6, `${bytes} bytes`);
  assert.ok(bytes <= LENS_MAX_BYTES);
  // The whole run would have been 8,192 × (192 + 2 × 2,048) float64: over the cap.
  assert.ok(lensFileNumbers(LLAMA_1B, 8192) * 8 > LENS_MAX_BYTES);
});

test('the window is the largest count every limit passes; the one that binds is named', () => {
  const shapes = [
    LLAMA_1B,
    { dModel: 2048, headDim: 64, rotary: false },
    { dModel: 8192, headDim: 128, rotary: false },
    { dModel: 16384, headDim: 128, rotary: true },
    { dModel: 2048, headDim: 64, rotary: true, window: 512 },
    { dModel: 2048, headDim: 64, rotary: true, window: 1500 },
  ];
  const counts = shapes.map((s) => {
    const { count, limit } = lensTokenLimit(s, 8192);
    assert.equal(lensLimit(s, count), undefined, `${JSON.stringify(s)}: ${count} fits`);
    assert.ok(lensLimit(s, count + 1) !== undefined, `${JSON.stringify(s)}: ${count + 1} does not`);
    assert.ok(limit);
    return { count, limit };
  });
  assert.equal(counts[1].count, 2048, 'GPT-2-like at 2,048 wide: x with its 1 fits 2,048 tokens');
  assert.ok(counts[2].count < 2048 && /multiply-adds|numbers/.test(counts[2].limit!), JSON.stringify(counts[2]));
  assert.ok(counts[3].count < 2048 && /MiB/.test(counts[3].limit!), JSON.stringify(counts[3]));
  assert.deepEqual(counts[4], { count: 1024, limit: 'a spec\'s mask (the sliding window\'s band of 512 tokens) is kept within 1,048,576 numbers' });
  assert.equal(counts[5].count, 1500, 'a window as wide as the head\'s needs no band');
  assert.deepEqual(lensTokenLimit(LLAMA_1B, 300), { count: 300 }, 'a run that fits is whole');
});

test('the window holds the query: ending at it for a causal head, centred on it for an encoder\'s', () => {
  assert.equal(lensWindowStart(8192, 8191, 2048, false), 6144);
  assert.equal(lensWindowStart(8192, 3000, 2048, false), 953);
  assert.equal(lensWindowStart(8192, 100, 2048, false), 0);
  assert.equal(lensWindowStart(8192, 3000, 2048, true), 1976);
  assert.equal(lensWindowStart(8192, 8000, 2048, true), 6144);
  assert.equal(lensWindowStart(100, 50, 2048, true), 0);
  for (const [n, q, c, b] of [[5000, 4321, 2048, false], [5000, 10, 700, true], [5000, 4999, 1, false]] as const) {
    const first = lensWindowStart(n, q, c, b);
    assert.ok(first <= q && q < first + c && first + c <= n);
  }
});

test('a run longer than a spec is cut to the window: the run\'s rows, weights renormalised over it, the query\'s share said', () => {
  const n = 2100, lens = fakeHeadLens({ n, dModel: 5, headDim: 2, rotary: true, biases: false });
  assert.equal(windowLens(fakeHeadLens({ n: 40, dModel: 5, headDim: 2, rotary: true, biases: false }), 39), undefined, 'a short run is whole');
  assert.equal(windowLens(lens, 2000)!.first, 0, 'a query early in the run: the first 2,048 tokens');
  const w = windowLens(lens, 2099)!;
  assert.deepEqual([w.first, w.count, w.query, w.n], [52, 2048, 2099, n]);
  assert.equal(w.lens.tokens.length, 2048);
  assert.deepEqual(w.lens.tokens, lens.tokens.slice(w.first, w.first + 2048));
  assert.deepEqual(w.lens.x, lens.x.slice(w.first * 5, (w.first + 2048) * 5));
  assert.deepEqual(w.lens.q, lens.q.slice(w.first * 2, (w.first + 2048) * 2));
  assert.equal(w.lens.weights.length, 2048 * 2048);
  const i = w.query - w.first;
  let inside = 0;
  for (let j = 0; j < 2048; j++) inside += lens.weights[w.query * n + w.first + j];
  assert.ok(Math.abs(w.kept - inside) < 1e-12);
  let sum = 0;
  for (let j = 0; j < 2048; j++) {
    sum += w.lens.weights[i * 2048 + j];
    assert.ok(Math.abs(w.lens.weights[i * 2048 + j] - lens.weights[w.query * n + w.first + j] / inside) < 1e-12);
  }
  assert.ok(Math.abs(sum - 1) < 1e-12, 'each row sums to 1 over the window');
  assert.equal(windowRange(w), 'tokens 53–2,100 of 2,100');
  const said = windowSentence(w, false);
  assert.match(said, /^The run has 2,100 tokens and a spec holds at most 2,048 tokens, so this lens holds tokens 53–2,100 of 2,100, the 2,048 ending at the query \(token 2,100\): .* put 0\.\d{3} of its weight there\)\.$/);
});
