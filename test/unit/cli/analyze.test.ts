// `attn analyze FILE [--json]` (src/cli/analyze.ts): per head the singular values of W_Q, W_K, W_V
// and W_Q·W_Kᵀ with their condition number and effective rank, the OV circuit's eigenvalues when
// there is a W_O, the heads' subspace overlaps, and each input's covariance; checked against values
// worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeSpec } from '../../../src/core/linalg/analyze.js';
import { analyzeCommand } from '../../../src/cli/analyze.js';
import type { HeadsHelper } from '../../../src/core/attention/attention.js';
import { readSpec } from '../../../src/core/spec/read.js';
import { attn } from '../../support/cli.js';
import { seeded } from '../../support/random.js';
import { spreadSpec } from '../../support/spread-specs.js';
import { tempDir } from '../../support/temp-dir.js';

function tempSpec(value: unknown): string {
  const file = join(tempDir('attn-'), 'a.attn.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
}

const SPEC = {
  features: ['a', 'b'],
  embeddings: { x: [1, 0], y: [0, 2], z: [1, 1] },
  inputs: [{ name: 'one', tokens: ['x', 'y', 'z'] }, { name: 'solo', tokens: ['x'] }],
  heads: [{ name: 'diag', wq: [[3, 0], [0, 2]], wv: [[0, 1], [1, 0]] }, { name: 'id' }],
};

test('the report, head by head: W_Q = diag(3, 2) has singular values [3, 2], condition number 1.5, effective rank exp(H(0.6, 0.4))', async () => {
  const r = await attn('analyze', tempSpec(SPEC));
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  const lines = r.out.split('\n');
  // Effective rank: exp of the entropy of σ / Σσ = (0.6, 0.4).
  const erank = Math.exp(-(0.6 * Math.log(0.6) + 0.4 * Math.log(0.4)));
  assert.equal(erank.toFixed(4), '1.9601');
  assert.deepEqual(lines.slice(0, 10), [
    '-- head "diag" --',
    '  singular values of W_Q: [3, 2]',
    `    condition number 1.5, effective rank ${erank.toFixed(4)}`,
    '  singular values of W_K: [1, 1]',
    '    condition number 1, effective rank 2',
    '  singular values of W_V: [1, 1]',
    '    condition number 1, effective rank 2',
    // W_K is the identity, so W_Q·W_Kᵀ = W_Q.
    '  singular values of W_Q·W_Kᵀ (the QK circuit): [3, 2]',
    '    condition number 1.5, effective rank 1.9601',
    '',
  ]);
  assert.equal(lines[10], '-- head "id" --');
  // Without W_O there is no OV circuit to print.
  assert.doesNotMatch(r.out, /OV circuit/);
  assert.match(r.out, /subspace overlap of the heads' W_Q \(mean cos² of the principal angles\)\n {8}diag {2}id\n {2}diag {5}1 {3}1\n {2}id {7}1 {3}1/);
});

test('the covariance of x = (1, 0), y = (0, 2), z = (1, 1) is [[1/3, −1/2], [−1/2, 1]] (÷ n − 1), its first component 95.07 %', async () => {
  const r = await attn('analyze', tempSpec(SPEC));
  // Eigenvalues of the covariance: (4/3 ± √(13/9)) / 2; the first explains λ₁ / (4/3) of the variance.
  const l1 = (4 / 3 + Math.sqrt(13 / 9)) / 2;
  const first = Number((l1 / (4 / 3)).toFixed(4));
  assert.match(r.out, new RegExp([
    'covariance of the embeddings of "one" \\(÷ n − 1\\)',
    ' {10}f0 {4}f1',
    ' {2}f0 {2}0\\.3333 {2}-0\\.5',
    ' {2}f1 {4}-0\\.5 {5}1',
    `  variance explained by the principal components: \\[${first}, ${Number((1 - first).toFixed(4))}\\]`,
  ].join('\n')));
  assert.match(r.out, /covariance of "solo": fewer than 2 tokens/);
});

test('with W_O, the OV circuit\'s eigenvalues: a quarter turn gives ±i and a copying score of 0', async () => {
  const r = await attn('analyze', tempSpec({ embeddings: { x: [1, 0], y: [0, 1] }, inputs: [{ tokens: ['x', 'y'] }], heads: [{ name: 'turn', wv: [[0, -1], [1, 0]] }], wo: 'identity' }));
  assert.equal(r.code, 0, r.err);
  const line = r.out.split('\n').find((l) => l.includes('OV circuit'))!;
  assert.match(line, /^ {2}eigenvalues of W_V·W_O\^h \(the OV circuit\): (0\+1i, 0−1i|0−1i, 0\+1i)$/);
  assert.match(r.out, /\n {2}copying score \(trace \/ Σ\|λ\|\): 0\n/);
});

test('--json prints analyzeSpec\'s own numbers, as JSON', async () => {
  const file = tempSpec(SPEC);
  const r = await attn('analyze', file, '--json');
  assert.equal(r.code, 0);
  assert.deepEqual(JSON.parse(r.out), JSON.parse(JSON.stringify(analyzeSpec(readSpec(JSON.stringify(SPEC)).spec!))));
  assert.deepEqual(JSON.parse(r.out).heads[0].wq.singularValues, [3, 2]);
});

test('a broken spec is refused with its problem and exit 1, and nothing on stdout', async () => {
  const r = await attn('analyze', tempSpec({ ...SPEC, scale: 0 }));
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /a\.attn\.json:1:\d+: scale: scale must be positive/);
});

/** Whether the text `s` is v as printed: '0' only for 0, else v to within half the last digit written (formatValue's contract). */
function readsAs(s: string, v: number): boolean {
  const parsed = Number(s);
  if (!Number.isFinite(parsed)) return false;
  if (s === '0') return v === 0;
  const m = /^-?\d+(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(s);
  if (!m) return false;
  // With an exponent, half the mantissa's last digit; without, four decimals (trailing zeros dropped: 2.5 is 2.5000).
  const half = m[2] === undefined ? 0.5e-4 : 0.5 * 10 ** (Number(m[2]) - (m[1]?.length ?? 0));
  return Math.abs(parsed - v) <= half + Math.abs(v) * 1e-12;
}

test('singular values from 1e-320 to 1e300 are printed so that each reads back as itself (1.0e-300, never 0 unless 0), the condition number ∞ exactly when singular, and no NaN or Infinity: 200 generated specs', async () => {
  const rand = seeded(2020);
  let printed = 0, finiteCondition = 0, tiny = 0;
  for (let k = 0; k < 200; k++) {
    const spec = spreadSpec(rand);
    const r = await attn('analyze', tempSpec(spec));
    assert.doesNotMatch(r.out + r.err, /NaN|Infinity|undefined|null/, `spec ${k}`);
    if (r.code !== 0) {
      assert.equal(r.code, 1, `spec ${k}: ${r.err}`);
      assert.match(r.err, /the numbers grow too large to analyse/, `spec ${k}`);
      continue;
    }
    printed++;
    const a = analyzeSpec(readSpec(JSON.stringify(spec)).spec!);
    const d = (spec.features as string[]).length;
    const lines = r.out.split('\n');
    a.heads.forEach((h, i) => {
      const at = lines.indexOf(`-- head ${JSON.stringify(h.name)} --`);
      assert.ok(at >= 0, `spec ${k}: head ${h.name}`);
      (['wq', 'wk', 'wv', 'qk'] as const).forEach((role, t) => {
        const values = /: \[(.*)\]$/.exec(lines[at + 1 + 2 * t])![1].split(', ');
        const s = h[role];
        assert.equal(values.length, s.singularValues.length, `spec ${k} head ${i} ${role}`);
        values.forEach((text, j) => assert.ok(readsAs(text, s.singularValues[j]), `spec ${k} head ${i} ${role}: σ${j + 1} = ${s.singularValues[j]} printed ${text}`));
        if (s.singularValues.some((v) => v > 0 && v < 1e-290)) tiny++;
        const shape = /^ {4}condition number (.+), effective rank (.+)$/.exec(lines[at + 2 + 2 * t])!;
        assert.ok(shape, `spec ${k} head ${i} ${role}: ${lines[at + 2 + 2 * t]}`);
        const max = s.singularValues[0], min = s.singularValues[s.singularValues.length - 1];
        const dims = [d, d];
        if (shape[1] === '∞ (singular)') {
          assert.ok(min === 0 || min <= max * Math.max(dims[0], dims[1]) * Number.EPSILON, `spec ${k} head ${i} ${role}: ∞ for σ ${max} … ${min}`);
        } else {
          finiteCondition++;
          assert.ok(min > max * Math.max(dims[0], dims[1]) * Number.EPSILON, `spec ${k} head ${i} ${role}: κ for σ ${max} … ${min}`);
          assert.ok(readsAs(shape[1], max / min), `spec ${k} head ${i} ${role}: κ = ${max / min} printed ${shape[1]}`);
        }
        assert.ok(readsAs(shape[2], s.effectiveRank), `spec ${k} head ${i} ${role}: effective rank`);
      });
    });
  }
  // The family is what it says: most specs print, some with a finite κ beside values near 1e-300.
  // (Since the SVD is taken at an ordinary scale, a rank-deficient matrix's smallest value is 0
  // rather than round-off near 1e-300: 38 of the 200 draw one, where 50 did.)
  assert.ok(printed >= 120 && finiteCondition >= 50 && tiny >= 30, `printed ${printed}, finite κ ${finiteCondition}, σ below 1e-290 ${tiny}`);
});

test('W_Q = 1e-300 · diag(3, 2) prints [3.0e-300, 2.0e-300] beside condition number 1.5 (it printed [0, 0])', async () => {
  const r = await attn('analyze', tempSpec({ ...SPEC, heads: [{ name: 'tiny', wq: [[3e-300, 0], [0, 2e-300]] }] }));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /singular values of W_Q: \[3\.0e-300, 2\.0e-300\]\n {4}condition number 1\.5, effective rank 1\.9601/);
  const zero = await attn('analyze', tempSpec({ ...SPEC, heads: [{ name: 'flat', wq: [[1, 0], [0, 0]] }] }));
  assert.match(zero.out, /singular values of W_Q: \[1, 0\]\n {4}condition number ∞ \(singular\), effective rank 1/);
});

test('attn analyze hands the covariance\'s compute to the CLI\'s second thread: the later heads of each input are offered to its helper', () => {
  const offered: string[][] = [];
  const helper: HeadsHelper = { start: (_x, heads) => { offered.push(heads.map((h) => h.name)); return undefined; } };
  const out: string[] = [];
  const code = analyzeCommand({ command: 'analyze', files: [tempSpec(SPEC)], flags: new Map([['--json', true]]) }, 1 << 20, { out: (t) => out.push(t), err: () => {}, helper });
  assert.equal(code, 0);
  // Two inputs, two heads: the second head of each input is offered, and declined (computed here).
  assert.deepEqual(offered, [['id'], ['id']]);
  assert.deepEqual(JSON.parse(out.join('\n')), JSON.parse(JSON.stringify(analyzeSpec(readSpec(JSON.stringify(SPEC)).spec!))));
});
