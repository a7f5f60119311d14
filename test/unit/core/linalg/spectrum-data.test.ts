// The Spectrum view's numbers for one head: the same singular values, OV eigenvalues and
// copying score as attn analyze, the circuits' eigenvalues from the small k × k product matching
// numpy's d × d ones (plus zeros), the pictures of the example, and nothing non-finite at d_model 300.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readSpec } from '../../../../src/core/spec/read.js';
import { analyzeSpec } from '../../../../src/core/linalg/analyze.js';
import { headSpectrum, MAX_FORMED_CIRCUIT, spectrumOverLimit } from '../../../../src/core/linalg/spectrum-data.js';
import { createRandom } from '../../../../src/core/linalg/random.js';
import { exampleText } from '../../../support/specs.js';

const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0);
const random = createRandom(31);
const m = (r: number, c: number) => Array.from({ length: r }, () => Array.from({ length: c }, () => Math.round(random.gaussian() * 1000) / 500));
function randomSpec(k: number) {
  const d = 2 + (k % 5), H = 1 + (k % 2);
  const heads = Array.from({ length: H }, (_, h) => ({ wq: m(d, 1 + ((k + h) % d)), wk: m(d, 1 + ((k + h) % d)), wv: m(d, 1 + ((k + 2 * h) % d)) }));
  const width = heads.reduce((s, h) => s + h.wv[0].length, 0);
  return { embeddings: { a: m(1, d)[0] }, inputs: [{ tokens: ['a'] }], heads, wo: m(width, d) };
}
/** Each expected eigenvalue matched to the nearest unused one of ours. */
function sameEigenvalues(ours: number[][], expected: number[][], what: string) {
  assert.equal(ours.length, expected.length, what);
  const scale = Math.max(1, ...expected.map(([re, im]) => Math.hypot(re, im)));
  const left = ours.map((z) => [...z]);
  for (const [re, im] of expected) {
    let best = 0;
    left.forEach((z, j) => { if (Math.hypot(z[0] - re, z[1] - im) < Math.hypot(left[best][0] - re, left[best][1] - im)) best = j; });
    const z = left.splice(best, 1)[0];
    assert.ok(Math.hypot(z[0] - re, z[1] - im) <= 1e-8 * scale, `${what}: ${z} vs ${re}+${im}i`);
  }
}
const withZeros = (s: { eigenvalues: readonly (readonly number[])[] | null; zeroEigenvalues: number }) => [...s.eigenvalues!.map((z) => [...z]), ...new Array(s.zeroEigenvalues).fill(0).map(() => [0, 0])];

test('the example: W_Q of "stretch" has σ 3 and 0.5 and its restriction is itself; W_O copies for head 1 and turns a quarter for head 2', () => {
  const spec = readSpec(exampleText('spectrum-stretch-shear-rotate.attn.json')).spec!;
  const [wq, , , qk, wo, ov] = headSpectrum(spec, 0);
  assert.deepEqual(Array.from(wq.singularValues), [3, 0.5]);
  assert.equal(wq.conditionNumber, 6);
  assert.deepEqual(wq.restricted!.picture.matrix, [[3, 0], [0, 0.5]]);
  assert.deepEqual(wq.eigenvalues, [[3, 0], [0.5, 0]]);
  assert.equal(qk.label, 'W_Q·W_Kᵀ');
  assert.equal(wo.label, 'W_O^h');
  assert.equal(ov.copyingScore, 1);
  const shear = headSpectrum(spec, 1);
  assert.deepEqual(shear[0].restricted!.picture.eigenDirections.map((e) => e.lambda), [1], 'a shear keeps one direction');
  const rot = shear[5];
  assert.ok(Math.abs(rot.copyingScore!) < 1e-12);
  assert.deepEqual(rot.restricted!.picture.eigenDirections, [], 'a quarter turn keeps none');
  assert.deepEqual(rot.eigenvalues!.map(([re, im]) => [Math.round(re * 1e12) / 1e12, Math.round(im * 1e12) / 1e12]), [[0, 1], [0, -1]]);
});

