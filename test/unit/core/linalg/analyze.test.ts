// attn analyze (its JSON contract): singular values, the QK and OV circuits, head overlap and
// covariance, against numpy on random specs (to 1e-9 relative) and against what the seed says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readSpec } from '../../../../src/core/spec/read.js';
import { analyzeSpec, analyzeOverLimit, analyzeWork, covarianceNumbers, eigenvalues, MAX_COVARIANCE_NUMBERS } from '../../../../src/core/linalg/analyze.js';
import { spectrumOverLimit } from '../../../../src/core/linalg/spectrum-data.js';
import type { Spec } from '../../../../src/core/spec/spec.js';
import type { Matrix } from '../../../../src/core/linalg/matrix.js';
import { between, seeded } from '../../../support/random.js';
import { run } from '../../../../src/cli/run.js';
import { exampleText, EXAMPLES } from '../../../support/specs.js';
import { join } from 'node:path';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);

function randomSpec(seed: number) {
  let s = seed * 9301 + 49297;
  const rnd = () => { s = (s * 9301 + 49297) % 233280; return s / 233280 * 2 - 1; };
  const d = 2 + (seed % 5), H = 1 + (seed % 3), n = 1 + (seed % 6);
  const m = (r: number, c: number) => Array.from({ length: r }, () => Array.from({ length: c }, () => Math.round(rnd() * 1000) / 250));
  const heads = Array.from({ length: H }, (_, h) => {
    const dk = 1 + ((seed + h) % d), dv = 1 + ((seed + 2 * h) % d);
    return { name: `h${h}`, wq: m(d, dk), wk: m(d, dk), wv: m(d, dv) };
  });
  const width = heads.reduce((t, h) => t + h.wv[0].length, 0);
  const tokens = Array.from({ length: n }, (_, i) => `t${i}`);
  return {
    embeddings: Object.fromEntries(tokens.map((t) => [t, m(1, d)[0]])), inputs: [{ name: 'x', tokens }], heads,
    ...(seed % 2 === 0 ? { wo: m(width, d) } : {}),
  };
}

