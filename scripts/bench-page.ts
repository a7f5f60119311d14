// Times the standalone model page (`attn render FILE --view model --html x.html`, dist/attn.js and its
// inlined dist/model-webview.js: run `node scripts/build.mjs` first) in headless Chromium, on generated
// 12 × 12 × 128 and 12 × 12 × 512 F32 files (scripts/write-attention-file.mjs):
//   node --import tsx scripts/bench-page.ts [--runs 5] [--sizes 128,512] [--profile] [--attn dist/attn.js] [--editor [--webview dist/model-webview.js]]
//     [--bertviz DIR [--bertviz-sizes 128] [--bertviz-libs DIR] [--bertviz-timeout 120]]
// Per size, the median over fresh tabs of: navigation → the page's own 'attention-lens:painted' mark (the
// app's first paint of the grid, posted when its drawing returns), and navigation → pixels (that paint,
// its pictures decoded, and the next frame). --profile adds one more tab per size under the V8 CPU
// profiler and prints where its time went (self time by function) and the navigation's own marks.
// --editor times the model editor's webview instead (dist/model-webview.js on a plain page, as in VS Code
// without code-server around it): from the host's 'model' message (header and thumbnails, posted into the
// page) to the webview's 'painted' (and its drawMs), and to pixels.
// --bertviz DIR also times BertViz's head view (DIR: a BertViz 1.4.1 checkout, its git directory, or the
// installed package folder) on the same tensors and tokens, in the same browser, viewport and fresh-tab
// method, its tabs taking turns with ours: navigation → its svg's attention lines in the DOM, and two
// frames (as our 'pixels'); its page is rebuilt as head_view(..., html_action='return') writes it, with
// require.js, d3 and jQuery from `npm pack` (or --bertviz-libs DIR) on file:// URLs (scripts/bench-bertviz.ts).
// Only at 128 tokens unless --bertviz-sizes 128,512 (its 512-token page is ~1.75 GB); a tab that has not
// painted within --bertviz-timeout seconds (120) is given up, and the size's later runs with it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFileSync } from 'node:fs';
import { openAttention } from '../src/core/files/open.js';
import { scanModel } from '../src/core/model-attention/scan.js';
import { thumbnailIndices } from '../src/core/model-attention/data.js';
import { join, resolve } from 'node:path';
// @ts-expect-error: a plain .mjs script shared with bench-vscode.mjs (no types)
import { writeAttentionFile } from './write-attention-file.mjs';
import { bertvizRootDivId, givenBertvizLibs, packBertvizLibs, readBertviz, writeHeadViewPage, type BertvizLibs, type BertvizSource } from './bench-bertviz.js';

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
/** BertViz to time beside our page (--bertviz), at these sizes, given up on after this many seconds. */
if (process.argv.includes('--bertviz') && !arg('--bertviz', '')) throw new Error('--bertviz needs a folder: a BertViz checkout, its git directory or the installed package');
const bertvizDir = process.argv.includes('--bertviz') ? resolve(arg('--bertviz', '')) : undefined;
const bertvizSizes = arg('--bertviz-sizes', '128').split(',').map(Number);
const bertvizTimeout = Number(arg('--bertviz-timeout', '120'));
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
    const bertviz = bertvizDir === undefined ? undefined : prepareBertviz(bertvizDir, dir);
    console.log('the standalone model page (attn render --view model --html), headless Chromium, ms, median of', runs);
    if (bertviz) console.log(`beside BertViz ${bertviz.source.version ?? '(no setup.py: version unknown)'}'s head view, from ${bertviz.source.form} ${bertvizDir}, at ${bertvizSizes.join(', ')} tokens, its tabs taking turns with ours; ${bertviz.libs.versions.join(', ')}`);
    for (const n of sizes) {
      const file = join(dir, `12x12x${n}-F32.safetensors`), html = join(dir, `12x12x${n}.html`);
      writeAttentionFile(file, 12, 12, n, 'F32');
      execFileSync(process.execPath, [attn, 'render', file, '--view', 'model', '--html', html], { stdio: ['ignore', 'ignore', 'inherit'] });
      const theirs = bertviz && bertvizSizes.includes(n) ? bertvizPage(bertviz, file, join(dir, `12x12x${n}-bertviz.html`)) : undefined;
      const painted: number[] = [], pixels: number[] = [], heaps: number[] = [];
      const bertvizRuns: BertvizRun[] = [];
      let bertvizFailed: string | undefined;
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
        } else {
          painted.push(t.painted); pixels.push(t.pixels);
          if (theirs) heaps.push(await usedHeapMB(context, tab));
        }
        await context.close();
        // BertViz's tab right after ours, so that both see the same machine.
        if (theirs && r < runs && bertvizFailed === undefined) {
          const b = await bertvizTab(browser, theirs.html, theirs.root);
          if (typeof b === 'string') bertvizFailed = b; else bertvizRuns.push(b);
        }
      }
      console.log(`12 × 12 × ${n} F32 (${(statSync(html).size / 1e6).toFixed(1)} MB page): painted ${median(painted).toFixed(1)} (${painted.map((x) => x.toFixed(0)).join(', ')}), pixels ${median(pixels).toFixed(1)}`);
      if (theirs) {
        const head = `  BertViz head view, 12 × 12 × ${n} (${(theirs.bytes / 1e6).toFixed(1)} MB page, written in ${(theirs.writeMs / 1000).toFixed(1)} s)`;
        if (bertvizRuns.length > 0) {
          const px = median(bertvizRuns.map((b) => b.pixels));
          console.log(`${head}: drawn ${median(bertvizRuns.map((b) => b.drawn)).toFixed(1)}, pixels ${px.toFixed(1)} (${bertvizRuns.map((b) => b.pixels.toFixed(0)).join(', ')}); JS heap ${median(bertvizRuns.map((b) => b.heapMB)).toFixed(1)} MB (ours ${median(heaps).toFixed(1)} MB), ${bertvizRuns[0].elements.toLocaleString('en')} elements`);
          console.log(`  BertViz pixels / our pixels: ${(px / median(pixels)).toFixed(1)}×; / our painted: ${(px / median(painted)).toFixed(1)}×`);
        }
        if (bertvizFailed !== undefined) console.log(`${head}: ${bertvizFailed}${bertvizRuns.length > 0 ? ` (in run ${bertvizRuns.length + 1} of ${runs})` : ''}`);
        rmSync(theirs.html, { force: true });
      }
    }
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Browser = Awaited<ReturnType<typeof import('playwright-core')['chromium']['launch']>>;
type Context = Awaited<ReturnType<Browser['newContext']>>;
type Tab = Awaited<ReturnType<Context['newPage']>>;