test('singular values, OV eigenvalues and copying scores are attn analyze\'s, from the small products', () => {
  for (let k = 0; k < 30; k++) {
    const spec = readSpec(JSON.stringify(randomSpec(k))).spec!;
    const a = analyzeSpec(spec);
    spec.heads.forEach((_, h) => {
      const s = headSpectrum(spec, h);
      const by = Object.fromEntries(s.map((x) => [x.name, x]));
      for (const role of ['wq', 'wk', 'wv', 'qk'] as const) {
        const want = a.heads[h][role].singularValues;
        Array.from(by[role].singularValues).forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 1e-9 * Math.max(1, want[0]), `spec ${k} head ${h} ${role} σ${i}`));
      }
      sameEigenvalues(withZeros(by.ov), a.heads[h].ov!.eigenvalues, `spec ${k} head ${h} OV eigenvalues`);
      assert.ok(Math.abs(by.ov.copyingScore! - a.heads[h].ov!.copyingScore) < 1e-9, `spec ${k} head ${h} copying score`);
    });
  }
});

test('the QK circuit\'s eigenvalues (d_k of them, plus d_model − d_k zeros) are numpy\'s eig of the d_model × d_model product', { skip: python ? false : 'numpy is not installed' }, () => {
  const specs = Array.from({ length: 20 }, (_, k) => randomSpec(k));
  const ref = JSON.parse(spawnSync(python!, ['-c', `
import json, sys, numpy as np
print(json.dumps([[[[float(z.real), float(z.imag)] for z in np.linalg.eigvals(np.array(h['wq']) @ np.array(h['wk']).T)] for h in sp['heads']] for sp in json.load(sys.stdin)]))`], { input: JSON.stringify(specs), encoding: 'utf8' }).stdout);
  specs.forEach((sp, k) => {
    const spec = readSpec(JSON.stringify(sp)).spec!;
    spec.heads.forEach((_, h) => sameEigenvalues(withZeros(headSpectrum(spec, h)[3]), ref[k][h], `spec ${k} head ${h} QK eigenvalues`));
  });
});

test(`past d_model ${MAX_FORMED_CIRCUIT} the circuits are not formed: no top-two picture, a restriction from row dots, every number finite`, () => {
  const d = 300;
  const text = JSON.stringify({ embeddings: { a: new Array(d).fill(0.1) }, inputs: [{ tokens: ['a'] }],
    heads: [{ wq: { init: 'xavier', shape: [d, 16], seed: 1 }, wk: { init: 'xavier', shape: [d, 16], seed: 2 }, wv: { init: 'xavier', shape: [d, 8], seed: 3 } }],
    wo: { init: 'xavier', shape: [8, d], seed: 4 } });
  const spec = readSpec(text).spec!;
  const s = headSpectrum(spec, 0, [5, 7]);
  const qk = s.find((x) => x.name === 'qk')!;
  assert.equal(qk.strongest, null);
  assert.deepEqual(qk.restricted!.rows, [5, 7]);
  const wq = spec.heads[0].wq.matrix.data, wk = spec.heads[0].wk.matrix.data;
  let e57 = 0;
  for (let t = 0; t < 16; t++) e57 += wq[5 * 16 + t] * wk[7 * 16 + t];
  assert.equal(qk.restricted!.picture.matrix[0][1], e57);
  assert.equal(qk.eigenvalues!.length + qk.zeroEigenvalues, d);
  const numbers = (v: unknown): number[] => typeof v === 'number' ? [v] : v instanceof Float64Array ? Array.from(v) : Array.isArray(v) ? v.flatMap(numbers) : v && typeof v === 'object' ? Object.values(v).flatMap(numbers) : [];
  for (const x of s) assert.ok(numbers(x).every(Number.isFinite), `${x.name}: finite`);
});

test('a head too costly for the Spectrum view is refused from its shapes (headSpectrum throws the same message); the seeds\' 512 → 64 head is not', () => {
  const seed = readSpec(exampleText('seed-projection-512-64.attn.json')).spec!;
  assert.equal(spectrumOverLimit(seed, 0), undefined);
  const d = 2048;
  const text = JSON.stringify({ embeddings: { a: new Array(d).fill(0) }, inputs: [{ tokens: ['a'] }],
    heads: [{ wq: { init: 'lecun', shape: [d, 960], seed: 1 }, wk: { init: 'lecun', shape: [d, 960], seed: 2 }, wv: { init: 'lecun', shape: [d, 8], seed: 3 } }] });
  const big = readSpec(text).spec!;
  assert.match(spectrumOverLimit(big, 0) ?? '', /^the spectrum of head 1 at d_model 2048 needs about \d+ billion multiply-adds, over the 2 billion limit$/);
  assert.throws(() => headSpectrum(big, 0), /over the 2 billion limit/);
});
