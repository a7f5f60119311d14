// npm run bench:kernel: the float32 kernel's GFLOP/s at a forward's shapes (GPT-2 small's and
// Llama-3.2-1B's projections and MLP, at 128 and 1,024 tokens; BF16 and F32 weights in shared memory,
// as the forward keeps them), on one thread and on every core, beside numpy's float32 sgemm at the
// same shapes in the same run (Debian's numpy on OpenBLAS, both cores: the machine's practical limit)
// and the ratio. Also the plain JavaScript reference on one small shape, and the hand-over's crossover
// (a few tokens on one thread and on all) that sets kernel-thread.ts's MIN_WORK. The CPUs the threads
// got while they ran are printed beside them: the split can only go as fast as the cores others leave.
// Figures, not assertions: timing belongs here, not in tests.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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

/**
 * numpy's float32 product x · wᵀ, best of five, for each shape sent as a JSON line; the first line out
 * is what threadpoolctl reports. One process for the whole run, asked just before each of our own
 * timings, so that both see the same load on a shared machine.
 */
const NUMPY = String.raw`
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_info
print(json.dumps([{k: i.get(k) for k in ("internal_api", "version", "num_threads", "architecture")} for i in threadpool_info()]), flush=True)
rng = np.random.default_rng(1)
for line in sys.stdin:
    n, k, m = json.loads(line)
    x = rng.standard_normal((n, k), dtype=np.float32); w = rng.standard_normal((m, k), dtype=np.float32)
    best = cpu = float("inf")
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time(); x @ w.T
        best, cpu = min(best, time.perf_counter() - t), min(cpu, time.process_time() - c)
    print(json.dumps([2 * n * k * m / best / 1e9, 2 * n * k * m / max(cpu, 1e-9) / 1e9]), flush=True)
`;

/** The numpy process: ask(n, k, m) → its GFLOP/s of wall time and per CPU-second (NaN if numpy did not run). */
function numpy(): { blas: Promise<string>; ask(n: number, k: number, m: number): Promise<[number, number]>; close(): void } {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const child = spawn('/usr/bin/python3', ['-c', NUMPY], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string | undefined) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  lines.on('close', () => { for (const w of waiting.splice(0)) w(undefined); });
  child.on('error', () => { for (const w of waiting.splice(0)) w(undefined); });
  const next = () => new Promise<string | undefined>((resolve) => waiting.push(resolve));
  const blas = next().then((l) => l ?? 'numpy did not run');
  return {
    blas,
    ask: async (n, k, m) => {
      const answer = next();
      child.stdin.write(JSON.stringify([n, k, m]) + '\n');
      const line = await answer;
      return line ? (JSON.parse(line) as [number, number]) : [NaN, NaN];
    },
    close: () => child.stdin.end(),
  };
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
  return bestWithCpu(fn, runs)[0];
}

/** The best of `runs` timings of fn in ms of wall time and of CPU time (every thread's). */
function bestWithCpu(fn: () => void, runs: number): [number, number] {
  let ms = Infinity, cpuMs = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now(), c = process.cpuUsage();
    fn();
    const used = process.cpuUsage(c);
    ms = Math.min(ms, performance.now() - t);
    cpuMs = Math.min(cpuMs, (used.user + used.system) / 1000);
  }
  return [ms, cpuMs];
}

/** CPU seconds this process (every thread) used per wall second since `cpu` and `wall`. */
function cpuShare(cpu: NodeJS.CpuUsage, wall: number): number {
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / (performance.now() - wall);
}

const gflops = (n: number, k: number, m: number, ms: number) => (2 * n * k * m) / ms / 1e6;

