// Training: the loss as defined, its analytic gradient against central differences,
// the forward loss against numpy and gradient descent on the examples (bad "train" sections: test/unit/core/spec/read-train.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { readSpec } from '../../../../src/core/spec/read.js';
import { lossAndGradient, startingWeights, type HeadWeights } from '../../../../src/core/train/loss.js';
import { train } from '../../../../src/core/train/descent.js';
import { computeAttention } from '../../../../src/core/attention/attention.js';
import { trainJson, withWeights } from '../../../../src/cli/train.js';
import { run } from '../../../../src/cli/run.js';
import { exampleText, EXAMPLES } from '../../../support/specs.js';
import { join } from 'node:path';
import type { Spec } from '../../../../src/core/spec/spec.js';
import { tempDir } from '../../../support/temp-dir.js';

function specOf(value: unknown): Spec {
  const { spec, problems } = readSpec(JSON.stringify(value));
  assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
  return spec!;
}

const randomSpec = fc.record({
  n: fc.integer({ min: 2, max: 5 }), d: fc.integer({ min: 1, max: 4 }), dk: fc.integer({ min: 1, max: 3 }), dv: fc.integer({ min: 1, max: 3 }),
  values: fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: 200, maxLength: 200 }),
  causal: fc.boolean(), scale: fc.constantFrom('sqrt_dk', 'none', 0.7),
  withOutput: fc.boolean(), withAttention: fc.boolean(),
});

function build(r: { n: number; d: number; dk: number; dv: number; values: number[]; causal: boolean; scale: string | number; withOutput: boolean; withAttention: boolean }) {
  let k = 0;
  const next = () => r.values[k++ % r.values.length];
  const matrix = (rows: number, cols: number) => Array.from({ length: rows }, () => Array.from({ length: cols }, next));
  const tokens = Array.from({ length: r.n }, (_, i) => `t${i}`);
  const targets: unknown[] = [];
  if (r.withAttention || !r.withOutput) targets.push({ query: r.n - 1, key: 0 }, { query: r.n - 1, key: r.n - 1 });
  if (r.withOutput) targets.push({ query: r.n - 1, output: Array.from({ length: r.dv }, next) }, { query: 0, output: Array.from({ length: r.dv }, next) });
  return specOf({
    embeddings: Object.fromEntries(tokens.map((t) => [t, Array.from({ length: r.d }, next)])),
    inputs: [{ tokens }], heads: [{ wq: matrix(r.d, r.dk), wk: matrix(r.d, r.dk), wv: matrix(r.d, r.dv) }],
    scale: r.scale, mask: r.causal ? 'causal' : 'none',
    train: { learn: ['wq', 'wk', 'wv'], targets, steps: 1, rate: 0.1 },
  });
}

test('the analytic gradient agrees with central finite differences (random heads, masks, scales, both kinds of target)', () => {
  fc.assert(fc.property(randomSpec, (r) => {
    const spec = build(r);
    const w = startingWeights(spec, 0);
    const { gradient } = lossAndGradient(spec, spec.train!, w);
    const h = 1e-6;
    for (const role of ['wq', 'wk', 'wv'] as const) {
      for (let i = 0; i < w[role].data.length; i++) {
        const plus: HeadWeights = startingWeights(spec, 0), minus: HeadWeights = startingWeights(spec, 0);
        plus[role].data[i] = w[role].data[i] + h;
        minus[role].data[i] = w[role].data[i] - h;
        const numeric = (lossAndGradient(spec, spec.train!, plus, false).loss - lossAndGradient(spec, spec.train!, minus, false).loss) / (2 * h);
        const analytic = gradient[role].data[i];
        assert.ok(Math.abs(numeric - analytic) <= 1e-5 * Math.max(1, Math.abs(numeric)), `${role}[${i}]: analytic ${analytic}, numeric ${numeric}`);
      }
    }
  }), { numRuns: 60 });
});

test('the loss is −ln of the head\'s own weight and ½‖output − y‖², averaged per kind, as attention computes them', () => {
  const spec = build({ n: 4, d: 3, dk: 2, dv: 2, values: Array.from({ length: 200 }, (_, i) => Math.sin(i * 1.7)), causal: true, scale: 'sqrt_dk', withOutput: true, withAttention: true });
  const head = computeAttention(spec).inputs[0].heads[0];
  const n = 4;
  const A = (i: number, j: number) => head.weights.data[i * n + j];
  const O = (i: number) => Array.from(head.output.data.subarray(i * 2, i * 2 + 2));
  const [, , o1, o2] = spec.train!.targets as unknown as [unknown, unknown, { output: Float64Array }, { output: Float64Array }];
  const sq = (a: number[], b: Float64Array) => a.reduce((s, x, k) => s + (x - b[k]) ** 2, 0);
  const expected = (-Math.log(A(3, 0)) - Math.log(A(3, 3))) / 2 + (0.5 * sq(O(3), o1.output) + 0.5 * sq(O(0), o2.output)) / 2;
  assert.ok(Math.abs(lossAndGradient(spec, spec.train!, startingWeights(spec, 0), false).loss - expected) < 1e-12);
});

