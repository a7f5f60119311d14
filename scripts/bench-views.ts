// Times every view for 64, 256 and 1024 tokens, on jsdom (the `attn render` path) or, with
// --chromium, in headless Chromium with the panel's own bundle (dist/webview.js: run `npm run build`):
//   node --import tsx scripts/bench-views.ts [--sizes 64,256,1024] [--views arcs,matrix] [--runs 3] [--heads N] [--chromium [PATH]]
// (--heads: that many heads at every size, one input above 256 tokens; without it, two heads and two
// inputs up to 256 tokens and one of each above, as before.)
// Prints one line per view and size: the median time (jsdom: draw + serialise; Chromium: the
// drawMs the panel reports in 'painted') and, on jsdom, the SVG's size.
import { encodeAttention } from '../src/core/result/wire.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze } from '../src/core/index.js';
import { renderSvg } from '../src/cli/render/spec-views.js';
import type { AnyViewName as AnyView } from '../webview/views/spec/selection.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const sizes = arg('--sizes', '64,256,1024').split(',').map(Number);
const runs = Number(arg('--runs', '3'));
const views = arg('--views', 'arcs,matrix,steps,quadrant,projection,compare,summary').split(',') as AnyView[];
const headCount = Number(arg('--heads', '0'));

function spec(n: number) {
  const d = 16;
  const features = Array.from({ length: d }, (_, i) => `f${i}`);
  const vocab = Array.from({ length: Math.min(n, 200) }, (_, i) => `w${i}`);
  let seed = 1;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  const embeddings = Object.fromEntries(vocab.map((w) => [w, features.map(() => Number(rnd().toFixed(3)))]));
  const w = (r: number, c: number) => Array.from({ length: r }, () => Array.from({ length: c }, () => Number((rnd() * 0.5).toFixed(3))));
  // Above 256 tokens one input and one head: the result JSON grows with inputs × heads × n².
  const heads = (headCount > 0 ? Array.from({ length: headCount }, (_, h) => h) : n > 256 ? [0] : [0, 1]).map((h) => ({ name: `head ${h + 1}`, wq: w(d, 4), wk: w(d, 4), wv: w(d, 4) }));
  const tokens = Array.from({ length: n }, (_, i) => vocab[(i * 7) % vocab.length]);
  return JSON.stringify({
    features, embeddings, heads, mask: 'causal', scale: 'sqrt_dk',
    inputs: n > 256 ? [{ name: `${n} tokens`, tokens }] : [{ name: `${n} tokens`, tokens }, { name: 'second', tokens: tokens.slice().reverse() }],
  });
}

async function chromium(path: string): Promise<void> {
  const { chromium: browserType } = await import('playwright-core');
  const dir = resolve('test-results');
  mkdirSync(dir, { recursive: true });
  const page = join(dir, 'bench-views.html');
  writeFileSync(page, `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${resolve('media/attention.css')}"></head>
<body class="vscode-light"><main id="attention-root" data-state="loading" data-document-uri="file:///bench"></main>
<div id="attention-tooltip"></div>
<script>window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m), getState: () => undefined, setState: () => {} });</script>
<script src="${resolve('dist/webview.js')}"></script></body></html>`);
  const browser = await browserType.launch({
    executablePath: path,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const tab = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await tab.goto(`file://${page}`);
  console.log('view        tokens   median drawMs, and \'render\' posted -> the frame after \'painted\' (Chromium, panel bundle)');
  for (const n of sizes) {
    const wire = encodeAttention(analyze(spec(n)).data!);
    // The result goes over once: the header as JSON, the buffer as base64 (what the panel gets as an ArrayBuffer).
    await tab.evaluate(([text, b64]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      (window as unknown as { DATA: unknown; BUFFER: ArrayBuffer }).DATA = JSON.parse(text);
      (window as unknown as { BUFFER: ArrayBuffer }).BUFFER = bytes.buffer;
    }, [JSON.stringify(wire.header), Buffer.from(wire.buffer).toString('base64')] as const);
    for (const view of views.filter((v) => v !== 'summary')) {
      const times: number[] = [], frames: number[] = [];
      for (let r = 0; r < runs; r++) {
        const ms = await tab.evaluate(async ([v, version]) => {
          const w = window as unknown as { posted: { type: string; version?: number; drawMs?: number }[]; DATA: unknown; BUFFER: ArrayBuffer };
          const result = w.DATA, buffer = w.BUFFER;
          const tabEl = document.querySelector<HTMLButtonElement>(`.al-tab[data-view="${v}"]`);
          const t0 = performance.now();
          window.postMessage({ type: 'render', documentUri: 'file:///bench', fileName: 'bench', version, result, buffer, warnings: [] }, '*');
          await new Promise((ok) => setTimeout(ok, 0));
          for (let i = 0; i < 600 && !w.posted.some((m) => m.type === 'painted' && m.version === version); i++) await new Promise((ok) => setTimeout(ok, 1));
          // The frame that shows it: two animation frames after 'painted' (style, layout and paint of what was drawn).
          await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
          (window as unknown as { FRAME: number }).FRAME = performance.now() - t0;
          if (tabEl && tabEl.getAttribute('aria-selected') !== 'true') {
            const before = w.posted.length;
            tabEl.click();
            for (let i = 0; i < 600 && !w.posted.slice(before).some((m) => m.type === 'painted'); i++) await new Promise((ok) => setTimeout(ok, 10));
            return w.posted.slice(before).find((m) => m.type === 'painted')?.drawMs ?? NaN;
          }
          return w.posted.find((m) => m.type === 'painted' && m.version === version)?.drawMs ?? NaN;
        }, [view, n * 100 + r * 10 + views.indexOf(view)] as const);
        times.push(ms);
        frames.push(await tab.evaluate(() => (window as unknown as { FRAME: number }).FRAME));
      }
      times.sort((x, y) => x - y);
      frames.sort((x, y) => x - y);
      console.log(`${view.padEnd(11)} ${String(n).padStart(6)}   ${times[Math.floor(times.length / 2)].toFixed(1).padStart(9)}   ${frames[Math.floor(frames.length / 2)].toFixed(1).padStart(9)}`);
    }
  }
  await browser.close();
}

async function jsdom(): Promise<void> {
  console.log('view        tokens   median ms   SVG kB');
  for (const n of sizes) {
    const t0 = performance.now();
    const a = analyze(spec(n));
    if (!a.data) throw new Error(a.problems.map((p) => p.message).join('; '));
    const analyzeMs = performance.now() - t0;
    console.log(`(analyze)   ${String(n).padStart(6)}   ${analyzeMs.toFixed(1).padStart(9)}`);
    for (const view of views) {
      const times: number[] = [];
      let size = 0;
      for (let r = 0; r < runs; r++) {
        const s = performance.now();
        const svg = renderSvg(a.data, view, { head: view === 'arcs' || view === 'matrix' ? 'all' : 0, token: n - 1 });
        times.push(performance.now() - s);
        size = svg.length;
      }
      times.sort((x, y) => x - y);
      console.log(`${view.padEnd(11)} ${String(n).padStart(6)}   ${times[Math.floor(times.length / 2)].toFixed(1).padStart(9)}   ${(size / 1024).toFixed(0).padStart(6)}`);
    }
  }
}

const ci = process.argv.indexOf('--chromium');
const next = process.argv[ci + 1];
(ci >= 0 ? chromium(next && !next.startsWith('--') ? next : '/usr/bin/chromium') : jsdom()).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
