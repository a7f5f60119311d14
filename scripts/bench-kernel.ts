// npm run bench:kernel: the float32 kernel's GFLOP/s at a forward's shapes (GPT-2 small's and
// Llama-3.2-1B's projections and MLP, at 128 and 1,024 tokens; BF16 and F32 weights in shared memory,
// as the forward keeps them), on one thread and on every core, beside numpy's float32 sgemm at the
// same shapes in the same run (Debian's numpy on OpenBLAS, both cores: the machine's practical limit)
// and the ratio. Also the plain JavaScript reference on one small shape, and the hand-over's crossover
// (a few tokens on one thread and on all) that sets kernel-thread.ts's MIN_WORK.
// Figures, not assertions: timing belongs here, not in tests.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { gemmStored, gemmStoredReference } from '../src/core/kernels/gemm32.js';
import { kernelVariant } from '../src/core/kernels/gemm32-kernel.js';
import { installProductHelper } from '../src/core/kernels/product-helper.js';
import type { StoredMatrix } from '../src/core/kernels/stored.js';
import { KernelThreads } from '../src/core/threads/kernel-thread.js';

interface Shape { readonly model: string; readonly k: number; readonly m: number }
const SHAPES: readonly Shape[] = [
  { model: 'GPT-2', k: 768, m: 2304 }, { model: 'GPT-2', k: 768, m: 3072 }, { model: 'GPT-2', k: 3072, m: 768 },
  { model: 'Llama-1B', k: 2048, m: 2048 }, { model: 'Llama-1B', k: 2048, m: 512 },
  { model: 'Llama-1B', k: 2048, m: 8192 }, { model: 'Llama-1B', k: 8192, m: 2048 },
];
const TOKENS = [128, 1024];
const ROOT = join(__dirname, '..');

/** numpy's float32 product x · wᵀ at every shape, best of `runs`, with the BLAS threadpoolctl reports. */
const NUMPY = String.raw`
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_info
shapes = json.loads(sys.argv[1])
rng = np.random.default_rng(1)
out = {"blas": [{k: i.get(k) for k in ("internal_api", "version", "num_threads", "architecture")} for i in threadpool_info()], "gflops": []}
for n, k, m in shapes:
    x = rng.standard_normal((n, k), dtype=np.float32); w = rng.standard_normal((m, k), dtype=np.float32)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter(); x @ w.T; best = min(best, time.perf_counter() - t)
    out["gflops"].append(2 * n * k * m / best / 1e9)
print(json.dumps(out))
`;

function numpy(shapes: readonly [number, number, number][]): { blas: unknown[]; gflops: number[] } | string {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const r = spawnSync('/usr/bin/python3', ['-c', NUMPY, JSON.stringify(shapes)], { env, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) return `numpy did not run: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`;
  return JSON.parse(r.stdout) as { blas: unknown[]; gflops: number[] };
}

function sharedWeight(dtype: 'BF16' | 'F32', rows: number, cols: number): StoredMatrix {
  const count = rows * cols;
  if (dtype === 'F32') {
    const data = new Float32Array(new SharedArrayBuffer(4 * count));
    for (let i = 0; i < count; i++) data[i] = (((i * 2654435761) >>> 0) / 2 ** 32 - 0.5) * 0.1;
    return { dtype, rows, cols, data };
  }
  const data = new Uint16Array(new SharedArrayBuffer(2 * count));
  for (let i = 0; i < count; i++) data[i] = 0x3c00 + (((i * 2654435761) >>> 0) % 0x400) + ((i & 1) << 15);
  return { dtype, rows, cols, data };
}

function input(n: number, k: number): Float32Array {
  return Float32Array.from({ length: n * k }, (_, i) => (((i * 40503) % 65536) / 65536 - 0.5));
}

/** The best of `runs` timings of fn, in ms. */
function best(fn: () => void, runs: number): number {
  let ms = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    fn();
    ms = Math.min(ms, performance.now() - t);
  }
  return ms;
}

const gflops = (n: number, k: number, m: number, ms: number) => (2 * n * k * m) / ms / 1e6;

async function main(): Promise<void> {
  const threads = new KernelThreads(join(ROOT, 'dist', 'kernel-worker.js'), [], undefined, undefined, 0);
  await threads.ready();
  const cores = threads.workers + 1;
  console.log(`kernel: ${kernelVariant() ?? 'none (plain JavaScript)'}; threads: 1 and ${cores} (${availableParallelism()} cores)`);

  const cases = TOKENS.flatMap((n) => SHAPES.map((s) => [n, s.k, s.m] as [number, number, number]));
  const reference = numpy(cases);
  if (typeof reference === 'string') console.log(reference);
  else console.log(`numpy's BLAS (threadpoolctl): ${JSON.stringify(reference.blas)}`);

  const header = ['shape', 'dtype', '1 thread', `${cores} threads`, 'numpy', 'ratio'];
  console.log(header.join('\t'));
  cases.forEach(([n, k, m], c) => {
    const shape = SHAPES[c % SHAPES.length];
    const x = input(n, k);
    const np = typeof reference === 'string' ? NaN : reference.gflops[c];
    for (const dtype of ['BF16', 'F32'] as const) {
      // nn.Linear's [out, in] for Llama, Conv1D's [in, out] for GPT-2: as their files store them.
      const layout = shape.model === 'GPT-2' ? 'in-out' : 'out-in';
      const w = layout === 'out-in' ? sharedWeight(dtype, m, k) : sharedWeight(dtype, k, m);
      const runs = n * k * m > 2e9 ? 3 : 5;
      installProductHelper(undefined);
      const one = gflops(n, k, m, best(() => gemmStored(x, n, w, layout), runs));
      installProductHelper(threads);
      const all = gflops(n, k, m, best(() => gemmStored(x, n, w, layout), runs));
      installProductHelper(undefined);
      console.log([`${shape.model} ${n} × ${k} → ${m}`, dtype, one.toFixed(1), all.toFixed(1), np.toFixed(1), `${((100 * all) / np).toFixed(0)}%`].join('\t'));
    }
  });

  // The plain JavaScript reference, for scale: one small shape.
  {
    const n = 16, k = 768, m = 768, x = input(n, k), w = sharedWeight('F32', m, k);
    console.log(`plain JavaScript reference, ${n} × ${k} → ${m} F32: ${gflops(n, k, m, best(() => gemmStoredReference(x, n, w, 'out-in'), 3)).toFixed(2)} GFLOP/s; kernel, 1 thread: ${gflops(n, k, m, best(() => gemmStored(x, n, w, 'out-in'), 20)).toFixed(1)}`);
  }

  // The crossover: a few tokens through GPT-2's 768 → 2304, on one thread and handed over.
  console.log('hand-over crossover, GPT-2 768 → 2304 BF16 (ms: 1 thread / all threads; multiply-adds)');
  const w = sharedWeight('BF16', 768, 2304);
  for (const n of [1, 2, 4, 8, 16, 32]) {
    const x = input(n, 768);
    installProductHelper(undefined);
    const one = best(() => gemmStored(x, n, w, 'in-out'), 30);
    installProductHelper(threads);
    const all = best(() => gemmStored(x, n, w, 'in-out'), 30);
    installProductHelper(undefined);
    console.log(`  n = ${n}: ${one.toFixed(2)} / ${all.toFixed(2)} ms; ${(n * 768 * 2304 / 1e6).toFixed(1)} M`);
  }
  await threads.close();
}

void main();
