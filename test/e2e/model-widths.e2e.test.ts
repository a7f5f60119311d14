// The model views' text, measured by Chromium as the panel's is (widths.e2e.test.ts): the offline
// page `attn render FILE --view V --html` makes (the model editor's shell and views, with the data
// inside it) in frames 430, 626 and 1,200 px wide, in the light, dark and high-contrast classes, for
// a small file with a repeated and a long token, a long head (200 tokens: labels that must be
// thinned) and a grid of 144 heads. No text overlaps text, none leaves its picture, and a cut text
// has the rest one hover away (test/e2e/widths-probe.ts). Then, measured the same way: the finder
// of a file whose statistics run from 1e-12 to 1e-3 (exponents side by side) keeps a gap between
// every two numbers of a row at 430, 700 and 1,200 px, and the rollout labels its rows, columns and
// bars with their tokens, a repeated word with its position. Needs `node scripts/build.mjs`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, tempDir, removeTempDirs } from '../../scripts/vscode/code-server.mjs';
import { MODEL_VIEW_NAMES } from '../../src/core/vocabulary.js';
import { STAT_NAMES } from '../../src/core/tensors/head-stats.js';
import { attn } from '../support/cli.js';
import { randomAttention, writeSafetensors } from '../support/model-fixture.js';
import type { Finding } from './widths-probe.js';
import type { Detail } from './model-details-probe.js';

const ORIGIN = 'http://attention-lens.test';
const WIDTHS = [430, 626, 1200];
const THEMES = ['vscode-light', 'vscode-dark', 'vscode-high-contrast'];

interface Row extends Finding { file: string; view: string; width: number; theme: string }
const rows: Row[] = [];
let measured = 0;

const details = new Map<string, Detail>();
let browser: Browser | undefined;

/**
 * A head's weights almost all on its own token and the rest tiny, each head at its own scale from
 * 1e-3 down to 1e-14 (seeded): the finder's previous-token, duplicate, induction and sink columns are
 * then numbers in exponent form side by side ("2e-10" beside "4e-5"), the widest the table writes.
 */
function tinyWeights(layers: number, heads: number, n: number): Float32Array {
  let s = 30;
  const rand = () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  const a = new Float32Array(layers * heads * n * n);
  for (let r = 0; r < layers * heads * n; r++) {
    const i = r % n, scale = 3 + Math.floor(r / n) % 12;
    let rest = 0;
    for (let j = 0; j < n; j++) if (j !== i) { a[r * n + j] = 10 ** (-scale - 2 * rand()); rest += a[r * n + j]; }
    a[r * n + i] = 1 - rest;
  }
  return a;
}

/** The editor's width in a 430 px window beside VS Code's activity bar and sash (the finder's columns at their narrowest). */
const EDITOR_IN_430 = 370;

/** Two numbers this close (px) read as one ("2e-104e-5"). */
const NUMBER_GAP = 3;

function files(dir: string): { name: string; path: string; views?: readonly string[] }[] {
  const made: { name: string; path: string; views?: readonly string[] }[] = [];
  const put = (name: string, layers: number, heads: number, n: number, tokens: string[]) => {
    const file = path.join(dir, name);
    writeSafetensors(file, randomAttention(layers, heads, n, 3), layers, heads, n, tokens);
    made.push({ name, path: file });
  };
  put('small.safetensors', 2, 4, 8, ['The', 'watch', 'on', 'my', 'wrist', 'watch', 'supercalifragilistic', '.']);
  put('long.safetensors', 1, 2, 200, Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? 'watch' : `tok${i}`)));
  put('grid.safetensors', 12, 12, 32, Array.from({ length: 32 }, (_, i) => `w${i}`));
  const tiny = path.join(dir, 'tiny.safetensors');
  writeSafetensors(tiny, tinyWeights(3, 4, 12), 3, 4, 12, Array.from({ length: 12 }, (_, i) => ['a', 'b', 'c', 'd'][i % 4]));
  made.push({ name: 'tiny.safetensors', path: tiny, views: ['finder'] });
  return made;
}

async function probeBundle(file = 'widths-probe.ts', globalName = 'widthsProbe'): Promise<string> {
  const r = await esbuild.build({
    entryPoints: [path.join(__dirname, file)], bundle: true, write: false, format: 'iife',
    globalName, platform: 'browser', target: 'es2022',
  });
  return r.outputFiles[0].text;
}

function say(r: Row): string {
  return `${r.file} · ${r.view} · ${r.width} px · ${r.theme}: ${r.kind} "${r.a}"${r.b === undefined ? '' : ` and "${r.b}"`} (${r.detail})`;
}

