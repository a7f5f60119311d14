// What the linear-algebra lens adds to `attn analyze --json`: new keys only (the contract's keys and values are
// untouched), checked against numpy on random specs: condition numbers and effective ranks, and the
// covariance, correlation and variance explained of X, each head's Q, K, V and output, and the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readSpec } from '../../../../src/core/spec/read.js';
import { analyzeLimitProblem, analyzeSpec, headOverlap } from '../../../../src/core/linalg/analyze.js';
import { inputFeatureStats } from '../../../../src/core/linalg/analyze-extras.js';
import { run } from '../../../../src/cli/run.js';
import { createRandom } from '../../../../src/core/linalg/random.js';
import { EXAMPLES, exampleText } from '../../../support/specs.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);

test('the contract\'s keys stay first and unchanged; the new ones come after them', async () => {
  const out: string[] = [];
  assert.equal(await run(['analyze', join(EXAMPLES, 'multi-head-causal.attn.json'), '--json'], { out: (t) => out.push(t), err: () => {} }), 0);
  const json = JSON.parse(out.join('\n'));
  assert.deepEqual(Object.keys(json), ['heads', 'headOverlap', 'inputs']);
  assert.deepEqual(Object.keys(json.heads[0]), ['name', 'wq', 'wk', 'wv', 'qk', 'ov']);
  for (const role of ['wq', 'wk', 'wv', 'qk']) assert.deepEqual(Object.keys(json.heads[0][role]), ['singularValues', 'conditionNumber', 'effectiveRank']);
  assert.deepEqual(Object.keys(json.inputs[0]), ['name', 'covariance', 'correlation', 'redundantPairs', 'varianceExplained', 'heads', 'output']);
  assert.deepEqual(Object.keys(json.inputs[0].heads[0]), ['name', 'q', 'k', 'v', 'output']);
  assert.deepEqual(Object.keys(json.inputs[0].output), ['covariance', 'correlation', 'redundantPairs', 'varianceExplained']);
});

test('the examples: a stretch has condition number 6, identity d_model ones and rank d_model; is_fruit and is_sweet are a redundant pair', () => {
  const s = analyzeSpec(readSpec(exampleText('spectrum-stretch-shear-rotate.attn.json')).spec!);
  assert.equal(s.heads[0].wq.conditionNumber, 6);
  assert.equal(s.heads[0].wk.conditionNumber, 1);
  assert.equal(s.heads[0].wk.effectiveRank, 2);
  const c = analyzeSpec(readSpec(exampleText('covariance-redundant-features.attn.json')).spec!);
  const pair = c.inputs[0].redundantPairs.find((p) => p.a === 0 && p.b === 1);
  assert.ok(pair && pair.correlation > 0.98, JSON.stringify(c.inputs[0].redundantPairs));
  const shares = c.inputs[0].varianceExplained!;
  assert.ok(Math.abs(shares.reduce((t, v) => t + v, 0) - 1) < 1e-12 && shares[0] > 0.7);
  // A singular W: one word, a rank-one W_Q.
  const single = analyzeSpec(readSpec(JSON.stringify({ embeddings: { a: [1, 2] }, inputs: [{ tokens: ['a'] }], heads: [{ wq: [[1, 2], [2, 4]], wk: 'identity' }] })).spec!);
  assert.equal(single.heads[0].wq.conditionNumber, null);
  assert.equal(single.inputs[0].correlation, null, 'one token: no statistics');
  assert.deepEqual(single.inputs[0].redundantPairs, []);
});

