// Spectrum extras: condition number, effective and stable rank, and the 2-D picture of a
// matrix (the circle's image, singular and eigen-directions), against numpy on random matrices and
// against direct checks (v·M = σu, x·M = λx) that need no library.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRandom } from '../../../../src/core/linalg/random.js';
import { singularValues } from '../../../../src/core/linalg/analyze.js';
import { conditionNumber, effectiveRank, eigen2, planePicture, restriction, singular2, stableRank, topTwo, type Mat2 } from '../../../../src/core/linalg/spectrum.js';
import type { Matrix } from '../../../../src/core/linalg/matrix.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const numpy = (script: string, input: unknown) => {
  const r = spawnSync(python!, ['-c', `import json, sys, numpy as np\n${script}`], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const noNumpy = python ? false : 'numpy is not installed (npm test\'s setup installs python3-numpy)';

const random = createRandom(2026);
const randomMatrix = (rows: number, cols: number): Matrix => ({ rows, cols, data: Float64Array.from({ length: rows * cols }, () => random.gaussian()) });
const rowsOf = (m: Matrix) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
const close = (a: number, b: number, scale: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, scale), `${what}: ${a} vs ${b}`);
/** Equal up to sign, as singular and eigenvectors are. */
const sameDirection = (a: ArrayLike<number>, b: ArrayLike<number>, what: string) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  const s = dot < 0 ? -1 : 1;
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - s * b[i]) < 1e-9, `${what}: ${Array.from(a)} vs ${Array.from(b)}`);
};

test('condition number: σ_max/σ_min; null (singular) for zero, rank-deficient and empty; effective and stable rank on known spectra', () => {
  assert.equal(conditionNumber([3, 0.5], 2, 2), 6);
  assert.equal(conditionNumber([1, 0], 2, 2), null);
  assert.equal(conditionNumber([2, 1e-17], 2, 2), null, 'rounding\'s σ_min of an exactly singular matrix');
  assert.equal(conditionNumber([0, 0], 2, 2), null);
  assert.equal(conditionNumber([], 0, 0), null);
  assert.equal(conditionNumber(singularValues({ rows: 3, cols: 3, data: Float64Array.from([1, 2, 3, 2, 4, 6, 1, 1, 1]) }), 3, 3), null);
  for (const k of [1, 2, 5, 64]) assert.ok(Math.abs(effectiveRank(new Array(k).fill(0.7)) - k) < 1e-12, `${k} equal values`);
  assert.equal(effectiveRank([4, 0, 0]), 1);
  assert.equal(effectiveRank([0, 0]), 0);
  assert.ok(effectiveRank([10, 1, 0.1]) > 1 && effectiveRank([10, 1, 0.1]) < 2);
  assert.equal(stableRank([2, 2, 2]), 3);
  assert.equal(stableRank([2, 1]), 1.25);
  assert.equal(stableRank([0]), 0);
});

test('condition number, effective rank and stable rank agree with numpy on random matrices', { skip: noNumpy }, () => {
  const ms = [[2, 2], [3, 3], [5, 3], [3, 5], [8, 8], [40, 6], [1, 4]].map(([r, c]) => randomMatrix(r, c));
  // A rank-deficient one: numpy says ~1e16 or inf, we say singular.
  ms.push({ rows: 3, cols: 3, data: Float64Array.from([1, 2, 3, 2, 4, 6, 3, 6, 9]) });
  const ref = numpy(`
out = []
for M in json.load(sys.stdin):
    M = np.array(M, dtype=float)
    s = np.linalg.svd(M, compute_uv=False)
    p = s / s.sum()
    c = float(np.linalg.cond(M))
    out.append({'cond': c if np.isfinite(c) else None, 'erank': float(np.exp(-(p[p > 0] * np.log(p[p > 0])).sum())), 'srank': float((s ** 2).sum() / s[0] ** 2), 'rank': int(np.linalg.matrix_rank(M))})
print(json.dumps(out))`, ms.map(rowsOf));
  ms.forEach((m, k) => {
    const s = singularValues(m);
    const c = conditionNumber(s, m.rows, m.cols);
    if (ref[k].rank < Math.min(m.rows, m.cols)) assert.equal(c, null, `matrix ${k} is singular`);
    else close(c!, ref[k].cond, ref[k].cond, `matrix ${k} cond`);
    close(effectiveRank(s), ref[k].erank, 1, `matrix ${k} effective rank`);
    close(stableRank(s), ref[k].srank, 1, `matrix ${k} stable rank`);
  });
});