describe('model widths: the model views\' text fits at 430, 626 and 1,200 px in every theme', { timeout: 600_000 }, () => {
  before(async () => {
    const dir = tempDir('model-widths');
    const pages = new Map<string, string>();
    for (const f of files(dir)) {
      for (const view of f.views ?? MODEL_VIEW_NAMES) {
        const out = path.join(dir, `${f.name}.${view}.html`);
        const r = await attn('render', f.path, '--view', view, '--html', out);
        assert.equal(r.code, 0, `${f.name} --view ${view}: ${r.err}`);
        pages.set(`${f.name}|${view}`, fs.readFileSync(out, 'utf8'));
      }
    }
    const probe = `${await probeBundle()}\n${await probeBundle('model-details-probe.ts', 'modelDetails')}`;
    browser = await launchChromium();
    const page: Page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('pageerror', (e) => rows.push({ file: '(page)', view: '-', width: 0, theme: '-', kind: 'error', where: 'chrome', a: e.message, detail: 'uncaught error' }));
    await page.route(`${ORIGIN}/**`, (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/probe.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: probe });
      const key = decodeURIComponent(url.pathname.slice(1));
      const body = key === 'top.html' ? `<!doctype html><body style="margin:0"><script src="/probe.js"></script></body>` : pages.get(key);
      return body ? route.fulfill({ status: 200, contentType: 'text/html', body }) : route.fulfill({ status: 404, body: 'not here' });
    });
    await page.goto(`${ORIGIN}/top.html`);
    await page.waitForFunction(() => 'widthsProbe' in window);
    for (const key of pages.keys()) {
      const [file, view] = key.split('|');
      const found = await page.evaluate(({ url, widths, themes }) =>
        (window as unknown as { widthsProbe: typeof import('./widths-probe.js') }).widthsProbe.runModelPage(url, widths, themes),
      { url: `/${encodeURIComponent(key)}`, widths: WIDTHS, themes: THEMES });
      for (const c of found) {
        measured++;
        for (const f of c.findings) rows.push({ ...f, file, view, width: c.width, theme: c.theme });
      }
    }
    // The finder's numbers and the rollout's labels, at each width, in a frame of that width, at
    // VS Code's 13 px (the page's own is 12: the finder once fitted numbers at 12 and drew them at 13).
    for (const [key, width] of [...WIDTHS.flatMap((w) => ['tiny.safetensors|finder', 'small.safetensors|rollout', 'long.safetensors|rollout'].map((k) => [k, w] as const)), ['tiny.safetensors|finder', EDITOR_IN_430] as const]) {
      details.set(`${key}|${width}`, await page.evaluate((args) =>
        (window as unknown as { modelDetails: typeof import('./model-details-probe.js') }).modelDetails.inFrame(args),
      { url: `/${encodeURIComponent(key)}`, width, gap: NUMBER_GAP, fontSize: 13 }));
    }
    console.log(`[model widths] ${measured} pictures measured; ${rows.length} findings`);
    if (process.env.ATTN_WIDTHS_REPORT) fs.writeFileSync(process.env.ATTN_WIDTHS_REPORT, JSON.stringify(rows, null, 1));
  });

  after(async () => {
    await browser?.close();
    if (!process.env.ATTN_KEEP_TEMP) removeTempDirs();
  });

  it('measured every file in every model view at every width and theme, without an uncaught error', () => {
    assert.equal(measured, (3 * MODEL_VIEW_NAMES.length + 1) * WIDTHS.length * THEMES.length);
    assert.deepEqual(rows.filter((r) => r.kind === 'error').map(say), []);
  });

  for (const width of [EDITOR_IN_430, ...WIDTHS]) {
    it(`finder at ${width} px: no two numbers of a row touch, and every statistic is defined on screen`, () => {
      const d = details.get(`tiny.safetensors|finder|${width}`)!;
      assert.equal(d.state, 'ready');
      assert.ok(d.numbers >= 3 * 4 * 7, `${d.numbers} numbers measured`);
      assert.ok(d.exponents > 0, 'numbers in exponent form side by side');
      assert.deepEqual(d.touching, [], `numbers closer than ${NUMBER_GAP} px`);
      for (const k of STAT_NAMES) assert.ok(d.legend.some((l) => l.startsWith(`${k}:`)), `${k} defined in the legend: ${d.legend.join(' | ')}`);
    });

    if (width === EDITOR_IN_430) continue;
    it(`rollout at ${width} px: rows, columns and bars carry their tokens, a repeated word its position`, () => {
      const small = details.get(`small.safetensors|rollout|${width}`)!;
      assert.equal(small.state, 'ready');
      for (const axis of [small.rows, small.columns, small.bars]) {
        assert.equal(axis.length, 8);
        assert.ok(axis.includes('2 "watch"') && axis.includes('6 "watch"'), axis.join(', '));
        assert.ok(axis.includes('"wrist"'), 'a word that occurs once keeps its plain name');
      }
      const long = details.get(`long.safetensors|rollout|${width}`)!;
      assert.ok(long.rows.length >= 5 && long.rows.length < 200, `${long.rows.length} row labels of 200 tokens`);
      assert.equal(long.bars.length, long.rows.length);
      assert.ok(long.rows.every((r) => /^\d+ "/.test(r)), 'thinned labels are numbered');
    });
  }

  for (const view of MODEL_VIEW_NAMES) {
    it(`${view}: its texts fit`, () => {
      const failures = [...new Set(rows.filter((r) => r.view === view && r.kind !== 'error').map(say))];
      assert.deepEqual(failures, [], `${failures.length} failures:\n${failures.slice(0, 40).join('\n')}`);
    });
  }
});
