// npm run bench:tensors: model attention files at the sizes the real-models issue names, generated
// here as safetensors (softmax rows of a fixed pseudo-random sequence), then: opening (header), one
// head read + decoded (a head switch), the full inspect (every head's statistics + rollout), and the
// process's peak memory. `--large` adds 4 × 8 × 4,096 in F16 (a 1 GiB file). Figures, not assertions.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAttention } from '../src/core/tensors/open.js';
import { inspectAttention, inspectOverLimit } from '../src/core/tensors/inspect.js';
import { headFloat32, scanModel } from '../src/core/model-attention/scan.js';
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
const sizes: [number, number, number, Dtype][] = [[12, 12, 128, 'F32'], [12, 12, 512, 'F32']];
if (process.argv.includes('--large')) sizes.push([4, 8, 4096, 'F16']);
const dir = mkdtempSync(join(tmpdir(), 'attn-bench-tensors-'));
try {
  for (const [L, H, n, dtype] of sizes) {
    const file = join(dir, `${L}x${H}x${n}-${dtype}.safetensors`);
    let t = process.hrtime.bigint();
    writeFile(file, L, H, n, dtype);
    const written = ms(t);
    t = process.hrtime.bigint();
    const a = openAttention(file);
    const opened = ms(t);
    const buf = new Float64Array(n * n);
    t = process.hrtime.bigint();
    a.head(0, 0, buf);
    const first = ms(t);
    t = process.hrtime.bigint();
    const switches = 10;
    for (let k = 1; k <= switches; k++) a.head(k % L, (k * 5) % H, buf);
    const headSwitch = ms(t) / switches;
    let inspected = 'over the limit';
    if (!inspectOverLimit(a)) {
      t = process.hrtime.bigint();
      inspectAttention(a);
      inspected = `${ms(t).toFixed(0)} ms`;
    }
    // First paint of the model views, as the editor does it: the host's streaming pass (statistics and
    // thumbnails) and the view drawn, here on jsdom and serialised (Chromium's own paint is not included).
    let paint = 'over the limit';
    if (!inspectOverLimit(a)) {
      const options: ModelViewOptions = { theme: makeTheme('light'), width: 900, interactive: false, layer: 0, head: 0, token: n - 1, stat: 'entropy', sort: false, k: 3 };
      t = process.hrtime.bigint();
      const scanned = scanModel(a);
      const scan = ms(t);
      t = process.hrtime.bigint();
      svgOf(scanned, 'model', options);
      const grid = ms(t);
      t = process.hrtime.bigint();
      const weights = headFloat32(a, L - 1, H - 1);
      const read = ms(t);
      t = process.hrtime.bigint();
      svgOf({ ...scanned, head: { layer: L - 1, head: H - 1, weights } }, 'head', { ...options, layer: L - 1, head: H - 1 });
      const headDraw = ms(t);
      paint = `model view: scan ${scan.toFixed(0)} ms + draw ${grid.toFixed(0)} ms; head view: read ${read.toFixed(1)} ms + draw ${headDraw.toFixed(0)} ms (drawn on jsdom)`;
    }
    a.close();
    const mb = (L * H * n * n * (dtype === 'F32' ? 4 : 2)) / 2 ** 20;
    console.log(`${L} × ${H} × ${n} ${dtype} (${mb.toFixed(0)} MiB, written in ${written.toFixed(0)} ms): open ${opened.toFixed(1)} ms, first head ${first.toFixed(1)} ms, head switch ${headSwitch.toFixed(1)} ms, inspect (stats${n <= 1024 ? ' + rollout' : ''}) ${inspected}, peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
    console.log(`  first paint: ${paint}`);
    rmSync(file);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
