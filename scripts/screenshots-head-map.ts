// Screenshots of a big head's map in a real VS Code (code-server + Chromium), as a user gets there:
// Quick Open on an attention file, "Open Model Attention", Enter on the grid's first head; then on
// the map, by keyboard: the whole head (and its foot: the arcs and the legend), + three times, + to single cells and
// the arrows (the cell they move read out beside it and by the status line), a hover on a cell there, and back to
// the whole head coloured by mass (m), zoomed by mass, and on a log scale (l). Light, dark and
// high contrast, with the editor about 430, 700 and 1,300 px wide. The file is ATTN_HEAD_MAP_FILE
// (a .safetensors of attention), else .scratch/head-map-4096.safetensors, written here once if it is
// not there: 1 × 2 × 4,096 F16, a sink on the first token, the previous token, a stripe 512 back, a
// needle, a repeated sentence (64 MiB, a row at a time). `npm run
// screenshots:head-map` writes test-results/head-map-<theme>-<width>-<what>.png; look at them.
// ATTN_SHOTS_THEMES=dark,hc and ATTN_SHOTS_WIDTHS=430 pick some; ATTN_SHOTS_TAG=x names them head-map-x-….
import { Buffer } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import {
  installVsix, launchChromium, makeUserDataDir, ROOT, startCodeServer, tempDir, workbenchUrl,
} from './vscode/code-server.mjs';
import { endShots, runShots } from './shots-session.js';
import { pickColorTheme, poll, quickOpen, runCommand, waitForWorkbench } from '../test/e2e/workbench.js';

const RESULTS = path.join(ROOT, 'test-results');
const VSIX = process.env.ATTN_VSIX || path.join(ROOT, 'attention-lens.vsix');
const FILE = path.resolve(process.env.ATTN_HEAD_MAP_FILE || path.join(ROOT, '.scratch', 'head-map-4096.safetensors'));
const THEMES = [
  { name: 'light', theme: 'Light Modern' },
  { name: 'dark', theme: 'Dark Modern' },
  { name: 'hc', theme: 'Dark High Contrast' },
].filter((t) => !process.env.ATTN_SHOTS_THEMES || process.env.ATTN_SHOTS_THEMES.split(',').includes(t.name));
const WIDTHS = [430, 700, 1300].filter((w) => !process.env.ATTN_SHOTS_WIDTHS || process.env.ATTN_SHOTS_WIDTHS.split(',').includes(String(w)));
const HEIGHT = 1000;
/** A word in the screenshots' names (another file's pictures beside the default file's). */
const TAG = process.env.ATTN_SHOTS_TAG ? `${process.env.ATTN_SHOTS_TAG}-` : '';

/** float16 bits of v in [0, 1] (round to nearest; subnormals kept). */
function f16(v: number): number {
  if (v < 2 ** -24) return 0;
  const e = Math.floor(Math.log2(v));
  if (e < -14) return Math.round(v / 2 ** -24);
  const m = Math.round((v / 2 ** e - 1) * 1024);
  return m === 1024 ? ((e + 16) << 10) : ((e + 15) << 10) | m;
}

/**
 * The default file: head 1 gives each row half to the first token, a quarter to the previous one, a
 * tenth 512 back and one needle (row 2,497 → key 164), the rest spread; head 2 a sink of 0.3 and the
 * word after each earlier copy of its own word (the sentence repeats every 24 tokens).
 */