test('2 × 2 singular and eigen-directions agree with numpy (row convention: svd\'s U are inputs, eig of Mᵀ gives x·M = λx)', { skip: noNumpy }, () => {
  const ms: Mat2[] = Array.from({ length: 40 }, () => [[random.gaussian(), random.gaussian()], [random.gaussian(), random.gaussian()]]);
  ms.push([[3, 0], [0, 0.5]], [[1, 1], [0, 1]], [[2, 1], [1, 2]], [[0, -1], [1, 0]], [[1, 2], [2, 4]]);
  const ref = numpy(`
out = []
for M in json.load(sys.stdin):
    M = np.array(M, dtype=float)
    U, s, Vt = np.linalg.svd(M)
    w, X = np.linalg.eig(M.T)
    out.append({'s': s.tolist(), 'U': U.T.tolist(), 'V': Vt.tolist(), 'w': [[float(z.real), float(z.imag)] for z in w], 'X': [[float(v) for v in X[:, i].real] for i in range(2)], 'real': bool(np.all(np.abs(w.imag) == 0))})
print(json.dumps(out))`, ms);
  ms.forEach((m, k) => {
    const [a, b] = singular2(m);
    const e = ref[k];
    close(a.sigma, e.s[0], e.s[0], `matrix ${k} σ₁`);
    close(b.sigma, e.s[1], e.s[0], `matrix ${k} σ₂`);
    if (e.s[0] - e.s[1] > 1e-6) {
      sameDirection(a.input, e.U[0], `matrix ${k} v₁`);
      if (e.s[1] > 1e-6) sameDirection(b.input, e.U[1], `matrix ${k} v₂`);
    }
    // Direct: v·M has length σ, whatever the library says.
    close(Math.hypot(...a.output), a.sigma, a.sigma, `matrix ${k} |v₁·M|`);
    const { eigenvalues, directions } = eigen2(m);
    const left = [...eigenvalues];
    for (const [re, im] of e.w as number[][]) {
      const j = left.findIndex((z) => Math.hypot(z[0] - re, z[1] - im) < 1e-9 * Math.max(1, Math.hypot(re, im)));
      assert.ok(j >= 0, `matrix ${k}: eigenvalue ${re}+${im}i not among ${JSON.stringify(eigenvalues)}`);
      left.splice(j, 1);
    }
    if (!e.real) assert.equal(directions.length, 0, `matrix ${k}: complex eigenvalues keep no direction`);
    for (const { lambda, direction: x } of directions) {
      const xm = [x[0] * m[0][0] + x[1] * m[1][0], x[0] * m[0][1] + x[1] * m[1][1]];
      assert.ok(Math.hypot(xm[0] - lambda * x[0], xm[1] - lambda * x[1]) < 1e-9 * Math.max(1, Math.abs(lambda)), `matrix ${k}: x·M = λx for λ = ${lambda}`);
      if (e.real && Math.abs(e.w[0][0] - e.w[1][0]) > 1e-6) {
        const i = Math.abs(e.w[0][0] - lambda) < Math.abs(e.w[1][0] - lambda) ? 0 : 1;
        sameDirection(x, e.X[i], `matrix ${k} eigen-direction for ${lambda}`);
      }
    }
  });
});

