// Times the standalone model page (`attn render FILE --view model --html x.html`, dist/attn.js and its
// inlined dist/model-webview.js: run `node scripts/build.mjs` first) in headless Chromium, on generated
// 12 × 12 × 128 and 12 × 12 × 512 F32 files (scripts/write-attention-file.mjs):
//   node --import tsx scripts/bench-page.ts [--runs 5] [--sizes 128,512] [--profile] [--attn dist/attn.js] [--editor [--webview dist/model-webview.js]]
// Per size, the median over fresh tabs of: navigation → the page's own 'attention-lens:painted' mark (the
// app's first paint of the grid, posted when its drawing returns), and navigation → pixels (that paint,
// its pictures decoded, and the next frame). --profile adds one more tab per size under the V8 CPU
// profiler and prints where its time went (self time by function) and the navigation's own marks.
// --editor times the model editor's webview instead (dist/model-webview.js on a plain page, as in VS Code
// without code-server around it): from the host's 'model' message (header and thumbnails, posted into the
// page) to the webview's 'painted' (and its drawMs), and to pixels.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFileSync } from 'node:fs';
import { openAttention } from '../src/core/files/open.js';
import { scanModel } from '../src/core/model/scan.js';
import { thumbnailIndices } from '../src/core/model/data.js';
import { join, resolve } from 'node:path';
// @ts-expect-error: a plain .mjs script shared with bench-vscode.mjs (no types)
import { writeAttentionFile } from './write-attention-file.mjs';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const runs = Number(arg('--runs', '5'));
const sizes = arg('--sizes', '128,512').split(',').map(Number);
const profiling = process.argv.includes('--profile');
const editor = process.argv.includes('--editor');
/** The webview bundle --editor loads (another build's, to compare). */
const webviewBundle = resolve(arg('--webview', 'dist/model-webview.js'));
/** The CLI that writes the pages (another build's dist/attn.js, to compare). */
const attn = resolve(arg('--attn', 'bin/attn.js'));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

interface CpuProfile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] }

/** Self time by function in a CPU profile (the longest 20). */
function profileSummary(p: CpuProfile): string {
  const name = new Map(p.nodes.map((nd) => [nd.id, `${nd.callFrame.functionName || '(anonymous)'} ${nd.callFrame.url.split('/').pop()}:${nd.callFrame.lineNumber}`]));
  const self = new Map<string, number>();
  p.samples.forEach((id, k) => { const key = name.get(id)!; self.set(key, (self.get(key) ?? 0) + p.timeDeltas[k] / 1000); });
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([f, ms]) => `    ${f.slice(0, 70).padEnd(70)} ${ms.toFixed(1)} ms`).join('\n');
}