function writeDefaultFile(file: string): void {
  const n = 4096, heads = 2;
  const words = 'the lens shows where each token looks when a model reads one long text and this head keeps its sink on the first word'.split(' ');
  const tokens = Array.from({ length: n }, (_, i) => (i === 0 ? '<bos>' : words[i % words.length]));
  let header = JSON.stringify({ attentions: { dtype: 'F16', shape: [1, heads, n, n], data_offsets: [0, heads * n * n * 2] }, __metadata__: { tokens: JSON.stringify(tokens) } });
  header += ' '.repeat((8 - (Buffer.byteLength(header) % 8)) % 8);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(header)));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(`${file}.part`, 'w');
  try {
    fs.writeSync(fd, length);
    fs.writeSync(fd, header);
    const row = new Float64Array(n), codes = new Uint16Array(n);
    let s = 7;
    const rand = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
    for (let h = 0; h < heads; h++) {
      for (let i = 0; i < n; i++) {
        row.fill(0);
        if (i === 0) row[0] = 1;
        else {
          for (let j = 1; j <= i; j++) row[j] = rand() / i;
          if (h === 0) {
            row[i - 1] += 0.5;
            if (i > 512) row[i - 512] += 0.2;
            if (i === 2496) row[163] += 0.25;
          } else {
            for (let j = (i % words.length) + 1; j < i; j += words.length) row[j] += 2 / Math.max(1, Math.floor(i / words.length));
          }
          const sink = h === 0 ? 0.5 : 0.3;
          let rest = 0;
          for (let j = 1; j <= i; j++) rest += row[j];
          for (let j = 1; j <= i; j++) row[j] *= (1 - sink) / rest;
          row[0] = sink;
        }
        for (let j = 0; j < n; j++) codes[j] = f16(row[j]);
        fs.writeSync(fd, new Uint8Array(codes.buffer));
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(`${file}.part`, file);
}

async function modelFrame(page: Page): Promise<Frame> {
  return poll('the model page (a frame with #model-root, ready)', async () => {
    for (const f of page.frames()) {
      const state = await f.$eval('#model-root', (el) => (el as HTMLElement).dataset.state).catch(() => undefined);
      if (state === 'ready') return f;
    }
    return undefined;
  }, 120_000);
}

/** The palette misses a keystroke now and then on a busy machine: a second try rather than no pictures. */
async function command(page: Page, title: string): Promise<void> {
  await runCommand(page, title).catch(async () => { await page.keyboard.press('Escape'); await runCommand(page, title); });
}

async function settle(frame: Frame): Promise<void> {
  await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Waits until the map's tile images stop changing (the tiles asked have come and been drawn): the
 * view gives no signal of its own for "every tile in view answered", so the images are counted.
 */
async function tilesSettled(frame: Frame): Promise<string> {
  let last = '', same = 0;
  return poll('the map\'s tiles to stop changing', async () => {
    const now = await frame.$$eval('image.tile, image.sink-tile', (els) => els.map((e) => `${e.getAttribute('class')}:${e.getAttribute('data-level')}`).sort().join(','));
    same = now === last ? same + 1 : 0;
    last = now;
    if (same < 8) return undefined;
    const levels = new Map<string, number>();
    for (const x of now.split(',').filter(Boolean)) levels.set(x, (levels.get(x) ?? 0) + 1);
    return [...levels].map(([k, v]) => `${v}×${k}`).join(' ') || 'no tile images';
  }, 90_000);
}

async function webviewWidth(page: Page): Promise<number> {
  return poll('the webview iframe', async () => {
    const boxes = await page.$$eval('iframe.webview', (els) => els.map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0).map((b) => b.width));
    return boxes.length ? Math.max(...boxes) : undefined;
  }, 20_000);
}

/** Sizes the window until the (only) editor's webview is `width` px wide, give or take a few. */
async function fitWebview(page: Page, width: number): Promise<number> {
  let shown = await webviewWidth(page);
  for (let i = 0; i < 5 && Math.abs(shown - width) > 6; i++) {
    const now = page.viewportSize()!;
    await page.setViewportSize({ width: Math.max(360, Math.round(now.width + (width - shown))), height: HEIGHT });
    await page.waitForTimeout(400); // the workbench lays out again on the window's resize event
    shown = await webviewWidth(page);
  }
  return shown;
}

async function main(): Promise<string[]> {
  if (!fs.existsSync(FILE)) {
    if (process.env.ATTN_HEAD_MAP_FILE) throw new Error(`${FILE}: no such attention file`);
    writeDefaultFile(FILE);
  }
  fs.mkdirSync(RESULTS, { recursive: true });
  const extensionsDir = tempDir('shots-extensions');
  installVsix(VSIX, extensionsDir);
  const server = await startCodeServer({ extensionsDir, userDataDir: makeUserDataDir({ 'workbench.colorTheme': 'Dark Modern' }), logFile: path.join(RESULTS, 'shots-head-map-server.log') });
  const browser = await launchChromium();
  const made: string[] = [];
  const name = path.basename(FILE);
  try {
    for (const t of THEMES) {
      const folder = tempDir('workspace');
      fs.symlinkSync(FILE, path.join(folder, name));
      const page = await browser.newPage({ viewport: { width: 1300 + 400, height: HEIGHT } });
      await page.goto(workbenchUrl(server.base, { folder }));
      await waitForWorkbench(page);
      await pickColorTheme(page, t.theme).catch(async () => { await page.keyboard.press('Escape'); await pickColorTheme(page, t.theme); });
      await page.keyboard.press('Control+B'); // the side bar away: the editor is the window's width
      await quickOpen(page, name);
      await command(page, 'Open Model Attention');
      const frame = await modelFrame(page);
      // The grid's first head, by keyboard.
      await poll('the grid\'s first head', async () => (await frame.$('g.head-cell[tabindex="0"]')) !== null, 60_000);
      await frame.focus('g.head-cell[tabindex="0"]');
      await page.keyboard.press('Enter');
      await poll('the head map', async () => (await frame.$('g.head-map')) !== null, 60_000);
      // As it first shows (a big file's scan may not have reached the head yet: its picture, tiles to come).
      const early = path.join(RESULTS, `head-map-${TAG}${t.name}-opened.png`);
      await page.screenshot({ path: early });
      made.push(early);
      console.log(`${early} (tiles drawn: ${await frame.$$eval('image.tile', (els) => els.length)})`);
      for (const width of WIDTHS) {
        const shownWidth = await fitWebview(page, width);
        await poll('the map drawn again at the new width', async () => (await frame.$('g.head-map')) !== null, 20_000);
        const shoot = async (what: string, tiles: string) => {
          await settle(frame);
          const file = path.join(RESULTS, `head-map-${TAG}${t.name}-${width}-${what}.png`);
          await page.screenshot({ path: file });
          made.push(file);
          const said = await frame.$eval('text.zoom-range', (e) => e.textContent).catch(() => '');
          const status = await frame.$eval('.map-status', (e) => e.textContent).catch(() => '');
          console.log(`${file} (view ${Math.round(shownWidth)} px; tiles ${tiles}; ${said}; status: ${status})`);
        };
        const keys = async (...pressed: string[]) => {
          await frame.focus('g.head-map');
          for (const k of pressed) await page.keyboard.press(k);
          return tilesSettled(frame);
        };
        await shoot('whole', await keys('0'));
        // The view's foot (the arcs' note and the legend), scrolled to, then back.
        const scroll = (to: 'end' | 'top') => frame.evaluate((end) => {
          for (const el of [document.scrollingElement, document.getElementById('model-root')]) if (el) el.scrollTop = end ? el.scrollHeight : 0;
        }, to === 'end');
        await scroll('end');
        await shoot('whole-foot', 'as before');
        await scroll('top');
        await shoot('zoom-3', await keys('+', '+', '+'));
        await shoot('level-0', await keys('+', '+', '+', '+', '+', 'ArrowRight', 'ArrowDown', 'ArrowDown'));
        const box = (await frame.locator('g.head-map rect.hit').boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await poll('the hover\'s tooltip', async () => (await frame.$eval('#attention-tooltip', (e) => !e.hasAttribute('hidden') && (e.textContent ?? '').length > 0).catch(() => false)), 10_000).catch(() => {});
        await shoot('level-0-hover', 'as before');
        await page.mouse.move(2, 2);
        await shoot('whole-mass', await keys('0', 'm'));
        await shoot('zoom-3-mass', await keys('+', '+', '+'));
        await shoot('whole-mass-log', await keys('0', 'l'));
        await scroll('end');
        await shoot('whole-mass-log-foot', 'as before');
        await scroll('top');
        await shoot('whole-max-log', await keys('m'));
        await scroll('end');
        await shoot('whole-max-log-foot', 'as before');
        await scroll('top');
        await keys('l'); // back to the strongest weight, linear
      }
      await page.close();
    }
  } finally {
    await endShots(browser, server);
  }
  return made;
}

runShots(main, RESULTS);
