// npm run bench:tensors: model attention files at the sizes the real-models issue names, generated
// here as safetensors (softmax rows of a fixed pseudo-random sequence), then: attn inspect (one
// thread), the editor's scan in 1 and 2 worker threads (dist/model-worker.js: the header, the first
// heads read, all heads), the grid and a head drawn on jsdom, a head switch, and the process's peak
// memory (the workers are threads of this process, as in VS Code's extension host). `--large` adds
// 4 × 8 × 4,096 in F16 (a 1 GiB file). Figures, not assertions.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAttention } from '../src/core/tensors/open.js';
import { inspectAttention, inspectOverLimit } from '../src/core/tensors/inspect.js';
import { headerOf, headFloat32, scanModel } from '../src/core/model-attention/scan.js';
import { ModelReader } from '../src/host/model-reader.js';
import { scanWithReaders } from '../src/host/model-scan.js';
import { svgOf } from '../src/cli/render-model.js';
import { makeTheme } from '../webview/colour.js';
import type { ModelViewOptions } from '../webview/model-common.js';

type Dtype = 'F32' | 'F16';

/** float64 → binary16 bits for weights in [0, 1], rounding to nearest (ties up: good enough for a bench file). */
function toHalf(v: number): number {
  const f = new Float32Array([v]), u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, frac = u & 0x7fffff;
  if (exp <= 0) return sign | Math.round((frac | 0x800000) / 2 ** (14 - exp)); // subnormal (weights never overflow)
  return sign | ((exp << 10) + Math.round(frac / 8192)); // a carry out of the fraction bumps the exponent, as it should
}

/** Writes [L, H, n, n] softmax rows head by head (memory: one head), tokens in the metadata. */
function writeFile(path: string, L: number, H: number, n: number, dtype: Dtype): void {
  const item = dtype === 'F32' ? 4 : 2;
  const size = L * H * n * n * item;
  const tokens = Array.from({ length: n }, (_, i) => `t${i % 97}`);
  let text = JSON.stringify({ attentions: { dtype, shape: [L, H, n, n], data_offsets: [0, size] }, __metadata__: { tokens: JSON.stringify(tokens) } });
  text += ' '.repeat((8 - (Buffer.byteLength(text) % 8)) % 8);
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(Buffer.byteLength(text)));
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  writeSync(fd, text);
  // One head of softmax rows, computed once; head h is it with its rows rolled by h (every row still
  // sums to 1, the heads differ, and a 1 GiB file is written in seconds, not the many minutes that
  // 537 million exps took, which made --large time out).
  let s = 12345;
  const row = new Float64Array(n);
  const bytes = Buffer.alloc(n * n * item);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      row[j] = Math.exp(4 * (s / 2147483648));
      sum += row[j];
    }
    for (let j = 0; j < n; j++) {
      const w = row[j] / sum, at = (i * n + j) * item;
      if (dtype === 'F32') bytes.writeFloatLE(w, at); else bytes.writeUInt16LE(toHalf(w), at);
    }
  }
  const rowBytes = n * item;
  for (let h = 0; h < L * H; h++) {
    const cut = (h % n) * rowBytes;
    writeSync(fd, bytes.subarray(cut));
    if (cut > 0) writeSync(fd, bytes.subarray(0, cut));
  }
  closeSync(fd);
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const sizes: [number, number, number, Dtype][] = [[12, 12, 128, 'F32'], [12, 12, 512, 'F32']];
if (process.argv.includes('--large')) sizes.push([4, 8, 4096, 'F16']);
const worker = join(__dirname, '..', 'dist', 'model-worker.js');
const dir = mkdtempSync(join(tmpdir(), 'attn-bench-tensors-'));

/** The editor's scan: `count` worker threads share the heads; when the first heads and all of them are in. */
async function scanInWorkers(file: string, count: number) {
  const readers = Array.from({ length: count }, () => new ModelReader(worker));
  try {
    const t = process.hrtime.bigint();
    const shape = await readers[0].open(file);
    const opened = ms(t);
    for (const r of readers.slice(1)) await r.open(file);
    let first = 0, firstHeads = 0;
    const done = await scanWithReaders(readers, shape, {}, (d) => { if (!first) { first = ms(t); firstHeads = d.read; } });
    const all = ms(t);
    const switches: number[] = [];
    for (let k = 1; k <= 6; k++) {
      const t1 = process.hrtime.bigint();
      await readers[0].head(k % shape.layers, (k * 5) % shape.heads, {});
      switches.push(ms(t1));
    }
    return { shape, done, opened, first, firstHeads, all, headSwitch: median(switches) };
  } finally {
    for (const r of readers) r.dispose();
  }
}

async function main(): Promise<void> {
  for (const [L, H, n, dtype] of sizes) {
    const file = join(dir, `${L}x${H}x${n}-${dtype}.safetensors`);
    let t = process.hrtime.bigint();
    writeFile(file, L, H, n, dtype);
    const written = ms(t);
    const mb = (L * H * n * n * (dtype === 'F32' ? 4 : 2)) / 2 ** 20;
    console.log(`${L} × ${H} × ${n} ${dtype} (${mb.toFixed(0)} MiB, written in ${written.toFixed(0)} ms)`);
    const a = openAttention(file);
    if (!inspectOverLimit(a)) {
      t = process.hrtime.bigint();
      inspectAttention(a);
      console.log(`  attn inspect (one thread, stats${n <= 1024 ? ' + rollout' : ''}): ${ms(t).toFixed(0)} ms`);
    }
    // The model editor: header → grid of empty frames, then heads as they are read, in worker threads.
    const options: ModelViewOptions = { theme: makeTheme('light'), width: 900, interactive: false, layer: 0, head: 0, token: n - 1, stat: 'entropy', sort: false, k: 3 };
    for (const count of [1, 2]) {
      const s = await scanInWorkers(file, count);
      t = process.hrtime.bigint();
      svgOf({ header: headerOf(s.shape, s.done.result(), {}), thumbnails: s.done.thumbnails }, 'model', options);
      const grid = ms(t);
      console.log(`  editor scan, ${count} worker(s): header ${s.opened.toFixed(0)} ms, first ${s.firstHeads} head(s) ${s.first.toFixed(0)} ms, all ${L * H} heads ${s.all.toFixed(0)} ms; grid drawn (jsdom) ${grid.toFixed(0)} ms; head switch in the worker ${s.headSwitch.toFixed(1)} ms`);
    }
    t = process.hrtime.bigint();
    const weights = headFloat32(a, L - 1, H - 1);
    const read = ms(t);
    t = process.hrtime.bigint();
    svgOf({ ...scanModel(openAttention(file, {})), head: { layer: L - 1, head: H - 1, weights } }, 'head', { ...options, layer: L - 1, head: H - 1 });
    console.log(`  head view: read ${read.toFixed(1)} ms (this thread), draw ${ms(t).toFixed(0)} ms (jsdom, includes a scan); peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
    a.close();
    rmSync(file);
  }
}

main().finally(() => rmSync(dir, { recursive: true, force: true }));