/** BertViz's sources and the libraries its page loads (fetched once per bench). */
interface Bertviz { source: BertvizSource; libs: BertvizLibs }

function prepareBertviz(from: string, dir: string): Bertviz {
  const source = readBertviz(from);
  const libsDir = process.argv.includes('--bertviz-libs') ? resolve(arg('--bertviz-libs', '')) : undefined;
  return { source, libs: libsDir ? givenBertvizLibs(libsDir) : packBertvizLibs(join(dir, 'bertviz-libs')) };
}

/** BertViz's page on the attention file's tensors and tokens (ours shows the file's own tokens). */
function bertvizPage(bertviz: Bertviz, file: string, html: string): { html: string; root: string; bytes: number; writeMs: number } {
  const t0 = performance.now();
  const a = openAttention(file);
  try {
    const tokens = a.tokens ?? Array.from({ length: a.n }, (_, i) => String(i));
    const root = bertvizRootDivId();
    const bytes = writeHeadViewPage(html, bertviz.source, bertviz.libs, { layers: a.layers, heads: a.heads, n: a.n, head: (l, h) => a.head(l, h) }, tokens, root);
    return { html, root, bytes, writeMs: performance.now() - t0 };
  } finally {
    a.close();
  }
}

/** The tab's V8 heap in use after a garbage collection (what the page keeps), in MB. */
async function usedHeapMB(context: Context, tab: Tab): Promise<number> {
  const cdp = await context.newCDPSession(tab);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1e6;
}

interface BertvizRun { drawn: number; pixels: number; heapMB: number; elements: number }

/**
 * One fresh tab of BertViz's page: navigation → its svg's attention lines in the DOM (renderVis draws
 * them, the text boxes and the head checkboxes in one task) and two frames; or why not (a string).
 */
async function bertvizTab(browser: Browser, html: string, root: string): Promise<BertvizRun | string> {
  const limit = bertvizTimeout * 1000;
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const tab = await context.newPage();
    await tab.goto(`file://${html}`, { waitUntil: 'commit', timeout: limit });
    const measured = tab.evaluate(async ({ root, limit }) => {
      const lines = `#${root} #vis svg #attention line`;
      while (!document.querySelector(lines)) {
        if (performance.now() > limit) return undefined;
        await new Promise((res) => setTimeout(res, 5));
      }
      const drawn = performance.now();
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      return { drawn, pixels: performance.now(), elements: document.getElementsByTagName('*').length };
    }, { root, limit });
    measured.catch(() => {});
    // The page's own clock cannot say 'too late' while its main thread is parsing: this one can.
    const late = new Promise<undefined>((res) => { timer = setTimeout(() => res(undefined), limit + 2000); });
    const t = await Promise.race([measured, late]);
    if (!t) return `did not paint within ${bertvizTimeout} s`;
    return { ...t, heapMB: await usedHeapMB(context, tab) };
  } catch (e) {
    return `failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`;
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
  }
}

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
