// Property-based: for random small specs, the core agrees with the plain reference.
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeOk, assertInDelta } from '../../../support/specs.js';
import { referenceAttention } from '../../../support/reference.js';

const small = fc.double({ min: -3, max: 3, noNaN: true, noDefaultInfinity: true }).map((v) => Math.round(v * 100) / 100);
const matrix = (rows: number, cols: number) => fc.array(fc.array(small, { minLength: cols, maxLength: cols }), { minLength: rows, maxLength: rows });

const specArb = fc.record({ n: fc.integer({ min: 1, max: 6 }), d: fc.integer({ min: 1, max: 5 }), dk: fc.integer({ min: 1, max: 4 }), dv: fc.integer({ min: 1, max: 4 }) })
  .chain(({ n, d, dk, dv }) => fc.record({
    x: matrix(n, d), wq: matrix(d, dk), wk: matrix(d, dk), wv: matrix(d, dv),
    causal: fc.boolean(), scale: fc.constantFrom<'sqrt_dk' | 'none' | number>('sqrt_dk', 'none', 2.5),
  }));

function close(a: number[][], b: number[][]) {
  a.forEach((r, i) => r.forEach((v, j) => assertInDelta(v, b[i][j], 1e-9 * Math.max(1, Math.abs(b[i][j])))));
}

test('Q, K, V, scores, weights and output match the plain reference', () => {
  fc.assert(fc.property(specArb, ({ x, wq, wk, wv, causal, scale }) => {
    const embeddings = Object.fromEntries(x.map((row, i) => [`t${i}`, row]));
    const { json } = analyzeOk({
      embeddings, inputs: [{ tokens: x.map((_, i) => `t${i}`) }],
      heads: [{ wq, wk, wv }], scale, mask: causal ? 'causal' : 'none',
    });
    const dk = wq[0].length;
    const divisor = scale === 'sqrt_dk' ? Math.sqrt(dk) : scale === 'none' ? 1 : scale;
    const ref = referenceAttention(x, wq, wk, wv, divisor, causal);
    const h = json.inputs[0].heads[0];
    close(h.q, ref.q); close(h.k, ref.k); close(h.v, ref.v);
    close(h.scores, ref.scores); close(h.weights, ref.weights); close(h.output, ref.output);
    if (causal) h.scaled.forEach((r, i) => r.forEach((v, j) => { if (j > i && v !== null) throw new Error('masked entry not null'); }));
  }), { numRuns: 200 });
});

test('with W_O, the output is the heads side by side times W_O', () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.array(small, { minLength: 8, maxLength: 8 }), (n, wflat) => {
    const wo = [wflat.slice(0, 2), wflat.slice(2, 4), wflat.slice(4, 6), wflat.slice(6, 8)];
    const tokens = Array.from({ length: n }, (_, i) => `t${i}`);
    const embeddings = Object.fromEntries(tokens.map((t, i) => [t, [i + 1, 1 - i]]));
    const { json } = analyzeOk({ embeddings, inputs: [{ tokens }], heads: [{}, { wv: [[2, 0], [0, 3]] }], wo });
    const input = json.inputs[0];
    input.concat.forEach((row, i) => {
      assertInDelta(row[0], input.heads[0].output[i][0]);
      assertInDelta(row[3], input.heads[1].output[i][1]);
      for (let j = 0; j < 2; j++) assertInDelta(input.output[i][j], row.reduce((s, v, t) => s + v * wo[t][j], 0), 1e-9);
    });
  }), { numRuns: 100 });
});
