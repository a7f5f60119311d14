// npm run bench: the core's compute for a realistic layer (d_model 768, 12 heads of d_k = d_v = 64,
// causal, W_O 768 × 768) at n = 16, 128 and 512 tokens, in ms and GFLOP/s, on one thread and on two
// (the later half of the heads on a worker thread, core/threads/heads-thread.ts, as the analysis worker
// and the CLI run it), beside the same layer in PyTorch and numpy float64 (scripts/bench_reference.py,
// with whichever of python3 and /usr/bin/python3 has each) and the ratio; then reading + computing the
// examples end to end. Figures, not assertions: timing belongs here, not in tests.
//
//   npm run -s bench                          the table above (--no-reference: without python)
//   npm run -s bench -- --json                only {"compute": [{"n": 16, "ms": median}, …], "computeOneThread": […]}
//                                             on stdout ("compute": two threads, as the product runs),
//                                             and the same in test-results/bench.json
//   npm run -s bench -- --json --reference    … plus "reference": [{"backend", "threads", "compute"}] (1 and 2 threads)
// (-s keeps npm's own "> attention-lens bench" banner off stdout.)
import { medianMs as time } from './median-time.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeAttention } from '../src/core/attention/attention.js';
import { sourceHeadsThread } from '../test/support/heads-thread.js';
import { wasmKernelAvailable } from '../src/core/kernels/gemm.js';
import { analyze } from '../src/core/index.js';
import { toJson } from '../src/core/result/result-json.js';
import { zeros, type Matrix } from '../src/core/linalg/matrix.js';
import type { HeadSpec, Spec, TokenSpec } from '../src/core/spec/spec.js';

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


interface Reference {
  readonly backend: string;
  readonly threads: number;
  readonly compute: readonly { n: number; ms: number }[];
}

/** The same layer in PyTorch or numpy (`backend`) on that many threads, with the first Python that has it, or why not. */
function reference(sizes: readonly number[], threads: number, backend: 'torch' | 'numpy'): Reference | string {
  const script = join(__dirname, 'bench_reference.py');
  let why = '';
  for (const python of ['python3', '/usr/bin/python3']) {
    const run = spawnSync(python, [script, '--sizes', sizes.join(','), '--threads', String(threads), '--backend', backend], { encoding: 'utf8', timeout: 300_000 });
    if (run.error) { why ||= `${python} did not run (${run.error.message})`; continue; }
    if (run.status !== 0) { why = `bench_reference.py --backend ${backend} failed: ${(run.stderr || '').trim().split('\n').pop()}`; continue; }
    try {
      return JSON.parse(run.stdout) as Reference;
    } catch {
      why = 'bench_reference.py printed no JSON';
    }
  }
  return why;
}

const args = process.argv.slice(2);
const json = args.includes('--json');
const withReference = json ? args.includes('--reference') : !args.includes('--no-reference');
const sizes = [16, 128, 512];
const say = (line: string) => { if (!json) console.log(line); };

say(`core compute, d_model 768, 12 heads, d_k = d_v = 64, causal, with W_O (median of repeated runs; ${wasmKernelAvailable() ? 'WebAssembly SIMD kernel' : 'plain JavaScript loops'})`);
say('    n   1 thread ms   2 threads ms   GFLOP/s (2)   toJson ms');
const compute: { n: number; ms: number }[] = [];
const computeOneThread: { n: number; ms: number }[] = [];
const thread = sourceHeadsThread();
for (const n of sizes) {
  const spec = layer(n);
  const one = time(() => computeAttention(spec));
  const two = time(() => computeAttention(spec, { helper: thread }));
  computeOneThread.push({ n, ms: Number(one.toFixed(3)) });
  compute.push({ n, ms: Number(two.toFixed(3)) });
  if (json) continue;
  const result = computeAttention(spec);
  const jsonMs = time(() => toJson(spec, result), 200, 2);
  say(`${String(n).padStart(5)}   ${one.toFixed(2).padStart(11)}   ${two.toFixed(2).padStart(12)}   ${(flops(n) / two / 1e6).toFixed(2).padStart(11)}   ${jsonMs.toFixed(2).padStart(9)}`);
}
void thread.close();

// One thread and two: on a shared machine, a BLAS on two threads can lose more to waiting than it gains.
const refs = withReference ? (['torch', 'numpy'] as const).flatMap((backend) => [1, 2].map((threads) => reference(sizes, threads, backend))) : [];
if (json) {
  const row = (r: { n: number; ms: number }) => `{ "n": ${r.n}, "ms": ${r.ms} }`;
  const one = (r: Reference | string) => typeof r === 'string'
    ? `{ "error": ${JSON.stringify(r)} }`
    : `{ "backend": ${JSON.stringify(r.backend)}, "threads": ${r.threads}, "compute": [ ${r.compute.map(row).join(', ')} ] }`;
  const extra = withReference ? `, "reference": [ ${refs.map(one).join(', ')} ]` : '';
  const line = `{ "compute": [ ${compute.map(row).join(', ')} ], "computeOneThread": [ ${computeOneThread.map(row).join(', ')} ]${extra} }`;
  // Also in a file, like bench:vscode's: `npm run` without -s writes its own banner on stdout.
  mkdirSync(join(__dirname, '..', 'test-results'), { recursive: true });
  writeFileSync(join(__dirname, '..', 'test-results', 'bench.json'), line + '\n');
  console.log(line);
  process.exit(0);
}
for (const ref of refs) {
  if (typeof ref === 'string') {
    say(`\nreference: not measured: ${ref}`);
    continue;
  }
  say(`\nthe same layer in ${ref.backend} on ${ref.threads} thread${ref.threads === 1 ? '' : 's'} (scripts/bench_reference.py), same machine, same run`);
  say('    n   reference ms   core 1 thread ÷ reference   core 2 threads ÷ reference');
  for (const r of ref.compute) {
    const one = computeOneThread.find((c) => c.n === r.n), two = compute.find((c) => c.n === r.n);
    if (one && two) say(`${String(r.n).padStart(5)}   ${r.ms.toFixed(2).padStart(12)}   ${(one.ms / r.ms).toFixed(2).padStart(24)}×   ${(two.ms / r.ms).toFixed(2).padStart(25)}×`);
  }
}

console.log('\nread + compute + JSON form of the examples (what one edit costs the extension host)');
const dir = join(__dirname, '..', 'examples');
for (const f of readdirSync(dir).filter((x) => x.endsWith('.attn.json')).sort()) {
  const text = readFileSync(join(dir, f), 'utf8');
  console.log(`  ${f.padEnd(34)} ${(time(() => analyze(text), 200, 20) * 1000).toFixed(0).padStart(6)} µs`);
}
