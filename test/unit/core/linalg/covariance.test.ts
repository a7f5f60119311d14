// Covariance and correlation of features across tokens: against numpy's cov (ddof 1),
// corrcoef and eigvalsh on random data, and against a plain two-pass reference; redundant pairs,
// constant features (no NaN) and the principal components agreeing with the quadrant's pca2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRandom } from '../../../../src/core/linalg/random.js';
import { featureStats, squareRows } from '../../../../src/core/linalg/covariance.js';
import { pca2 } from '../../../../src/core/linalg/pca.js';
import type { Matrix } from '../../../../src/core/linalg/matrix.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const random = createRandom(10);
const rowsOf = (m: Matrix) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
/** Correlated columns: each feature mixes a few shared factors, so correlations are not all near 0. */
function randomData(n: number, d: number): Matrix {
  const f = Array.from({ length: n }, () => [random.gaussian(), random.gaussian()]);
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) data[i * d + j] = (j % 3) * f[i][0] + (j % 2 ? -1 : 1) * f[i][1] + 0.3 * random.gaussian() + j;
  return { rows: n, cols: d, data };
}

test('covariance, correlation and eigenvalues agree with numpy (cov ddof=1, corrcoef, eigvalsh) on random data', { skip: python ? false : 'numpy is not installed' }, () => {
  const sets = [[2, 1], [2, 3], [3, 2], [6, 4], [10, 7], [50, 12], [5, 9]].map(([n, d]) => randomData(n, d));
  const r = spawnSync(python!, ['-c', `
import json, sys, numpy as np
out = []
for X in json.load(sys.stdin):
    X = np.array(X, dtype=float)
    C = np.cov(X, rowvar=False, ddof=1).reshape(X.shape[1], X.shape[1])
    R = np.corrcoef(X, rowvar=False).reshape(X.shape[1], X.shape[1])
    out.append({'cov': C.tolist(), 'corr': R.tolist(), 'eig': sorted(np.linalg.eigvalsh(C).tolist(), reverse=True)})
print(json.dumps(out))`], { input: JSON.stringify(sets.map(rowsOf)), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const ref = JSON.parse(r.stdout);
  sets.forEach((x, k) => {
    const s = featureStats(x)!;
    const scale = Math.max(...ref[k].eig.map(Math.abs), 1);
    squareRows(s.covariance, s.d).forEach((row, a) => row.forEach((v, b) => assert.ok(Math.abs(v - ref[k].cov[a][b]) <= 1e-9 * scale, `set ${k} cov[${a}][${b}]: ${v} vs ${ref[k].cov[a][b]}`)));
    squareRows(s.correlation, s.d).forEach((row, a) => row.forEach((v, b) => assert.ok(Math.abs(v - ref[k].corr[a][b]) <= 1e-9, `set ${k} corr[${a}][${b}]: ${v} vs ${ref[k].corr[a][b]}`)));
    s.eigenvalues.forEach((v, i) => assert.ok(Math.abs(v - Math.max(0, ref[k].eig[i])) <= 1e-9 * scale, `set ${k} eigenvalue ${i}: ${v} vs ${ref[k].eig[i]}`));
  });
});

test('against a plain two-pass reference; explained shares sum to 1; components are unit eigenvectors, C·u = λu', () => {
  const x = randomData(9, 5);
  const s = featureStats(x)!;
  const { rows: n, cols: d, data } = x;
  for (let a = 0; a < d; a++) {
    for (let b = 0; b < d; b++) {
      let ma = 0, mb = 0;
      for (let i = 0; i < n; i++) { ma += data[i * d + a]; mb += data[i * d + b]; }
      ma /= n; mb /= n;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += (data[i * d + a] - ma) * (data[i * d + b] - mb);
      assert.ok(Math.abs(s.covariance[a * d + b] - sum / (n - 1)) < 1e-12 * Math.max(1, Math.abs(sum)));
    }
  }
  assert.ok(Math.abs(s.explained.reduce((t, v) => t + v, 0) - 1) < 1e-12);
  let trace = 0;
  for (let a = 0; a < d; a++) trace += s.covariance[a * d + a];
  assert.ok(Math.abs(s.eigenvalues.reduce((t, v) => t + v, 0) - trace) < 1e-9 * trace, 'Σλ = trace: total variance');
  for (let k = 0; k < d; k++) {
    const u = s.components.subarray(k * d, (k + 1) * d);
    assert.ok(Math.abs(Math.hypot(...u) - 1) < 1e-12);
    for (let a = 0; a < d; a++) {
      let cu = 0;
      for (let b = 0; b < d; b++) cu += s.covariance[a * d + b] * u[b];
      assert.ok(Math.abs(cu - s.eigenvalues[k] * u[a]) < 1e-9 * Math.max(1, s.eigenvalues[0]));
    }
  }
});

test('the first two components are the quadrant view\'s pca2 components (same signs), and their shares its shares', () => {
  const x = randomData(12, 4);
  const s = featureStats(x)!;
  const p = pca2(rowsOf(x));
  for (let k = 0; k < 2; k++) {
    p.components[k].forEach((v, j) => assert.ok(Math.abs(v - s.components[k * 4 + j]) < 1e-6, `component ${k}[${j}]: pca2 ${v} vs ${s.components[k * 4 + j]}`));
    assert.ok(Math.abs(p.explained[k] - s.explained[k]) < 1e-9);
  }
});

test('redundant pairs: |corr| ≥ 0.9 listed strongest first, negative ones too; a constant feature gives zeros, never NaN', () => {
  // f0 and f1 move together, f2 against them, f3 is constant, f4 is unrelated.
  const rows = [[1, 2.1, -1, 5, 0], [2, 3.9, -2.2, 5, 1], [3, 6.2, -2.9, 5, 0], [4, 8, -4.1, 5, -1]];
  const x: Matrix = { rows: 4, cols: 5, data: Float64Array.from(rows.flat()) };
  const s = featureStats(x)!;
  assert.deepEqual(s.constant, [false, false, false, true, false]);
  assert.deepEqual(s.redundant.map((p) => [p.a, p.b, Math.sign(p.correlation)]).sort(), [[0, 1, 1], [0, 2, -1], [1, 2, -1]]);
  for (let i = 1; i < s.redundant.length; i++) assert.ok(Math.abs(s.redundant[i - 1].correlation) >= Math.abs(s.redundant[i].correlation));
  assert.ok(Array.from(s.correlation).every(Number.isFinite));
  for (let j = 0; j < 5; j++) assert.equal(s.correlation[3 * 5 + j], 0);
  assert.equal(s.correlation[0], 1);
  assert.equal(featureStats(x, 0.999)!.redundant.length, 0, 'the threshold is a parameter');
  // 0.1 three times: the mean rounds to 0.10000000000000002, but the feature is still constant.
  const tenths = featureStats({ rows: 3, cols: 2, data: Float64Array.from([0.1, 1, 0.1, 2, 0.1, 3]) })!;
  assert.deepEqual(tenths.constant, [true, false]);
  assert.equal(tenths.redundant.length, 0);
});

test('fewer than two tokens: no statistics; all constant: zero eigenvalues and shares', () => {
  assert.equal(featureStats({ rows: 1, cols: 3, data: new Float64Array(3) }), null);
  assert.equal(featureStats({ rows: 2, cols: 1, data: Float64Array.from([1, Infinity]) }), null, 'no NaN from infinite data');
  assert.equal(featureStats({ rows: 2, cols: 2, data: Float64Array.from([1e200, 1, -1e200, 2]) }), null, 'no NaN from a covariance that overflows');
  const flat = featureStats({ rows: 3, cols: 2, data: Float64Array.from([1, 2, 1, 2, 1, 2]) })!;
  assert.deepEqual(Array.from(flat.eigenvalues), [0, 0]);
  assert.deepEqual(Array.from(flat.explained), [0, 0]);
});

test('fewer tokens than features (the Gram route): the same eigenvalues, shares and leading components as the d × d route', () => {
  // 4 tokens of 7 features, against the same data padded with copies of itself (8 tokens: the direct route).
  const x = randomData(4, 7);
  const s = featureStats(x)!;
  const doubled: Matrix = { rows: 8, cols: 7, data: Float64Array.from([...x.data, ...x.data]) };
  const t = featureStats(doubled)!;
  // Doubling the tokens keeps the mean and scales the covariance by (4 − 1)·2 / (8 − 1).
  const f = (2 * 3) / 7;
  s.eigenvalues.forEach((v, i) => assert.ok(Math.abs(v * f - t.eigenvalues[i]) < 1e-9 * t.eigenvalues[0], `eigenvalue ${i}: ${v * f} vs ${t.eigenvalues[i]}`));
  assert.equal(s.eigenvalues.filter((v) => v > 0).length, 3, 'rank n − 1 = 3');
  for (let k = 0; k < 3; k++) {
    for (let j = 0; j < 7; j++) assert.ok(Math.abs(s.components[k * 7 + j] - t.components[k * 7 + j]) < 1e-9, `component ${k}[${j}]`);
    assert.ok(Math.abs(s.explained[k] - t.explained[k]) < 1e-12);
  }
  assert.ok(Array.from(s.components.subarray(3 * 7)).every((v) => v === 0), 'no direction for a zero variance');
});

test('features near 1e-300 (their squares underflow) and a single feature: eigenvalues without a throw (found by the hostile property test)', () => {
  const tiny: Matrix = { rows: 3, cols: 2, data: Float64Array.from([0, 1e-300, 1e-300, 0, 1e-300, 1e-300]) };
  const s = featureStats(tiny)!;
  assert.equal(s.eigenvalues.length, 2);
  assert.ok([...s.eigenvalues, ...s.explained].every(Number.isFinite));
  const one: Matrix = { rows: 3, cols: 1, data: Float64Array.from([1, 2, 4]) };
  const t = featureStats(one)!;
  assert.ok(Math.abs(t.eigenvalues[0] - 7 / 3) < 1e-12, `variance of 1, 2, 4 is 7/3, got ${t.eigenvalues[0]}`);
  assert.deepEqual(Array.from(t.explained), [1]);
});

test('a variance of 4.5 beside a covariance near 5e-316 (subnormal once scaled): eigenvalues 4.5 and 0 without a throw (found by the hostile property test, seed 9)', () => {
  // Q of a head in test/unit/core/fuzz-hostile.test.ts: its covariance is [[0, 4.97e-316], [4.97e-316, 4.5]].
  const q: Matrix = { rows: 2, cols: 2, data: Float64Array.from([-2e-300, -1.0000000000000002e-300, -2.0000000000000004e-300, -3]) };
  const s = featureStats(q)!;
  assert.deepEqual(Array.from(s.eigenvalues), [4.5, 0]);
  assert.deepEqual(Array.from(s.explained), [1, 0]);
  assert.ok(s.components.every(Number.isFinite));
  assert.ok(Math.abs(Math.abs(s.components[1]) - 1) < 1e-12, 'the first component is the second feature\'s axis');
});
