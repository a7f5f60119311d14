// The initialisation lab: variance layer by layer for each rule, linear and ReLU, against
// theory and against numpy on the same inputs and weights; the singular values of one random W
// against the Marchenko–Pastur edges and numpy; Var(q · k) against d_k, scaled and not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRandom } from '../../../../src/core/linalg/random.js';
import { compareRules, drawLayerStack, drawScores, layerStack, layerVariances, scoreScaling, scoreScalingFrom, weightSpectrum } from '../../../../src/core/linalg/init-lab.js';
import type { Matrix } from '../../../../src/core/linalg/matrix.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const noNumpy = python ? false : 'numpy is not installed (npm test\'s setup installs python3-numpy)';
const numpy = (script: string, input: unknown) => {
  const r = spawnSync(python!, ['-c', `import json, sys, numpy as np\n${script}`], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const rowsOf = (m: Matrix) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
const ratio = (a: number, b: number) => Math.abs(Math.log(a / b));

test('LeCun keeps a linear stack steady, Kaiming a ReLU stack; the others grow or shrink as 2^±l, as theory says', () => {
  const d = 256, L = 10;
  const run = (rule: 'lecun' | 'kaiming', activation: 'linear' | 'relu') => layerStack({ rule, width: d, layers: L, activation, seed: 5, samples: 128 });
  // Random layers make the variance wander like a log-normal walk, with log-sd about √(c·l/d) (c ≈ 2
  // linear, ≈ 5 with ReLU, which keeps a random half of the units): allow three of those. The
  // differences asserted are 2^±10.
  const slack = (activation: 'linear' | 'relu') => 3 * Math.sqrt(((activation === 'relu' ? 5 : 2) * L) / d);
  const cases = [run('lecun', 'linear'), run('kaiming', 'relu'), run('kaiming', 'linear'), run('lecun', 'relu')];
  const activations = ['linear', 'relu', 'linear', 'relu'] as const;
  cases.forEach((s, k) => {
    assert.equal(s.variance.length, L + 1);
    s.variance.forEach((v, l) => assert.ok(ratio(v, s.expected[l]) < slack(activations[k]), `case ${k} layer ${l}: ${v} vs theory ${s.expected[l]}`));
  });
  assert.deepEqual(cases[0].expected, new Array(L + 1).fill(1), 'LeCun, linear: 1 at every layer');
  assert.deepEqual(cases[1].expected, [1, ...new Array(L).fill(2)], 'Kaiming, ReLU: 2 (d · 2/d) after the first layer, then steady');
  assert.equal(cases[2].expected[L], 2 ** L);
  assert.equal(cases[3].expected[L], 2 ** -(L - 1));
  assert.ok(cases[2].variance[L] > 100 && cases[3].variance[L] < 0.01, 'Kaiming without ReLU explodes, LeCun with ReLU vanishes');
  // Xavier on square layers is LeCun: 2/(d + d) = 1/d.
  assert.equal(layerStack({ rule: 'xavier', width: 64, layers: 2, activation: 'linear', seed: 1 }).weightVariance, 1 / 64);
});

test('the same seed gives the same stack; a blow-up stops with "overflow" and keeps only finite numbers', () => {
  const o = { rule: 'lecun' as const, width: 32, layers: 5, activation: 'relu' as const, seed: 9 };
  assert.deepEqual(layerStack(o), layerStack(o));
  assert.notDeepEqual(layerStack(o).variance, layerStack({ ...o, seed: 10 }).variance);
  const boom = layerStack({ rule: { variance: 1 }, width: 256, layers: 200, activation: 'linear', seed: 1, samples: 4 });
  assert.equal(boom.stopped?.why, 'overflow');
  assert.ok(boom.variance.length < 201 && boom.variance.every(Number.isFinite) && boom.expected.every(Number.isFinite));
  const fade = layerStack({ rule: { variance: 1e-6 }, width: 16, layers: 100, activation: 'linear', seed: 1, samples: 4 });
  assert.equal(fade.stopped?.why, 'underflow');
  assert.throws(() => layerStack({ ...o, width: 4096, layers: 1000 }), /over the 300 million limit/);
  assert.throws(() => layerStack({ ...o, layers: 0 }), /number of layers must be a whole number from 1/);
  assert.throws(() => layerStack({ ...o, rule: { variance: -1 } }), /finite and ≥ 0/);
});

test('layer variances agree with numpy on the same inputs and weights (linear and ReLU)', { skip: noNumpy }, () => {
  for (const activation of ['linear', 'relu'] as const) {
    const { x0, weights } = drawLayerStack({ rule: 'kaiming', width: 24, layers: 6, activation, seed: 3, samples: 10 });
    const ours = layerVariances(x0, weights, activation).variance;
    const ref = numpy(`
d = json.load(sys.stdin)
x = np.array(d['x0'])
out = [float(np.mean(x ** 2))]
for W in d['weights']:
    h = x @ np.array(W)
    out.append(float(np.mean(h ** 2)))
    x = np.maximum(h, 0) if d['relu'] else h
print(json.dumps(out))`, { x0: rowsOf(x0), weights: weights.map(rowsOf), relu: activation === 'relu' });
    ours.forEach((v, l) => assert.ok(Math.abs(v - ref[l]) <= 1e-9 * ref[l], `${activation} layer ${l}: ${v} vs numpy ${ref[l]}`));
  }
});

test('one random W: singular values fill the Marchenko–Pastur edges (512 × 64 Xavier: about 0.86 to 1.80), and match numpy', { skip: noNumpy }, () => {
  const w = weightSpectrum('xavier', 512, 64, 7);
  assert.equal(w.variance, 2 / 576);
  assert.equal(w.singularValues.length, 64);
  assert.ok(Math.abs(w.edges[0] - Math.sqrt(2 / 576) * (Math.sqrt(512) - 8)) < 1e-12 && Math.abs(w.edges[1] - Math.sqrt(2 / 576) * (Math.sqrt(512) + 8)) < 1e-12);
  assert.ok(w.singularValues[0] < w.edges[1] * 1.05 && w.singularValues[0] > w.edges[1] * 0.9, `σ_max ${w.singularValues[0]} vs edge ${w.edges[1]}`);
  assert.ok(w.singularValues[63] > w.edges[0] * 0.9 && w.singularValues[63] < w.edges[0] * 1.15, `σ_min ${w.singularValues[63]} vs edge ${w.edges[0]}`);
  // Square: from near 0 to about 2√(d·v) = 2 for LeCun.
  const sq = weightSpectrum('lecun', 128, 128, 1);
  assert.ok(Math.abs(sq.singularValues[0] - 2) < 0.15 && sq.singularValues[127] < 0.05, `${sq.singularValues[0]} … ${sq.singularValues[127]}`);
  // numpy on the very same matrix: redraw it from the same stream.
  const random = createRandom(1);
  const m = Array.from({ length: 128 }, () => Array.from({ length: 128 }, () => Math.sqrt(1 / 128) * random.gaussian()));
  const ref: number[] = numpy('print(json.dumps(np.linalg.svd(np.array(json.load(sys.stdin)), compute_uv=False).tolist()))', m);
  ref.forEach((s, i) => assert.ok(Math.abs(s - sq.singularValues[i]) <= 1e-9 * ref[0], `σ${i}: ${sq.singularValues[i]} vs numpy ${s}`));
});

test('Var(q · k) grows as d_k and is 1 after ÷ √d_k; unscaled softmax saturates as d_k grows, scaled does not', () => {
  const rows = scoreScaling({ dks: [1, 4, 16, 64, 256], tokens: 16, samples: 2000, seed: 11 });
  for (const r of rows) {
    assert.ok(Math.abs(r.dotVariance / r.dk - 1) < 0.1, `d_k ${r.dk}: Var(q·k) = ${r.dotVariance}`);
    assert.ok(Math.abs(r.scaledVariance - 1) < 0.1, `d_k ${r.dk}: scaled ${r.scaledVariance}`);
    assert.ok(r.maxWeight > 1 / 16 && r.maxWeight <= 1);
  }
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i].maxWeight > rows[i - 1].maxWeight, 'the unscaled largest weight rises with d_k');
  assert.ok(rows[4].maxWeight > 0.9, `d_k 256 unscaled: ${rows[4].maxWeight} (near one-hot)`);
  const scaled = rows.map((r) => r.maxWeightScaled);
  for (const s of scaled) assert.ok(s > 0.2 && s < 0.4, `scaled largest weights stay put: ${scaled}`);
  assert.deepEqual(scoreScaling({ dks: [8], seed: 3, samples: 50 }), scoreScaling({ dks: [8], seed: 3, samples: 50 }));
  assert.throws(() => scoreScaling({ dks: [65_536], samples: 100_000, seed: 1 }), /over the 300 million limit/);
});

test('score scaling agrees with numpy on the same queries and keys', { skip: noNumpy }, () => {
  const { queries, keys } = drawScores(12, 5, 30, createRandom(4));
  const ours = scoreScalingFrom(queries, keys, 5);
  const ref = numpy(`
d = json.load(sys.stdin)
Q = np.array(d['q']); K = np.array(d['k']).reshape(len(d['q']), 5, 12)
S = np.einsum('st,sjt->sj', Q, K)
def smax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True)); return e / e.sum(axis=1, keepdims=True)
print(json.dumps({'var': float(np.mean(S ** 2)), 'scaled': float(np.mean((S / np.sqrt(12)) ** 2)), 'max': float(smax(S).max(axis=1).mean()), 'maxScaled': float(smax(S / np.sqrt(12)).max(axis=1).mean())}))`, { q: rowsOf(queries), k: rowsOf(keys) });
  const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs numpy ${b}`);
  near(ours.dotVariance, ref.var, 'Var(q·k)');
  near(ours.scaledVariance, ref.scaled, 'Var(q·k/√d_k)');
  near(ours.maxWeight, ref.max, 'max weight');
  near(ours.maxWeightScaled, ref.maxScaled, 'max weight, scaled');
});

test('compareRules: the same inputs through each rule; Xavier lies on LeCun for square layers; a fixed variance is added when given', () => {
  const rows = compareRules({ width: 64, layers: 6, activation: 'relu', seed: 2, samples: 32, variance: 0.05 });
  assert.deepEqual(rows.map((r) => r.label), ['LeCun 1/d_in', 'Xavier 2/(d_in + d_out)', 'Kaiming 2/d_in', 'Var(W) = 0.05']);
  assert.deepEqual(rows[0].stack.variance, rows[1].stack.variance);
  assert.ok(new Set(rows.map((r) => r.stack.variance[0])).size === 1, 'the same inputs for every rule');
  assert.ok(rows[2].stack.variance[6] > rows[0].stack.variance[6] * 16, 'Kaiming keeps what LeCun loses under ReLU (64 times apart by layer 6 in theory)');
  assert.equal(compareRules({ width: 8, layers: 2, activation: 'linear', seed: 1 }).length, 3);
});
