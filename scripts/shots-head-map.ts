// Screenshots of the head view's map of a 32,768-token head in headless Chromium, the model editor's
// webview (dist/model-webview.js: run `node scripts/build.mjs` first) on a plain page with the host
// played here: the header, the head's picture and map, and every tile asked, computed from a rule
// (key 0 a sink taking half of each row, the previous token a quarter, a stripe 512 back, one needle,
// the rest spread), never an n × n matrix. Light, dark and high contrast at 430 px, 700 px and wide,
// whole and zoomed to single cells: test-results/map-<theme>-<width>-<whole|deep>.png. Look at them.
//   node --import tsx scripts/shots-head-map.ts [--n 32768] [--themes light,dark,high-contrast] [--widths 430,700,1300]
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scanModel } from '../src/core/model-attention/scan.js';
import { mapLevels } from '../src/core/tensors/map/pyramid.js';
import { memoryAttention } from '../test/support/model-fixture.js';

const arg = (name: string, dflt: string) => { const i = process.argv.indexOf(name); return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt; };
const n = Number(arg('--n', '32768'));
const NEEDLE = { i: Math.floor(n * 0.61), j: Math.floor(n * 0.04), w: 0.12 };
const WORDS = 'the lens shows where each token looks when the model reads a long text and the head keeps its sink'.split(' ');

/** Row i's special keys (besides the spread): [key, weight]; the spread gets what is left over keys 1 … i. */
function specials(i: number): [number, number][] {
  if (i === 0) return [];
  const out: [number, number][] = [[i - 1, 0.25]];
  if (i > 512) out.push([i - 512, 0.1]);
  if (i === NEEDLE.i) out.push([NEEDLE.j, NEEDLE.w]);
  return out;
}
const sinkWeight = (i: number) => (i === 0 ? 1 : 0.5);
const spread = (i: number) => (i === 0 ? 0 : (0.5 - specials(i).reduce((a, [, w]) => a + w, 0)) / i);

/** Block max and sum (key 0 left out) of rows [a, b) × keys [c, d), and the sink column's. */
function tile(level: number, i0: number, j0: number, rows: number, cols: number) {
  const B = 2 ** level;
  const max = new Float64Array(rows * cols), sum = new Float64Array(rows * cols);
  const sMax = new Float64Array(rows), sSum = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    for (let i = (i0 + r) * B; i < Math.min(n, (i0 + r + 1) * B); i++) {
      sMax[r] = Math.max(sMax[r], sinkWeight(i)); sSum[r] += sinkWeight(i);
      const u = spread(i);
      for (let c = 0; c < cols; c++) {
        const lo = Math.max(1, (j0 + c) * B), hi = Math.min(n, (j0 + c + 1) * B, i + 1);
        if (hi > lo) { max[r * cols + c] = Math.max(max[r * cols + c], u); sum[r * cols + c] += u * (hi - lo); }
      }
      for (const [j, w] of specials(i)) {
        if (j === 0) continue;
        const c = Math.floor(j / B) - j0;
        if (c >= 0 && c < cols) { max[r * cols + c] = Math.max(max[r * cols + c], u + w); sum[r * cols + c] += w; }
      }
    }
  }
  return { level, i0, j0, rows, cols, max: Array.from(max), sum: Array.from(sum), sinkColumns: [{ key: 0, max: Array.from(sMax), sum: Array.from(sSum) }] };
}