async function main(): Promise<void> {
  const threads = new KernelThreads(join(ROOT, 'dist', 'kernel-worker.js'), [], undefined, undefined, 0);
  await threads.ready();
  const cores = threads.workers + 1;
  console.log(`kernel: ${kernelVariant() ?? 'none (plain JavaScript)'}; threads: 1 and ${cores} (${availableParallelism()} cores)`);

  const reference = numpy();
  console.log(`numpy's BLAS (threadpoolctl): ${await reference.blas}`);
  // GFLOP/s of wall time, ours on 1 and on all threads, numpy's on its threads, and the ratio of the
  // best of ours to numpy's; "CPUs got" is the CPU time all our threads got per second of wall time
  // while they ran (on a machine others load, well under the thread count, and then no split can go
  // faster). Then GFLOP per CPU-second, ours on one thread and numpy's over its threads: what each
  // kernel does with a core it has, whatever the load, and their ratio.
  console.log(['shape', 'dtype', '1 thread', `${cores} threads`, 'runs on workers', 'CPUs got', 'numpy', 'ratio', 'ours/CPU-s', 'numpy/CPU-s', 'ratio'].join('\t'));
  for (const n of TOKENS) {
    for (const shape of SHAPES) {
      const { k, m } = shape, x = input(n, k);
      for (const dtype of ['BF16', 'F32'] as const) {
        // nn.Linear's [out, in] for Llama, Conv1D's [in, out] for GPT-2: as their files store them.
        const layout = shape.model === 'GPT-2' ? 'in-out' : 'out-in';
        const w = layout === 'out-in' ? sharedWeight(dtype, m, k) : sharedWeight(dtype, k, m);
        const runs = n * k * m > 2e9 ? 3 : 5;
        const [np, npCpu] = await reference.ask(n, k, m);
        installProductHelper(undefined);
        const [oneMs, oneCpuMs] = bestWithCpu(() => gemmStored(x, n, w, layout), runs);
        const one = gflops(n, k, m, oneMs), oneCpu = gflops(n, k, m, oneCpuMs);
        installProductHelper(threads);
        const handed = threads.handedOver(), cpu = process.cpuUsage(), wall = performance.now();
        const all = gflops(n, k, m, best(() => gemmStored(x, n, w, layout), runs));
        const used = cpuShare(cpu, wall);
        installProductHelper(undefined);
        console.log([
          `${shape.model} ${n} × ${k} → ${m}`, dtype, one.toFixed(1), all.toFixed(1), threads.handedOver() - handed, used.toFixed(2), np.toFixed(1),
          `${((100 * Math.max(one, all)) / np).toFixed(0)}%`, oneCpu.toFixed(1), npCpu.toFixed(1), `${((100 * oneCpu) / npCpu).toFixed(0)}%`,
        ].join('\t'));
      }
    }
  }
  reference.close();

  // The plain JavaScript reference, for scale: one small shape.
  {
    const n = 16, k = 768, m = 768, x = input(n, k), w = sharedWeight('F32', m, k);
    console.log(`plain JavaScript reference, ${n} × ${k} → ${m} F32: ${gflops(n, k, m, best(() => gemmStoredReference(x, n, w, 'out-in'), 3)).toFixed(2)} GFLOP/s; kernel, 1 thread: ${gflops(n, k, m, best(() => gemmStored(x, n, w, 'out-in'), 20)).toFixed(1)}`);
  }

  // The crossover: a few tokens through GPT-2's 768 → 2304, on one thread and handed over.
  console.log('hand-over crossover, BF16 in-out (ms: 1 thread / all threads, every product handed over; multiply-adds)');
  for (const [n, k, m] of [[1, 64, 768], [1, 768, 768], [1, 768, 2304], [2, 768, 2304], [4, 768, 2304], [8, 768, 2304], [16, 768, 2304], [32, 768, 2304]]) {
    const x = input(n, k), w = sharedWeight('BF16', k, m);
    installProductHelper(undefined);
    const one = best(() => gemmStored(x, n, w, 'in-out'), 30);
    installProductHelper(threads);
    const all = best(() => gemmStored(x, n, w, 'in-out'), 30);
    installProductHelper(undefined);
    console.log(`  ${n} × ${k} → ${m}: ${one.toFixed(2)} / ${all.toFixed(2)} ms; ${(n * k * m / 1e6).toFixed(2)} M`);
  }
  await threads.close();
}

void main();
