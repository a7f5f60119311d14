// Attention rollout (src/core/tensors/rollout.ts): per layer Â = 0.5 · mean + 0.5 · I, rows
// renormalised, and R = Â_L ··· Â_1, checked against a 2-token, 2-layer case worked by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ROLLOUT_TOKENS, multiply, residualAttention, Rollout } from '../../../../src/core/tensors/rollout.js';

const f = (...v: number[]) => new Float64Array(v);

test('before any layer the rollout is the identity', () => {
  assert.deepEqual(Array.from(new Rollout(3).result), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.equal(MAX_ROLLOUT_TOKENS, 1024);
});

test('two tokens, two layers, worked by hand: R = Â₂ · Â₁ = [[0.625, 0.375], [0.625, 0.375]]', () => {
  // Layer 1: A₁ = [[1, 0], [0.5, 0.5]], so Â₁ = 0.5·A₁ + 0.5·I = [[1, 0], [0.25, 0.75]].
  // Layer 2: A₂ = [[0, 1], [1, 0]],     so Â₂ = [[0.5, 0.5], [0.5, 0.5]].
  // Â₂ · Â₁: each row is 0.5·[1, 0] + 0.5·[0.25, 0.75] = [0.625, 0.375].
  const r = new Rollout(2);
  r.addLayer(f(1, 0, 0.5, 0.5));
  assert.deepEqual(Array.from(r.result), [1, 0, 0.25, 0.75]);
  r.addLayer(f(0, 1, 1, 0));
  assert.deepEqual(Array.from(r.result), [0.625, 0.375, 0.625, 0.375]);
  // The order matters: Â₁ · Â₂ would be [[0.5, 0.5], [0.5, 0.5]].
  const other = new Rollout(2);
  other.addLayer(f(0, 1, 1, 0));
  other.addLayer(f(1, 0, 0.5, 0.5));
  assert.deepEqual(Array.from(other.result), [0.5, 0.5, 0.5, 0.5]);
});

test('residualAttention works in place: halves, adds half the identity, renormalises each row', () => {
  const mean = f(2, 0, 0, 0);
  const hat = residualAttention(mean, 2);
  assert.equal(hat, mean);
  // Row 0: [1 + 0.5, 0] → [1, 0]; row 1: [0, 0 + 0.5] → [0, 1].
  assert.deepEqual(Array.from(hat), [1, 0, 0, 1]);
  // A row that sums to 0 after the residual is left as it is, not divided by 0.
  assert.deepEqual(Array.from(residualAttention(f(-1, 0, 0.5, 0.5), 2)), [0, 0, 0.25, 0.75]);
  // A uniform 3 × 3 mean: the diagonal 1/6 + 1/2 = 2/3, the rest 1/6.
  const u = residualAttention(new Float64Array(9).fill(1 / 3), 3);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.ok(Math.abs(u[i * 3 + j] - (i === j ? 2 / 3 : 1 / 6)) < 1e-15);
});

test('multiply is the row-major matrix product, written into out', () => {
  const out = f(9, 9, 9, 9);
  // [[1, 2], [3, 4]] · [[5, 6], [7, 8]] = [[19, 22], [43, 50]]
  assert.equal(multiply(f(1, 2, 3, 4), f(5, 6, 7, 8), 2, out), out);
  assert.deepEqual(Array.from(out), [19, 22, 43, 50]);
  // Zeros in a are skipped, and out is cleared first.
  assert.deepEqual(Array.from(multiply(f(0, 1, 0, 0), f(5, 6, 7, 8), 2, out)), [7, 8, 0, 0]);
});

test('each row of the rollout sums to 1 over many layers and stays within [0, 1]', () => {
  const n = 5;
  const r = new Rollout(n);
  for (let layer = 0; layer < 12; layer++) {
    const mean = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += mean[i * n + j] = 1 + Math.sin(layer * 7 + i * 3 + j);
      for (let j = 0; j < n; j++) mean[i * n + j] /= s;
    }
    r.addLayer(mean);
  }
  for (let i = 0; i < n; i++) {
    const row = r.result.subarray(i * n, (i + 1) * n);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(row.every((v) => v >= 0 && v <= 1));
  }
});
