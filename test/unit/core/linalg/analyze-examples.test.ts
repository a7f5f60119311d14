// The third seed's examples: each loads without problems and shows what its title says,
// and the seeds' 512 → 64 projection holds the seeds' numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../../../src/core/index.js';
import { countParameters } from '../../../../src/core/attention/parameters.js';
import { analyzeOverLimit, analyzeSpec } from '../../../../src/core/linalg/analyze.js';
import { exampleText } from '../../../support/specs.js';

const load = (name: string) => {
  const a = analyze(exampleText(name));
  assert.deepEqual(a.problems, [], name);
  return a;
};

test('the seeds\' projection: ~ten lines, three generated 512 × 64 matrices of 32,768 numbers, × 8 × 6 × 2 = 3,145,728', () => {
  const text = exampleText('seed-projection-512-64.attn.json');
  assert.ok(text.trimEnd().split('\n').length <= 12, 'a short spec: the weights are generated, not written');
  const { spec, result } = load('seed-projection-512-64.attn.json');
  assert.equal(spec!.dModel, 512);
  const p = countParameters(spec!);
  assert.deepEqual(p.heads, [{ name: '512 → 64', wq: 32768, wk: 32768, wv: 32768 }]);
  assert.equal(p.heads[0].wq * 8 * 6 * 2, 3145728);
  assert.equal(p.fullSize.total, 3145728);
  assert.deepEqual(spec!.heads[0].wq.generated, { init: 'xavier', variance: 2 / 576, seed: 7 });
  assert.equal(result!.inputs[0].heads[0].q.cols, 64, 'a 512-vector walks in, a 64-vector walks out');
  assert.equal(analyzeOverLimit(spec!), undefined, 'attn analyze takes it');
});

test('spectrum example: the stretch has singular values 3 and 0.5, the shear 1.618 and 0.618; W_O copies for one head and rotates for the other', () => {
  const a = analyzeSpec(load('spectrum-stretch-shear-rotate.attn.json').spec!);
  assert.deepEqual(a.heads[0].wq.singularValues, [3, 0.5]);
  const golden = (1 + Math.sqrt(5)) / 2;
  a.heads[1].wq.singularValues.forEach((s, i) => assert.ok(Math.abs(s - [golden, golden - 1][i]) < 1e-12));
  assert.equal(a.heads[0].ov!.copyingScore, 1);
  assert.ok(Math.abs(a.heads[1].ov!.copyingScore) < 1e-12);
});

test('heads example: the two grammar heads share a subspace (overlap 1), meaning is orthogonal to both (0)', () => {
  const a = analyzeSpec(load('heads-same-and-different-subspaces.attn.json').spec!);
  for (const role of ['wq', 'wk', 'wv'] as const) {
    assert.deepEqual(a.headOverlap[role].map((r) => r.map((v) => Math.round(v * 1e12) / 1e12)), [[1, 1, 0], [1, 1, 0], [0, 0, 1]], role);
  }
});

test('covariance example: is_fruit and is_sweet vary together across the six words', () => {
  const a = analyzeSpec(load('covariance-redundant-features.attn.json').spec!);
  const c = a.inputs[0].covariance!;
  assert.ok(c[0][1] / Math.sqrt(c[0][0] * c[1][1]) > 0.95);
  assert.ok(c[0][2] / Math.sqrt(c[0][0] * c[2][2]) < -0.9, 'is_tech runs against is_fruit');
});

test('init example: one head per rule, with the rules\' variances, and the tiny-variance head attends almost uniformly', () => {
  const { spec, result } = load('init-four-rules.attn.json');
  assert.deepEqual(spec!.heads.map((h) => h.wq.generated!.variance), [1 / 32, 2 / 40, 2 / 32, 0.0004]);
  const n = spec!.inputs[0].tokens.length;
  for (const row of result!.inputs[0].heads[3].weights.data) assert.ok(Math.abs(row - 1 / n) < 0.01);
});
