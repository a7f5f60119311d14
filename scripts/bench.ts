// npm run bench: the core's compute for a realistic layer (d_model 768, 12 heads of d_k = d_v = 64,
// W_O 768 × 768) at n = 16, 128 and 512 tokens, in ms and GFLOP/s; then reading + computing the
// examples end to end. Figures, not assertions: timing belongs here, not in tests.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { computeAttention } from '../src/core/attention.js';
import { analyze } from '../src/core/index.js';
import { toJson } from '../src/core/result-json.js';
import { zeros, type Matrix } from '../src/core/matrix.js';
import type { HeadSpec, Spec, TokenSpec } from '../src/core/spec.js';

function random(rows: number, cols: number, seed: number): Matrix {
  const m = zeros(rows, cols);
  let s = seed;
  for (let i = 0; i < m.data.length; i++) {
    s = (s * 1103515245 + 12345) % 2147483648; // a fixed LCG: the same numbers every run
    m.data[i] = (s / 2147483648 - 0.5) * 0.2;
  }
  return m;
}

function layer(n: number, dModel = 768, heads = 12, dk = 64): Spec {
  const w = (seed: number) => ({ matrix: random(dModel, dk, seed), identity: false });
  const x = random(n, dModel, 7);
  const tokens: TokenSpec[] = Array.from({ length: n }, (_, i) => ({ text: `t${i}`, embedding: x.data.slice(i * dModel, (i + 1) * dModel), inline: true }));
  const headSpecs: HeadSpec[] = Array.from({ length: heads }, (_, h) => ({ name: `head ${h}`, wq: w(3 * h + 1), wk: w(3 * h + 2), wv: w(3 * h + 3) }));
  return {
    dModel, features: Array.from({ length: dModel }, (_, i) => `d${i}`), featuresGiven: false, embeddings: new Map(),
    inputs: [{ name: 'bench', tokens }], heads: headSpecs, headsGiven: true,
    wo: { matrix: random(heads * dk, dModel, 99), identity: false },
    scale: { kind: 'sqrt_dk' }, mask: 'causal', views: {},
  };
}

function flops(n: number, dModel = 768, heads = 12, dk = 64): number {
  const projections = 3 * 2 * n * dModel * dk;
  const attention = 2 * n * n * dk + 2 * n * n * dk; // Q·Kᵀ and weights·V
  return heads * (projections + attention) + 2 * n * heads * dk * dModel; // + W_O
}

function time(fn: () => void, minMs = 500, minRuns = 3): number {
  fn(); // warm up the JIT
  const times: number[] = [];
  const start = performance.now();
  while (times.length < minRuns || performance.now() - start < minMs) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]; // the median
}

console.log('core compute, d_model 768, 12 heads, d_k = d_v = 64, causal, with W_O (median of repeated runs)');
console.log('    n   compute ms   GFLOP/s   toJson ms');
for (const n of [16, 128, 512]) {
  const spec = layer(n);
  const ms = time(() => computeAttention(spec));
  const result = computeAttention(spec);
  const jsonMs = time(() => toJson(spec, result), 200, 2);
  console.log(`${String(n).padStart(5)}   ${ms.toFixed(2).padStart(10)}   ${(flops(n) / ms / 1e6).toFixed(2).padStart(7)}   ${jsonMs.toFixed(2).padStart(9)}`);
}

console.log('\nread + compute + JSON form of the examples (what one edit costs the extension host)');
const dir = join(__dirname, '..', 'examples');
for (const f of readdirSync(dir).filter((x) => x.endsWith('.attn.json')).sort()) {
  const text = readFileSync(join(dir, f), 'utf8');
  console.log(`  ${f.padEnd(34)} ${(time(() => analyze(text), 200, 20) * 1000).toFixed(0).padStart(6)} µs`);
}