test('the picture: the circle\'s image is the ellipse with axes σ₁, σ₂; a shear keeps one direction, a rotation none, λI all', () => {
  const m: Mat2 = [[2, 1], [0.5, 1.5]];
  const p = planePicture(m, 64);
  assert.equal(p.circle.length, 128);
  const [s1, s2] = p.singular;
  const u1 = s1.output.map((v) => v / s1.sigma), u2 = s2.output.map((v) => v / s2.sigma);
  for (let i = 0; i < 64; i++) {
    const x = p.image[2 * i], y = p.image[2 * i + 1];
    assert.ok(Math.abs(Math.hypot(p.circle[2 * i], p.circle[2 * i + 1]) - 1) < 1e-15);
    const a = (x * u1[0] + y * u1[1]) / s1.sigma, b = (x * u2[0] + y * u2[1]) / s2.sigma;
    assert.ok(Math.abs(a * a + b * b - 1) < 1e-12, `point ${i} on the ellipse`);
  }
  const shear = planePicture([[1, 1], [0, 1]]);
  assert.deepEqual(shear.eigenDirections.map((d) => [d.lambda, d.direction.map(Math.abs)]), [[1, [0, 1]]]);
  const rotation = planePicture([[0, 1], [-1, 0]]);
  assert.deepEqual(rotation.eigenDirections, []);
  assert.deepEqual(rotation.eigenvalues, [[0, 1], [0, -1]]);
  assert.equal(planePicture([[2, 0], [0, 2]]).eigenDirections.length, 2);
  const zero = planePicture([[0, 0], [0, 0]]);
  assert.ok(zero.singular.every((s) => s.sigma === 0) && Array.from(zero.image).every((v) => v === 0));
  for (const q of [p, shear, rotation, zero]) {
    assert.equal(q.finite, true);
    for (const v of [...q.image, ...q.circle]) assert.ok(Number.isFinite(v));
  }
  assert.equal(planePicture([[1e300, 1e300], [1e300, 1]]).finite, false, 'M·Mᵀ overflows: said, not drawn as NaN');
});

test('restriction picks the 2 × 2 block (features i, j to outputs a, b) and refuses indices outside', () => {
  const m: Matrix = { rows: 3, cols: 2, data: Float64Array.from([1, 2, 3, 4, 5, 6]) };
  assert.deepEqual(restriction(m, [0, 2], [0, 1]), [[1, 2], [5, 6]]);
  assert.deepEqual(restriction(m, [2, 1], [1, 0]), [[6, 5], [4, 3]]);
  assert.throws(() => restriction(m, [0, 3], [0, 1]), /row 3/);
  assert.throws(() => restriction(m, [0, 2]), /column 2/);
});

test('the top-two plane of any matrix: σ₁ ≥ σ₂ as numpy\'s, v·M = σu, inputs as numpy\'s U up to sign', { skip: noNumpy }, () => {
  const ms = [[5, 3], [3, 5], [6, 6], [40, 8], [1, 3], [3, 1]].map(([r, c]) => randomMatrix(r, c));
  const ref = numpy(`
out = []
for M in json.load(sys.stdin):
    M = np.array(M, dtype=float)
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    out.append({'s': s[:2].tolist(), 'U': U.T[:2].tolist()})
print(json.dumps(out))`, ms.map(rowsOf));
  ms.forEach((m, k) => {
    const t = topTwo(m);
    const sig = [t.matrix[0][0], t.matrix[1][1]];
    ref[k].s.forEach((s: number, i: number) => close(sig[i], s, ref[k].s[0], `matrix ${k} σ${i + 1}`));
    if (ref[k].s.length < 2) assert.equal(sig[1], 0);
    ref[k].U.forEach((u: number[], i: number) => sameDirection(t.inputs[i], u, `matrix ${k} v${i + 1}`));
    for (let i = 0; i < ref[k].s.length; i++) {
      for (let c = 0; c < m.cols; c++) {
        let xm = 0;
        for (let r = 0; r < m.rows; r++) xm += t.inputs[i][r] * m.data[r * m.cols + c];
        close(xm, sig[i] * t.outputs[i][c], sig[0], `matrix ${k}: (v${i + 1}·M)[${c}] = σu`);
      }
    }
  });
});
