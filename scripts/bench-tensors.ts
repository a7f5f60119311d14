// npm run bench:tensors: model attention files at the sizes the real-models issue names, generated
// here as safetensors (softmax rows of a fixed pseudo-random sequence), then: attn inspect (one
// thread), the editor's scan in 1 and 2 worker threads (dist/scan-worker.js: the header, the first
// heads read, all heads), the grid and a head drawn on jsdom, a head switch, and the process's peak
// memory (the workers are threads of this process, as in VS Code's extension host). `--large` adds
// 4 × 8 × 4,096 in F16 (a 1 GiB file). Figures, not assertions.
import { mkdtempSync, rmSync } from 'node:fs';
// @ts-expect-error: a plain .mjs script shared with bench-vscode.mjs (no types)
import { writeAttentionFile } from './write-attention-file.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAttention } from '../src/core/files/open.js';
import { inspectAttention, inspectOverLimit } from '../src/core/tensors/inspect.js';
import { headerOf, headFloat32 } from '../src/core/model-attention/scan.js';
import { WHOLE_HEAD_MAX } from '../src/core/model-attention/data.js';
import { ModelReader } from '../src/host/model-editor/reader.js';
import { WorkerService } from '../src/host/workers/service.js';
import { scanWithReaders } from '../src/host/model-editor/scan.js';
import { svgOf } from '../src/cli/render/model-views.js';
import { makeTheme } from '../webview/kit/colour.js';
import type { ModelViewOptions } from '../webview/views/model/common.js';

type Dtype = 'F32' | 'F16';

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const sizes: [number, number, number, Dtype][] = [[12, 12, 128, 'F32'], [12, 12, 512, 'F32']];
if (process.argv.includes('--large')) sizes.push([4, 8, 4096, 'F16']);
const worker = join(__dirname, '..', 'dist', 'scan-worker.js');
const workers = new WorkerService({ scan: { file: worker } });
const dir = mkdtempSync(join(tmpdir(), 'attn-bench-tensors-'));

/** The editor's scan: `count` worker threads share the heads; when the first heads and all of them are in. */
async function scanInWorkers(file: string, count: number) {
  const readers = Array.from({ length: count }, () => new ModelReader(workers));
  try {
    const t = process.hrtime.bigint();
    const shape = await readers[0].open(file);
    const opened = ms(t);
    for (const r of readers.slice(1)) await r.open(file);
    let first = 0, firstHeads = 0;
    const done = await scanWithReaders(readers, shape, {}, (d) => { if (!first) { first = ms(t); firstHeads = d.read; } });
    const all = ms(t);
    // A head read on request, as the editor asks for it: whole up to 256 tokens, else its picture
    // (the editor posts the picture its scan kept, when it kept them: then nothing is read at all).
    const switches: number[] = [];
    for (let k = 1; k <= 6; k++) {
      const t1 = process.hrtime.bigint();
      const [l, h] = [k % shape.layers, (k * 5) % shape.heads];
      if (shape.tokens <= WHOLE_HEAD_MAX) await readers[0].head(l, h, {});
      else await readers[0].picture(l, h, {});
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
    writeAttentionFile(file, L, H, n, dtype);
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
    let scanned: { header: ReturnType<typeof headerOf>; thumbnails: Float32Array } | undefined;
    for (const count of [1, 2]) {
      const s = await scanInWorkers(file, count);
      scanned = { header: headerOf(s.shape, s.done.result(), {}), thumbnails: s.done.thumbnails };
      t = process.hrtime.bigint();
      svgOf({ header: headerOf(s.shape, s.done.result(), {}), thumbnails: s.done.thumbnails }, 'model', options);
      const grid = ms(t);
      console.log(`  editor scan, ${count} worker(s): header ${s.opened.toFixed(0)} ms, first ${s.firstHeads} head(s) ${s.first.toFixed(0)} ms, all ${L * H} heads ${s.all.toFixed(0)} ms (pictures kept: ${s.done.pictures.length}); grid drawn (jsdom) ${grid.toFixed(0)} ms; a head read on request in the worker ${s.headSwitch.toFixed(1)} ms (${n <= WHOLE_HEAD_MAX ? 'whole' : 'its picture'})`);
    }
    t = process.hrtime.bigint();
    const weights = headFloat32(a, L - 1, H - 1);
    const read = ms(t);
    t = process.hrtime.bigint();
    svgOf({ ...scanned!, head: { layer: L - 1, head: H - 1, weights } }, 'head', { ...options, layer: L - 1, head: H - 1 });
    console.log(`  head view (attn render): whole head read ${read.toFixed(1)} ms (this thread), drawn ${ms(t).toFixed(0)} ms (jsdom); peak RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
    a.close();
    rmSync(file);
  }
}

main().finally(() => rmSync(dir, { recursive: true, force: true }));