async function main(): Promise<void> {
  const { chromium } = await import('playwright-core');
  const dir = mkdtempSync(join(tmpdir(), 'attn-'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  try {
    if (editor) { await editorRuns(browser, dir); return; }
    console.log('the standalone model page (attn render --view model --html), headless Chromium, ms, median of', runs);
    for (const n of sizes) {
      const file = join(dir, `12x12x${n}-F32.safetensors`), html = join(dir, `12x12x${n}.html`);
      writeAttentionFile(file, 12, 12, n, 'F32');
      execFileSync(process.execPath, [attn, 'render', file, '--view', 'model', '--html', html], { stdio: ['ignore', 'ignore', 'inherit'] });
      const painted: number[] = [], pixels: number[] = [];
      for (let r = 0; r < runs + (profiling ? 1 : 0); r++) {
        const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
        const tab = await context.newPage();
        const cdp = profiling && r === runs ? await context.newCDPSession(tab) : undefined;
        if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
        await tab.goto(`file://${html}`, { waitUntil: 'commit' });
        const t = await tab.evaluate(async () => {
          const mark = 'attention-lens:painted';
          while (performance.getEntriesByName(mark).length === 0) await new Promise((res) => setTimeout(res, 5));
          const at = performance.getEntriesByName(mark)[0].startTime;
          // The pictures decoded (SVG <image>s) and the frame after: what the eye sees.
          await Promise.all([...document.querySelectorAll('image')].map((im) => (im as unknown as { decode?: () => Promise<void> }).decode?.().catch(() => {})));
          await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
          return { painted: at, pixels: performance.now() };
        });
        if (cdp) {
          const { profile } = await cdp.send('Profiler.stop');
          console.log(`  ${n}: the CPU profile's self time by function (navigation -> pixels):\n${profileSummary(profile as unknown as CpuProfile)}`);
          const nav = await tab.evaluate(() => JSON.stringify(performance.getEntriesByType('navigation')[0], ['responseEnd', 'domInteractive', 'domContentLoadedEventStart', 'loadEventStart']));
          console.log(`  navigation: ${nav}`);
        } else { painted.push(t.painted); pixels.push(t.pixels); }
        await context.close();
      }
      console.log(`12 × 12 × ${n} F32 (${(statSync(html).size / 1e6).toFixed(1)} MB page): painted ${median(painted).toFixed(1)} (${painted.map((x) => x.toFixed(0)).join(', ')}), pixels ${median(pixels).toFixed(1)}`);
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Browser = Awaited<ReturnType<typeof import('playwright-core')['chromium']['launch']>>;

/** The model editor's webview on a plain page: 'model' posted in, 'painted' out. */
async function editorRuns(browser: Browser, dir: string): Promise<void> {
  const page = join(dir, 'editor.html');
  writeFileSync(page, `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" href="${resolve('media/model.css')}"></head>
<body class="vscode-dark"><main id="model-root" data-state="loading"></main><div id="attention-tooltip" role="tooltip" hidden></div>
<script>window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m), getState: () => undefined, setState: () => {} });</script>
<script src="${webviewBundle}"></script></body></html>`);
  console.log('the model editor\'s webview (dist/model-webview.js, headless Chromium, no code-server): the \'model\' message -> painted, ms, median of', runs);
  for (const n of sizes) {
    const file = join(dir, `12x12x${n}-F32.safetensors`);
    writeAttentionFile(file, 12, 12, n, 'F32');
    const a = openAttention(file);
    const { header, thumbnails } = scanModel(a);
    a.close();
    const indices = Array.from(thumbnailIndices(thumbnails, header.thumb));
    const painted: number[] = [], drawn: number[] = [], pixels: number[] = [];
    for (let r = 0; r < runs + (profiling ? 1 : 0); r++) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const tab = await context.newPage();
      await tab.goto(`file://${page}`);
      await tab.waitForFunction(() => (window as unknown as { posted: { type: string }[] }).posted.some((m) => m.type === 'ready'));
      if (process.env.SETTLE) await tab.evaluate(() => { (window as unknown as { settle: boolean }).settle = true; });
      const cdp = profiling && r === runs ? await context.newCDPSession(tab) : undefined;
      if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 100 }); await cdp.send('Profiler.start'); }
      const t = await tab.evaluate(async ({ header, indices }) => {
        const posted = (window as unknown as { posted: { type: string; items?: number; drawMs?: number }[] }).posted;
        const thumbnails = Uint8Array.from(indices);
        if ((window as unknown as { settle?: boolean }).settle) await new Promise((res) => setTimeout(res, 500));
        const t0 = performance.now();
        window.postMessage({ type: 'model', header, thumbnails }, '*');
        let m: { drawMs?: number } | undefined;
        while (!(m = posted.find((x) => x.type === 'painted' && (x.items ?? 0) > 0))) await new Promise((res) => setTimeout(res, 1));
        const at = performance.now() - t0;
        await Promise.all([...document.querySelectorAll('image')].map((im) => (im as unknown as { decode?: () => Promise<void> }).decode?.().catch(() => {})));
        await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
        return { painted: at, drawMs: m.drawMs ?? NaN, pixels: performance.now() - t0 };
      }, { header, indices });
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        console.log(`  ${n}: the CPU profile's self time by function ('model' -> pixels):\n${profileSummary(profile as unknown as CpuProfile)}`);
      } else { painted.push(t.painted); drawn.push(t.drawMs); pixels.push(t.pixels); }
      await context.close();
    }
    console.log(`12 × 12 × ${n} F32: painted ${median(painted).toFixed(1)} (drawMs ${median(drawn).toFixed(1)}), pixels ${median(pixels).toFixed(1)}`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