// The Python that has numpy: the one on PATH, else Debian's (python3-numpy, which npm test's setup installs).
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const numpy = python !== undefined;

test('the loss of random heads agrees with an independent numpy forward pass', { skip: numpy ? false : 'numpy is not installed (CI installs python3-numpy)' }, () => {
  const cases = Array.from({ length: 20 }, (_, c) => build({ n: 2 + (c % 4), d: 1 + (c % 3), dk: 1 + (c % 2), dv: 1 + ((c + 1) % 3),
    values: Array.from({ length: 200 }, (_, i) => Math.cos(i * 0.37 + c)), causal: c % 2 === 0, scale: c % 3 === 0 ? 'none' : 'sqrt_dk', withOutput: c % 2 === 1, withAttention: c % 4 !== 1 }));
  const payload = cases.map((spec) => {
    const w = startingWeights(spec, 0);
    const rows = (m: { rows: number; cols: number; data: Float64Array }) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
    return {
      x: spec.inputs[0].tokens.map((t) => Array.from(t.embedding)), wq: rows(w.wq), wk: rows(w.wk), wv: rows(w.wv),
      causal: spec.mask === 'causal', scale: spec.scale.kind === 'none' ? 1 : Math.sqrt(w.wq.cols),
      targets: spec.train!.targets.map((t) => (t.kind === 'attention' ? { q: t.query, k: t.key } : { q: t.query, y: Array.from(t.output) })),
      ours: lossAndGradient(spec, spec.train!, w, false).loss,
    };
  });
  const script = `
import json, sys, numpy as np
out = []
for c in json.load(sys.stdin):
    X, Wq, Wk, Wv = (np.array(c[k], dtype=np.float64) for k in ('x', 'wq', 'wk', 'wv'))
    S = (X @ Wq) @ (X @ Wk).T / c['scale']
    if c['causal']:
        S = np.where(np.triu(np.ones_like(S), 1) > 0, -np.inf, S)
    A = np.exp(S - S.max(axis=1, keepdims=True)); A /= A.sum(axis=1, keepdims=True)
    O = A @ (X @ Wv)
    att = [t for t in c['targets'] if 'k' in t]; outs = [t for t in c['targets'] if 'y' in t]
    L = 0.0
    if att: L += sum(-np.log(A[t['q'], t['k']]) for t in att) / len(att)
    if outs: L += sum(0.5 * np.sum((O[t['q']] - np.array(t['y'])) ** 2) for t in outs) / len(outs)
    out.append(abs(L - c['ours']) / max(1.0, abs(L)))
print(json.dumps(out))`;
  const r = spawnSync(python!, ['-c', script], { input: JSON.stringify(payload), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  for (const diff of JSON.parse(r.stdout) as number[]) assert.ok(diff < 1e-12, `relative difference ${diff}`);
});

test('learn-apple-watch: from W_Q = W_K = identity, 200 steps make watch attend to apple above 0.9, the loss falling', () => {
  const spec = readSpec(exampleText('learn-apple-watch.attn.json')).spec!;
  const t = spec.train!;
  const before = computeAttention(spec).inputs[0].heads[0].weights.data[3 * 4 + 2];
  const r = train(spec, t);
  assert.equal(r.loss.length, t.steps + 1);
  assert.ok(r.loss[t.steps] < r.loss[0] / 100);
  for (let s = 1; s < r.loss.length; s++) assert.ok(r.loss[s] <= r.loss[s - 1] + 1e-12, `the loss rose at step ${s}`);
  const after = computeAttention(withWeights(spec, r)).inputs[0].heads[0].weights.data[3 * 4 + 2];
  assert.ok(before < 0.1, `watch → apple starts at ${before}`);
  assert.ok(after > 0.9, `watch → apple ends at ${after}`);
  // Only the learnt matrices moved: W_V is still the identity.
  assert.deepEqual(Array.from(r.weights.wv.data), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
});

test('learn-value: W_V learns the output target of watch', () => {
  const spec = readSpec(exampleText('learn-value.attn.json')).spec!;
  const r = train(spec, spec.train!);
  assert.ok(r.loss[r.loss.length - 1] < 1e-6 * r.loss[0]);
  const out = computeAttention(withWeights(spec, r)).inputs[0].heads[0].output;
  assert.deepEqual(Array.from(out.data.subarray(9, 12), (v) => Math.round(v * 1000) / 1000), [3, 0, 0]);
});

test('attn train --json prints exactly { head, loss: N + 1 numbers, weights: { wq, wk, wv } }', async () => {
  const out: string[] = [], err: string[] = [];
  const code = await run(['train', join(EXAMPLES, 'learn-apple-watch.attn.json'), '--steps', '5', '--json'], { out: (t) => out.push(t), err: (t) => err.push(t) });
  assert.equal(code, 0, err.join('\n'));
  const json = JSON.parse(out.join('\n'));
  assert.deepEqual(Object.keys(json), ['head', 'loss', 'weights']);
  assert.deepEqual(Object.keys(json.weights), ['wq', 'wk', 'wv']);
  assert.equal(json.head, 0);
  assert.equal(json.loss.length, 6);
  const spec = readSpec(exampleText('learn-apple-watch.attn.json')).spec!;
  assert.deepEqual(json, JSON.parse(JSON.stringify(trainJson(train(spec, spec.train!, { steps: 5 })))));
});

const BASE = { embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ tokens: ['a', 'b'] }], heads: [{ name: 'h' }] };

test('a rate that makes the numbers overflow stops, says at which step, and keeps finite weights', async () => {
  const spec = specOf({ ...BASE, train: { targets: [{ query: 'a', key: 'b' }], steps: 50, rate: 1e200 } });
  const r = train(spec, spec.train!);
  assert.ok(r.stoppedAt !== undefined && r.stoppedAt <= 50);
  assert.ok([r.weights.wq, r.weights.wk, r.weights.wv].every((m) => m.data.every(Number.isFinite)));
  assert.ok(r.loss.every(Number.isFinite));
  const err: string[] = [];
  const { writeFileSync } = await import('node:fs');
  const file = join(tempDir('attn-train-'), 'x.attn.json');
  writeFileSync(file, JSON.stringify({ ...BASE, train: { targets: [{ query: 'a', key: 'b' }], steps: 50, rate: 1e200 } }));
  const code = await run(['train', file], { out: () => {}, err: (t) => err.push(t) });
  assert.equal(code, 1);
  assert.match(err.join('\n'), /overflowed at step \d+.*stopped, with the last finite weights/);
});

test('the analytic gradient agrees with a numpy backward pass written out separately', { skip: numpy ? false : 'numpy is not installed (CI installs python3-numpy)' }, () => {
  // Central differences check the gradient against our own loss; this checks it against a second,
  // independent derivation (numpy, through ∂A then the softmax Jacobian), so a slip shared by the
  // loss and its gradient would also show.
  const cases = Array.from({ length: 12 }, (_, c) => build({ n: 2 + (c % 4), d: 1 + (c % 3), dk: 1 + ((c + 2) % 3), dv: 1 + ((c + 1) % 3),
    values: Array.from({ length: 200 }, (_, i) => Math.sin(i * 0.53 + 2 * c)), causal: c % 2 === 0, scale: c % 3 === 0 ? 0.7 : 'sqrt_dk', withOutput: c % 3 !== 2, withAttention: c % 4 !== 1 }));
  const rows = (m: { rows: number; cols: number; data: Float64Array }) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
  const payload = cases.map((spec) => {
    const w = startingWeights(spec, 0);
    return {
      x: spec.inputs[0].tokens.map((t) => Array.from(t.embedding)), wq: rows(w.wq), wk: rows(w.wk), wv: rows(w.wv),
      causal: spec.mask === 'causal', scale: spec.scale.kind === 'number' ? spec.scale.value : spec.scale.kind === 'none' ? 1 : Math.sqrt(w.wq.cols),
      targets: spec.train!.targets.map((t) => (t.kind === 'attention' ? { q: t.query, k: t.key } : { q: t.query, y: Array.from(t.output) })),
    };
  });
  const script = `
import json, sys, numpy as np
out = []
for c in json.load(sys.stdin):
    X, Wq, Wk, Wv = (np.array(c[k], dtype=np.float64) for k in ('x', 'wq', 'wk', 'wv'))
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    M = np.triu(np.ones((len(X), len(X))), 1) > 0 if c['causal'] else np.zeros((len(X), len(X)), dtype=bool)
    S = np.where(M, -np.inf, Q @ K.T / c['scale'])
    A = np.exp(S - S.max(axis=1, keepdims=True)); A /= A.sum(axis=1, keepdims=True)
    O = A @ V
    att = [t for t in c['targets'] if 'k' in t]; outs = [t for t in c['targets'] if 'y' in t]
    dA = np.zeros_like(A); dO = np.zeros_like(O)
    for t in att: dA[t['q'], t['k']] += -1.0 / (len(att) * A[t['q'], t['k']])
    for t in outs: dO[t['q']] += (O[t['q']] - np.array(t['y'])) / len(outs)
    dA += dO @ V.T
    dS = np.where(M, 0.0, A * (dA - (A * dA).sum(axis=1, keepdims=True))) / c['scale']
    out.append({'wq': (X.T @ (dS @ K)).tolist(), 'wk': (X.T @ (dS.T @ Q)).tolist(), 'wv': (X.T @ (A.T @ dO)).tolist()})
print(json.dumps(out))`;
  const r = spawnSync(python!, ['-c', script], { input: JSON.stringify(payload), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const reference = JSON.parse(r.stdout) as Record<'wq' | 'wk' | 'wv', number[][]>[];
  cases.forEach((spec, c) => {
    const { gradient } = lossAndGradient(spec, spec.train!, startingWeights(spec, 0));
    for (const role of ['wq', 'wk', 'wv'] as const) {
      rows(gradient[role]).flat().forEach((g, i) => {
        const ref = reference[c][role].flat()[i];
        assert.ok(Math.abs(g - ref) <= 1e-10 * Math.max(1, Math.abs(ref)), `case ${c} ${role}[${i}]: ${g} vs numpy ${ref}`);
      });
    }
  });
});