test('singular values, QK circuit, OV eigenvalues and copying score, overlap and covariance agree with numpy', { skip: python ? false : 'numpy is not installed (npm test\'s setup installs python3-numpy)' }, () => {
  const specs = Array.from({ length: 40 }, (_, k) => randomSpec(k + 1));
  const ours = specs.map((sp) => analyzeSpec(readSpec(JSON.stringify(sp)).spec!));
  const script = `
import json, sys, numpy as np
def orth(W):
    U, s, _ = np.linalg.svd(W, full_matrices=False)
    tol = (s[0] if len(s) else 0) * max(W.shape) * np.finfo(float).eps
    return U[:, s > tol]
def overlap(A, B):
    Ua, Ub = orth(A), orth(B)
    r = min(Ua.shape[1], Ub.shape[1])
    if r == 0: return 0.0
    c = np.linalg.svd(Ua.T @ Ub, compute_uv=False)[:r]
    return float(np.mean(np.minimum(c, 1) ** 2))
out = []
for sp in json.load(sys.stdin):
    heads = []
    off = 0
    for h in sp['heads']:
        Wq, Wk, Wv = (np.array(h[k], dtype=float) for k in ('wq', 'wk', 'wv'))
        d, dk = Wq.shape
        sv = lambda M: sorted(np.linalg.svd(M, compute_uv=False).tolist(), reverse=True)
        e = None
        if 'wo' in sp:
            Wo = np.array(sp['wo'], dtype=float)
            lam = np.linalg.eigvals(Wv @ Wo[off:off + Wv.shape[1]])
            e = {'eigenvalues': [[float(z.real), float(z.imag)] for z in lam], 'copyingScore': float(np.sum(lam.real) / np.sum(np.abs(lam))) if np.sum(np.abs(lam)) > 0 else 0.0}
        off += Wv.shape[1]
        heads.append({'wq': sv(Wq), 'wk': sv(Wk), 'wv': sv(Wv), 'qk': sv(Wq @ Wk.T)[:min(d, dk)], 'ov': e})
    H = len(sp['heads'])
    ov = {r: [[1.0 if i == j else overlap(np.array(sp['heads'][i][r], dtype=float), np.array(sp['heads'][j][r], dtype=float)) for j in range(H)] for i in range(H)] for r in ('wq', 'wk', 'wv')}
    X = np.array([sp['embeddings'][t] for t in sp['inputs'][0]['tokens']], dtype=float)
    cov = np.cov(X, rowvar=False, ddof=1).reshape(X.shape[1], X.shape[1]).tolist() if X.shape[0] > 1 else None
    out.append({'heads': heads, 'overlap': ov, 'cov': cov})
print(json.dumps(out))`;
  const r = spawnSync(python!, ['-c', script], { input: JSON.stringify(specs), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const ref = JSON.parse(r.stdout);
  const near = (a: number, b: number, scale: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, scale), `${what}: ${a} vs numpy ${b}`);
  const vec = (a: number[], b: number[], what: string) => {
    assert.equal(a.length, b.length, what);
    const scale = Math.max(0, ...b.map(Math.abs));
    a.forEach((v, i) => near(v, b[i], scale, `${what}[${i}]`));
  };
  ours.forEach((o, k) => {
    o.heads.forEach((h, i) => {
      const e = ref[k].heads[i];
      vec(h.wq.singularValues, e.wq, `spec ${k} head ${i} wq`);
      vec(h.wk.singularValues, e.wk, `spec ${k} head ${i} wk`);
      vec(h.wv.singularValues, e.wv, `spec ${k} head ${i} wv`);
      vec(h.qk.singularValues, e.qk, `spec ${k} head ${i} qk`);
      assert.equal(h.ov === null, e.ov === null, `spec ${k} head ${i}: ov present`);
      if (h.ov && e.ov) {
        // Eigenvalues as a multiset: each of numpy's matched to the nearest of ours.
        const scale = Math.max(1, ...e.ov.eigenvalues.map(([re, im]: number[]) => Math.hypot(re, im)));
        const left = [...h.ov.eigenvalues];
        for (const [re, im] of e.ov.eigenvalues as number[][]) {
          let best = 0;
          left.forEach((z, j) => { if (Math.hypot(z[0] - re, z[1] - im) < Math.hypot(left[best][0] - re, left[best][1] - im)) best = j; });
          const z = left.splice(best, 1)[0];
          assert.ok(Math.hypot(z[0] - re, z[1] - im) <= 1e-8 * scale, `spec ${k} head ${i}: eigenvalue ${z} vs numpy ${re}+${im}i`);
        }
        near(h.ov.copyingScore, e.ov.copyingScore, 1, `spec ${k} head ${i} copying score`);
      }
    });
    for (const role of ['wq', 'wk', 'wv'] as const) {
      o.headOverlap[role].forEach((row, i) => row.forEach((v, j) => near(v, ref[k].overlap[role][i][j], 1, `spec ${k} overlap ${role}[${i}][${j}]`)));
    }
    if (ref[k].cov === null) assert.equal(o.inputs[0].covariance, null);
    else o.inputs[0].covariance!.forEach((row, i) => row.forEach((v, j) => near(v, ref[k].cov[i][j], 1, `spec ${k} cov[${i}][${j}]`)));
  });
});

test('the seed\'s lens: W_Q of "tech lens" has two singular values; identity heads have d_model ones; identical heads overlap fully', () => {
  const a = analyzeSpec(readSpec(exampleText('apple-watch-lens.attn.json')).spec!);
  assert.deepEqual(a.heads[0].wq.singularValues, [1, 1, 1]);
  assert.equal(a.heads[1].wq.singularValues.length, 2);
  assert.equal(a.heads[0].ov, null, 'no W_O: no OV circuit');
  assert.equal(a.headOverlap.wq[0][0], 1);
  // Orthogonal one-column heads: overlap 0.
  const b = analyzeSpec(readSpec(JSON.stringify({ embeddings: { a: [1, 0], b: [0, 1] }, inputs: [{ tokens: ['a'] }],
    heads: [{ wq: [[1], [0]], wk: [[1], [0]] }, { wq: [[0], [1]], wk: [[0], [1]] }] })).spec!);
  assert.equal(b.headOverlap.wq[0][1], 0);
  assert.equal(b.inputs[0].covariance, null, 'one token: no covariance');
});

test('a rotation as the OV circuit has eigenvalues ±i and copying score 0; the identity copies perfectly (score 1)', () => {
  const rot = analyzeSpec(readSpec(JSON.stringify({ embeddings: { a: [1, 0] }, inputs: [{ tokens: ['a'] }], heads: [{}], wo: [[0, -1], [1, 0]] })).spec!);
  assert.deepEqual(rot.heads[0].ov!.eigenvalues.map(([re, im]) => [Math.round(re * 1e12) / 1e12, Math.round(im * 1e12) / 1e12]), [[0, 1], [0, -1]]);
  assert.ok(Math.abs(rot.heads[0].ov!.copyingScore) < 1e-12);
  const id = analyzeSpec(readSpec(JSON.stringify({ embeddings: { a: [1, 0] }, inputs: [{ tokens: ['a'] }], heads: [{}], wo: 'identity' })).spec!);
  assert.equal(id.heads[0].ov!.copyingScore, 1);
});

test('attn analyze --json prints the contract\'s keys; a d_model too large to analyse is refused before any work', async () => {
  const out: string[] = [];
  const code = await run(['analyze', join(EXAMPLES, 'multi-head-causal.attn.json'), '--json'], { out: (t) => out.push(t), err: () => {} });
  assert.equal(code, 0);
  const json = JSON.parse(out.join('\n'));
  assert.deepEqual(Object.keys(json), ['heads', 'headOverlap', 'inputs']);
  assert.deepEqual(Object.keys(json.heads[0]), ['name', 'wq', 'wk', 'wv', 'qk', 'ov']);
  assert.deepEqual(Object.keys(json.headOverlap), ['wq', 'wk', 'wv']);
  const big = readSpec(`{"embeddings":{"a":[${new Array(1100).fill(0).join(',')}]},"inputs":[{"tokens":["a"]}],"heads":[{}]}`).spec!;
  assert.match(analyzeOverLimit(big) ?? '', /over the 4 billion limit/);
});

test('eigenvalues of a matrix of 1e-313 entries end (the QR iteration never did) and are the unit matrix\'s times 1e-313; an overflowed matrix has NaN ones, not an endless loop', { timeout: 20_000 }, () => {
  const rand = seeded(77);
  for (let k = 0; k < 50; k++) {
    const d = between(rand, 2, 5);
    const unit: Matrix = { rows: d, cols: d, data: Float64Array.from({ length: d * d }, () => rand() * 2 - 1) };
    const scale = 2 ** -between(rand, 1000, 1040); // entries down to about 1e-313, into the denormals
    const tiny = eigenvalues({ ...unit, data: unit.data.map((v) => v * scale) });
    const want = eigenvalues(unit);
    tiny.forEach(([re, im], i) => {
      assert.ok(Math.abs(re - want[i][0] * scale) <= 1e-9 * Math.hypot(...want[0]) * scale + 1e-320, `case ${k}: λ${i} ${re} vs ${want[i][0] * scale}`);
      assert.ok(Math.abs(Math.abs(im) - Math.abs(want[i][1]) * scale) <= 1e-9 * Math.hypot(...want[0]) * scale + 1e-320, `case ${k}: λ${i} im`);
    });
  }
  assert.deepEqual(eigenvalues({ rows: 2, cols: 2, data: Float64Array.from([Infinity, 0, 0, 1]) }).flat().map(Number.isNaN), [true, true, true, true]);
});

/** A spec of these shapes only (the cost estimates read shapes, never numbers): nothing is allocated. */
function shapes(d: number, heads: { dk: number; dv: number }[], tokens = 4): Spec {
  const w = (cols: number) => ({ matrix: { rows: d, cols, data: new Float64Array(0) }, identity: false });
  return {
    dModel: d, heads: heads.map((h, i) => ({ name: `h${i}`, wq: w(h.dk), wk: w(h.dk), wv: w(h.dv) })), headsGiven: true,
    inputs: [{ name: 'in', tokens: Array.from({ length: tokens }, () => ({ text: 't', embedding: new Float64Array(0), inline: false })) }],
  } as unknown as Spec;
}

test('the analyze and spectrum limits name the dimension that is over: d_model when it is large and d_k small, d_k (or d_v) in the reverse, the heads when there are many: 300 generated shapes around the limits', () => {
  const rand = seeded(5151);
  const seen = { d: 0, dk: 0, dv: 0, heads: 0 };
  for (let k = 0; k < 300; k++) {
    const kind = (['d', 'dk', 'dv', 'heads'] as const)[k % 4];
    const big = Math.round(2 ** (10 + rand() * 10)), small = between(rand, 1, 48);
    const spec = kind === 'd' ? shapes(big, [{ dk: small, dv: small }])
      : kind === 'dk' ? shapes(small, [{ dk: big, dv: small }])
        : kind === 'dv' ? shapes(small, [{ dk: small, dv: big }])
          : shapes(between(rand, 48, 96), Array.from({ length: between(rand, 100, 200) }, () => ({ dk: 64, dv: 64 })));
    const message = analyzeOverLimit(spec);
    if (message === undefined) { assert.ok(analyzeWork(spec) <= 4e9); continue; }
    seen[kind]++;
    if (message.startsWith('the covariances')) {
      // Within the work, a wide d_model's covariance (d_model² numbers) is still too many to hold and print.
      assert.equal(kind, 'd', `shape ${k}: ${message}`);
      assert.match(message, new RegExp(`^the covariances of 1 input\\(s\\) at d_model ${big} hold [\\d,]+ numbers \\(d_model² each\\), over the 4,194,304 limit: use a smaller d_model$`));
      assert.ok(covarianceNumbers(spec) > MAX_COVARIANCE_NUMBERS && analyzeWork(spec) <= 4e9);
      continue;
    }
    const want = kind === 'd' ? `mostly for its d_model ${big}: use a smaller d_model`
      : kind === 'dk' ? `mostly for its d_k ${big} of head "h0": use a smaller d_k`
        : kind === 'dv' ? `mostly for its d_v ${big} of head "h0": use a smaller d_v`
          : `mostly for its ${spec.heads.length} heads: use fewer heads`;
    assert.ok(message.includes(want), `shape ${k} (${kind}): ${message}`);
    // The head to make smaller is named with the widths that make it costly.
    const h0 = spec.heads[0];
    if (kind !== 'heads') assert.ok(message.includes(`, of which head "h0" (W_Q and W_K d_model ${spec.dModel} × d_k ${h0.wq.matrix.cols}, W_V ${spec.dModel} × d_v ${h0.wv.matrix.cols}) takes `), `shape ${k}: ${message}`);
    else assert.match(message, /, of which head "h\d+" \(W_Q and W_K d_model \d+ × d_k 64, W_V \d+ × d_v 64\) takes [\d.]+ (billion|million), mostly/);
    if (kind !== 'heads') {
      const spectrum = spectrumOverLimit(spec, 0);
      if (spectrum !== undefined) {
        if (kind === 'd') assert.doesNotMatch(spectrum, /mostly/, `shape ${k}: d_model is named first`);
        else assert.ok(spectrum.includes(want.replace(/ of head "h0"/, ' of head "h0"')), `shape ${k} (${kind}): ${spectrum}`);
      }
    }
  }
  assert.ok(Object.values(seen).every((c) => c >= 20), JSON.stringify(seen));
});

test('a square head past the limit is named with its widths: d_model 1,918 × d_k 1,918', () => {
  const message = analyzeOverLimit(shapes(1918, [{ dk: 1918, dv: 1918 }]));
  assert.match(message ?? '', /^analysing 1 head\(s\) at d_model 1918 needs about \d+ billion multiply-adds, over the 4 billion limit, of which head "h0" \(W_Q and W_K d_model 1918 × d_k 1918, W_V 1918 × d_v 1918\) takes \d+ billion, mostly for its d_model 1918: use a smaller d_model$/);
});

test('the covariances are bounded by the numbers they hold: 2,261 features × 5 inputs is refused though its work is allowed', () => {
  const spec = shapes(2261, [{ dk: 10, dv: 10 }], 8);
  const five = { ...spec, inputs: Array(5).fill(spec.inputs[0]) } as Spec;
  assert.ok(analyzeWork(five) <= 4e9);
  assert.equal(covarianceNumbers(five), 5 * 2261 ** 2);
  assert.equal(analyzeOverLimit(five), 'the covariances of 5 input(s) at d_model 2261 hold 25,560,605 numbers (d_model² each), over the 4,194,304 limit: use a smaller d_model or fewer inputs');
  assert.equal(analyzeOverLimit(shapes(2048, [{ dk: 4, dv: 4 }], 8)), undefined, 'one input at 2,048 fits');
});