async function main(): Promise<void> {
  const out = resolve('test-results');
  mkdirSync(out, { recursive: true });
  const small = scanModel(memoryAttention(new Float32Array(64 * 64).map((_, k) => (k % 65 === 0 ? 1 : 0)), 1, 1, 64, Array.from({ length: 64 }, (_, i) => WORDS[i % WORDS.length])));
  const header = { ...small.header, tokens: n, tokenTexts: Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]) };
  // The picture: 512² of the head's block max (sink included), as colour indices of the head's strongest weight.
  const res = Math.min(512, n), L = Math.log2(n / res);
  const indices = new Array<number>(res * res).fill(0);
  const headMax = 1;
  let max = 0;
  for (let ti = 0; ti < res; ti += 256) for (let tj = 0; tj < res; tj += 256) {
    const t = tile(L, ti, tj, Math.min(256, res - ti), Math.min(256, res - tj));
    for (let r = 0; r < t.rows; r++) for (let c = 0; c < t.cols; c++) {
      const v = Math.max(t.max[r * t.cols + c], tj + c === 0 ? t.sinkColumns[0].max[r] : 0);
      max = Math.max(max, t.max[r * t.cols + c]);
      indices[(ti + r) * res + tj + c] = Math.round(255 * Math.min(1, v / headMax));
    }
  }
  const map = { n, levels: mapLevels(n), sinks: [0], max, sinkMax: 1 };
  const dir = mkdtempSync(join(tmpdir(), 'map-shots-'));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--allow-file-access-from-files'] });
  try {
    for (const theme of arg('--themes', 'light,dark,high-contrast').split(',')) {
      for (const width of arg('--widths', '430,700,1300').split(',').map(Number)) {
        const page = join(dir, `p-${theme}.html`);
        writeFileSync(page, `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="stylesheet" href="${resolve('media/model.css')}"></head>
<body class="vscode-${theme}"><main id="model-root" data-state="loading"></main><div id="attention-tooltip" role="tooltip" hidden></div>
<script>window.posted = []; window.asked = 0; window.answered = 0;
window.acquireVsCodeApi = () => ({ getState: () => ({ view: 'head' }), setState: () => {}, postMessage: (m) => {
  window.posted.push(m);
  if (m.type === 'tile') { window.asked++; window.tileOf(m).then((t) => { const f = (a) => Float32Array.from(a);
    window.postMessage({ type: 'tile', layer: m.layer, head: m.head, ...t, max: f(t.max), sum: f(t.sum), sinkColumns: t.sinkColumns.map((s) => ({ key: s.key, max: f(s.max), sum: f(s.sum) })) }, '*'); window.answered++; }); }
} });</script>
<script src="${resolve('dist/model-webview.js')}"></script></body></html>`);
        const tab = await browser.newPage({ viewport: { width, height: 1250 } });
        await tab.exposeFunction('tileOf', (m: { level: number; i0: number; j0: number; rows: number; cols: number }) => tile(m.level, m.i0, m.j0, m.rows, m.cols));
        await tab.goto(`file://${page}`);
        await tab.waitForFunction(() => (window as unknown as { posted: { type: string }[] }).posted.some((m) => m.type === 'ready'));
        await tab.evaluate(({ header, thumbnails }) => window.postMessage({ type: 'model', header, thumbnails: Float32Array.from(thumbnails) }, '*'), { header, thumbnails: Array.from(small.thumbnails) });
        await tab.waitForFunction(() => (window as unknown as { posted: { type: string }[] }).posted.some((m) => m.type === 'head'));
        const t0 = Date.now();
        await tab.evaluate(({ indices, res, map, headMax }) => window.postMessage({ type: 'head', layer: 0, head: 0, picture: { res, indices: Uint8Array.from(indices) }, max: headMax, map }, '*'), { indices, res, map, headMax });
        const settle = async () => {
          await tab.waitForFunction(() => { const w = window as unknown as { asked: number; answered: number }; return w.asked > 0 && w.asked === w.answered; }, undefined, { timeout: 120_000 });
          await tab.waitForTimeout(300);
          await tab.evaluate(async () => { await Promise.all([...document.querySelectorAll('image')].map((im) => (im as unknown as { decode?: () => Promise<void> }).decode?.().catch(() => {}))); });
        };
        await settle();
        const whole = Date.now() - t0;
        await tab.screenshot({ path: join(out, `map-${theme}-${width}-whole.png`), fullPage: true });
        // A zoom step by key, in the page: the keydown's handling (labels, the kept tiles drawn scaled,
        // the asks), best of 5 in and out; beside it the head view's own first drawing ('painted' drawMs).
        const step = await tab.evaluate(() => {
          const frame = document.querySelector('g.head-map')!;
          let best = Infinity;
          for (let r = 0; r < 5; r++) for (const key of ['+', '-']) {
            const t = performance.now();
            frame.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
            best = Math.min(best, performance.now() - t);
          }
          const painted = (window as unknown as { posted: { type: string; view?: string; drawMs?: number }[] }).posted.filter((m) => m.type === 'painted' && m.view === 'head');
          return { best, drawMs: painted[painted.length - 1]?.drawMs ?? NaN };
        });
        await settle();
        // Zoom to single cells around the needle by keyboard: focus the map, zoom in, pan.
        await tab.focus('g.head-map');
        for (let k = 0; k < 9; k++) await tab.keyboard.press('+');
        await settle();
        await tab.screenshot({ path: join(out, `map-${theme}-${width}-deep.png`), fullPage: true });
        const said = await tab.evaluate(() => document.querySelector('text.zoom-range')?.textContent);
        // The hover at the map's centre: the cell's tokens and exact weight.
        const box = (await tab.locator('g.head-map rect.hit').boundingBox())!;
        await tab.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        const tip = await tab.evaluate(() => document.getElementById('attention-tooltip')?.textContent);
        await tab.screenshot({ path: join(out, `map-${theme}-${width}-hover.png`), fullPage: true });
        // Back to the whole head, coloured by mass on a log scale.
        await tab.focus('g.head-map');
        await tab.keyboard.press('0');
        await tab.keyboard.press('m');
        await tab.focus('g.head-map');
        await tab.keyboard.press('l');
        await settle();
        await tab.screenshot({ path: join(out, `map-${theme}-${width}-mass-log.png`), fullPage: true });
        console.log(`${theme} ${width}px: whole head with tiles in ${whole} ms (the tiles computed by this script's stand-in host); a zoom step by key ${step.best.toFixed(1)} ms (reference: the head view's drawing ${step.drawMs.toFixed(1)} ms); after 9 × '+': ${said}; hover: ${tip}`);
        await tab.close();
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