test('condition numbers, effective ranks and the statistics of X, Q, K, V and outputs agree with numpy on random specs', { skip: python ? false : 'numpy is not installed' }, () => {
  const random = createRandom(77);
  const m = (r: number, c: number) => Array.from({ length: r }, () => Array.from({ length: c }, () => Math.round(random.gaussian() * 1000) / 500));
  const specs = Array.from({ length: 12 }, (_, k) => {
    const d = 2 + (k % 4), n = 3 + (k % 5), H = 1 + (k % 2);
    const tokens = Array.from({ length: n }, (_, i) => `t${i}`);
    const heads = Array.from({ length: H }, () => ({ wq: m(d, 1 + (k % d)), wk: m(d, 1 + (k % d)), wv: m(d, 2) }));
    return { embeddings: Object.fromEntries(tokens.map((t) => [t, m(1, d)[0]])), inputs: [{ tokens }], heads, ...(k % 3 === 0 ? { wo: m(2 * H, d) } : {}) };
  });
  const ours = specs.map((s) => analyzeSpec(readSpec(JSON.stringify(s)).spec!));
  const r = spawnSync(python!, ['-c', `
import json, sys, numpy as np
def stats(M):
    C = np.cov(M, rowvar=False, ddof=1).reshape(M.shape[1], M.shape[1])
    sd = np.sqrt(np.diag(C))
    R = C / np.outer(sd, sd)
    e = np.clip(np.sort(np.linalg.eigvalsh(C))[::-1], 0, None)
    return {'cov': C.tolist(), 'corr': R.tolist(), 'explained': (e / e.sum()).tolist()}
def spec_stats(W):
    s = np.linalg.svd(W, compute_uv=False)
    p = s / s.sum()
    c = float(np.linalg.cond(W))
    return {'cond': c if np.isfinite(c) and np.linalg.matrix_rank(W) == min(W.shape) else None, 'erank': float(np.exp(-(p[p > 0] * np.log(p[p > 0])).sum()))}
out = []
for sp in json.load(sys.stdin):
    X = np.array([sp['embeddings'][t] for t in sp['inputs'][0]['tokens']], dtype=float)
    heads, outs = [], []
    for h in sp['heads']:
        Wq, Wk, Wv = (np.array(h[k], dtype=float) for k in ('wq', 'wk', 'wv'))
        Q, K, V = X @ Wq, X @ Wk, X @ Wv
        S = Q @ K.T / np.sqrt(Wq.shape[1])
        A = np.exp(S - S.max(axis=1, keepdims=True)); A /= A.sum(axis=1, keepdims=True)
        O = A @ V
        outs.append(O)
        heads.append({'wq': spec_stats(Wq), 'wv': spec_stats(Wv), 'q': stats(Q), 'k': stats(K), 'v': stats(V), 'output': stats(O)})
    Y = np.concatenate(outs, axis=1)
    if 'wo' in sp: Y = Y @ np.array(sp['wo'], dtype=float)
    out.append({'x': stats(X), 'heads': heads, 'output': stats(Y)})
print(json.dumps(out))`], { input: JSON.stringify(specs), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const ref = JSON.parse(r.stdout);
  const near = (a: number, b: number, scale: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, scale), `${what}: ${a} vs numpy ${b}`);
  const grid = (a: number[][], b: number[][], what: string) => {
    const scale = Math.max(1, ...b.flat().map(Math.abs));
    a.forEach((row, i) => row.forEach((v, j) => near(v, b[i][j], scale, `${what}[${i}][${j}]`)));
  };
  const same = (a: { covariance: number[][]; correlation: number[][]; varianceExplained: number[] } | null, b: { cov: number[][]; corr: number[][]; explained: number[] }, what: string) => {
    assert.ok(a, what);
    grid(a.covariance, b.cov, `${what} covariance`);
    // numpy divides by a zero standard deviation (NaN) where a column is constant; we give 0 there.
    a.correlation.forEach((row, i) => row.forEach((v, j) => { if (Number.isFinite(b.corr[i][j])) near(v, b.corr[i][j], 1, `${what} correlation[${i}][${j}]`); }));
    a.varianceExplained.forEach((v, i) => near(v, b.explained[i], 1, `${what} explained[${i}]`));
  };
  ours.forEach((o, k) => {
    const e = ref[k];
    const x = o.inputs[0];
    same({ covariance: x.covariance!, correlation: x.correlation!, varianceExplained: x.varianceExplained! }, e.x, `spec ${k} X`);
    o.heads.forEach((h, i) => {
      for (const role of ['wq', 'wv'] as const) {
        const want = e.heads[i][role];
        if (want.cond === null) assert.equal(h[role].conditionNumber, null, `spec ${k} head ${i} ${role} singular`);
        else near(h[role].conditionNumber!, want.cond, want.cond, `spec ${k} head ${i} ${role} condition number`);
        near(h[role].effectiveRank, want.erank, 1, `spec ${k} head ${i} ${role} effective rank`);
      }
      for (const part of ['q', 'k', 'v', 'output'] as const) same(x.heads[i][part], e.heads[i][part], `spec ${k} head ${i} ${part}`);
    });
    same(x.output, e.output, `spec ${k} output`);
  });
});

test('the views\' entry points give the same numbers as attn analyze: headOverlap, and typed feature statistics per input', () => {
  const spec = readSpec(exampleText('heads-same-and-different-subspaces.attn.json')).spec!;
  assert.deepEqual(headOverlap(spec), analyzeSpec(spec).headOverlap);
  const cov = readSpec(exampleText('covariance-redundant-features.attn.json')).spec!;
  const [input] = inputFeatureStats(cov);
  assert.ok(input.x!.covariance instanceof Float64Array);
  assert.deepEqual(Array.from(input.x!.explained), analyzeSpec(cov).inputs[0].varianceExplained);
  assert.equal(input.heads[0].q!.d, 2);
  assert.equal(input.output!.d, 4, 'no W_O: the head\'s output (d_v = d_model = 4, W_V identity)');
});

test('head overlap: random subspaces of k in d dimensions overlap k/d on average; rank-deficient heads use their true rank', () => {
  const d = 128, k = 16, H = 6;
  const g = (seed: number) => ({ init: 'xavier', shape: [d, k], seed });
  const text = JSON.stringify({ embeddings: { a: new Array(d).fill(0) }, inputs: [{ tokens: ['a'] }],
    heads: Array.from({ length: H }, (_, h) => ({ wq: g(10 * h + 1), wk: g(10 * h + 2), wv: g(10 * h + 3) })) });
  const o = headOverlap(readSpec(text).spec!);
  let sum = 0, pairs = 0;
  for (const role of ['wq', 'wk', 'wv'] as const) {
    for (let i = 0; i < H; i++) {
      assert.equal(o[role][i][i], 1);
      for (let j = 0; j < H; j++) if (i !== j) { sum += o[role][i][j]; pairs++; assert.equal(o[role][i][j], o[role][j][i]); }
    }
  }
  // E[cos²] of one principal angle between random k-planes in d dimensions is k/d = 0.125; 90 pairs average it.
  assert.ok(Math.abs(sum / pairs - k / d) < 0.01, `mean overlap ${sum / pairs} vs ${k / d}`);
  // W_Q of rank 1 (two equal columns) inside head 2's plane: overlap 1 (one angle, of 0°); with an orthogonal plane 0.
  const rank = headOverlap(readSpec(JSON.stringify({ embeddings: { a: [1, 0, 0, 0] }, inputs: [{ tokens: ['a'] }],
    heads: [[[1, 1], [2, 2], [0, 0], [0, 0]], [[1, 0], [0, 1], [0, 0], [0, 0]], [[0, 0], [0, 0], [1, 0], [0, 1]]].map((w) => ({ wq: w, wk: w })) })).spec!);
  assert.ok(Math.abs(rank.wq[0][1] - 1) < 1e-12 && Math.abs(rank.wq[0][2]) < 1e-12, JSON.stringify(rank.wq));
});

test('a spec too big to analyse gets a positioned problem on its costliest head (or the first character for the default head)', () => {
  const zeros = (n: number) => new Array(n).fill(0);
  const text = JSON.stringify({ embeddings: { a: zeros(1000) }, inputs: [{ tokens: ['a'] }],
    heads: [{ name: 'small', wq: { init: 'lecun', shape: [1000, 2] }, wk: { init: 'lecun', shape: [1000, 2] }, wv: { init: 'lecun', shape: [1000, 2] } }, { name: 'square', wq: 'identity', wk: 'identity', wv: 'identity' }] }, null, 1);
  const spec = readSpec(text).spec!;
  const p = analyzeLimitProblem(spec)!;
  assert.equal(p.path, 'heads[1]');
  assert.ok(text.slice(p.span.offset, p.span.offset + p.span.length).includes('"square"'));
  assert.match(p.message, /^analysing 2 head\(s\) at d_model 1000 needs about \d+ billion multiply-adds, over the 4 billion limit/);
  const byDefault = readSpec(`{"embeddings":{"a":[${zeros(1100).join(',')}]},"inputs":[{"tokens":["a"]}]}`).spec!;
  assert.deepEqual([analyzeLimitProblem(byDefault)!.path, analyzeLimitProblem(byDefault)!.span], ['', { offset: 0, length: 1 }]);
  assert.equal(analyzeLimitProblem(readSpec(exampleText('seed-projection-512-64.attn.json')).spec!), undefined);
});
